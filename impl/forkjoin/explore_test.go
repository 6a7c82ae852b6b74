//go:build explore

package forkjoin

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
)

// The fork-join pool's protocols one at a time ("pairs"; go test -tags
// explore -run TestExploreForkJoinPair ./impl/forkjoin, and with -tags
// explore,weak in the weak-memory mode). Each builds a pool as New does
// (build) but starts none of its goroutines: the scenario plays the
// workers with the real functions of the race, each on a scenario
// goroutine. Idle workers sleep until woken (no timeout) and get sleepy
// after one round (roundsUntilSleepy), so a lost wakeup is a deadlock a
// few steps in. The whole-pool scenarios (explore/scenarios,
// forkjoin_test.go) reach the same code through Run and Join, but are
// too big to be exhaustive, the more so in the weak-memory mode.

// newBarePool builds the pool cfg describes; its goroutines never start.
func newBarePool(cfg Config) *Pool {
	p, err := build(cfg)
	if err != nil {
		explore.Failf("build: %v", err)
	}
	return p
}

// searchUntilFound plays w's idle loop (waitUntil's, without running what
// it finds) on a latch nobody sets: search, and when nothing is found go
// one stage further towards sleep, until a job turns up.
func searchUntilFound(w *Worker) *job {
	var idle idleState
	for {
		if j := w.findWork(); j != nil {
			return j
		}
		w.pool.sleep.noWorkFound(&idle, &w.terminate, w)
	}
}

// A job published on a deque (a Join's second half, a Scope's spawn:
// Worker.push) while another worker searches, gets sleepy and falls
// asleep. The idle protocol's promise: the searcher finds the job, or the
// publisher's newJobs stops it from sleeping, or wakes it. Lost, the
// searcher sleeps for ever and the scenario deadlocks.
//
// Bound 4, not 3: the publication must fall between the searcher's last
// search and its registration, and the searcher yields twice before that
// (each round of its idle loop), each yield letting the publisher take a
// step and the return to the searcher costing a preemption. A searcher
// that registers without checking the JEC (mutant
// forkjoin-no-sleepy-announce) needs all four.
func TestExploreForkJoinPairSteal(t *testing.T) {
	explore.Check(t, "forkjoin/pair-steal", explore.Options{Preemptions: 4}, func() {
		p := newBarePool(Config{Workers: 2, NoSleepTimeout: true})
		want := &job{}
		var got *job
		thief := explore.Go("thief", func() { got = searchUntilFound(p.workers[1]) })
		p.workers[0].push(want)
		thief.Join()
		if got != want {
			explore.Failf("the thief found %p, want %p", got, want)
		}
	})
}

// A Run from outside the pool (the real Pool.Run: its registration under
// the pool's mutex, the injector push, newJobs, the wait for the job) while
// the pool's one worker searches, gets sleepy and falls asleep, then runs
// what it found. Besides the jobs event counter, the sleeper's last look
// at the injector after it registers is on this path.
//
// Bound 4, as pair-steal: the push falling between the worker's
// registration and its last look at the injector (it then un-registers)
// comes after the worker's two yields.
func TestExploreForkJoinPairInject(t *testing.T) {
	explore.Check(t, "forkjoin/pair-inject", explore.Options{Preemptions: 4}, func() { injectPair(0) })
}

// The same with a sleep timeout: the worker may also wake by itself and
// un-count itself as a sleeper (block) while the publisher reads the
// counters, and the publisher's wake may come between the timeout and
// the worker's lock. Bound 4 too: the early timeout costs one.
func TestExploreForkJoinPairInjectTimed(t *testing.T) {
	explore.Check(t, "forkjoin/pair-inject-timed", explore.Options{Preemptions: 4}, func() { injectPair(time.Millisecond) })
}

func injectPair(timeout time.Duration) {
	cfg := Config{Workers: 1, NoSleepTimeout: true}
	if timeout > 0 {
		cfg = Config{Workers: 1, SleepTimeout: timeout}
	}
	p := newBarePool(cfg)
	w := p.workers[0]
	worker := explore.Go("worker", func() { w.execute(searchUntilFound(w)) })
	ran := 0
	if err := p.Run(func(*Worker) { ran++ }); err != nil || ran != 1 {
		explore.Failf("Run: %v, ran %d times", err, ran)
	}
	worker.Join()
	if c := p.sleep.load(); c.sleepers() != 0 {
		explore.Failf("%d sleepers counted after the worker left", c.sleepers())
	}
}

// A Join's second half, stolen and finished by another worker (its
// completion: set the latch, wake the owner if it sleeps on it), while
// the owner waits for it, searching and falling asleep on the latch. The
// half's result is a plain cell: the owner must see it once the latch is
// set (the weak-memory mode reports a data race otherwise), and must not
// sleep through the set.
func TestExploreForkJoinPairLatch(t *testing.T) {
	explore.Check(t, "forkjoin/pair-latch", explore.Options{Preemptions: 3}, func() {
		p := newBarePool(Config{Workers: 1, NoSleepTimeout: true})
		owner := p.workers[0]
		half := &job{owner: owner}
		var result atomic.Cell[int]
		one := 1
		thief := explore.Go("thief", func() {
			result.Store(&one)
			half.complete(p)
		})
		owner.waitUntil(&half.latch)
		if r := result.Load(); r == nil || *r != 1 {
			explore.Failf("the owner saw the result %v after the latch", r)
		}
		thief.Join()
	})
}

// A Scope's last parts finishing on two workers (jobDone: count down,
// the part that reaches zero sets the latch and wakes the owner) while
// the owner, its body done, waits on the scope's latch. Each part writes
// a plain cell; the owner must see both once the latch is set.
func TestExploreForkJoinPairScope(t *testing.T) {
	explore.Check(t, "forkjoin/pair-scope", explore.Options{Preemptions: 3}, func() {
		p := newBarePool(Config{Workers: 1, NoSleepTimeout: true})
		owner := p.workers[0]
		st := &scopeState{owner: owner}
		st.pending.StoreRelaxed(3) // the body and two spawned parts
		var a, b atomic.Cell[int]
		one, two := 1, 2
		pa := explore.Go("part a", func() { a.Store(&one); st.jobDone(p, nil) })
		pb := explore.Go("part b", func() { b.Store(&two); st.jobDone(p, nil) })
		st.jobDone(p, nil) // the body
		owner.waitUntil(&st.latch)
		if ra, rb := a.Load(), b.Load(); ra == nil || rb == nil {
			explore.Failf("the owner saw the parts' results %v, %v after the latch", ra, rb)
		}
		pa.Join()
		pb.Join()
	})
}

// Close against a worker's main loop going idle and to sleep on its
// terminate latch: Close sets the latch and wakes the worker if it sleeps
// there; the worker must stop (main returns), or Close waits for ever.
func TestExploreForkJoinPairClose(t *testing.T) {
	explore.Check(t, "forkjoin/pair-close", explore.Options{Preemptions: 3}, func() {
		p := newBarePool(Config{Workers: 1, NoSleepTimeout: true})
		p.stopped.Add(1)
		w := explore.Go("worker", p.workers[0].main)
		if err := p.Close(); err != nil {
			explore.Failf("Close: %v", err)
		}
		w.Join()
	})
}

// A Scope whose body spawns a part (the real Worker.Scope and Scope.Spawn:
// the count raised by a CAS from a positive value, the part pushed on the
// owner's deque) while a thief looks for work once and runs what it
// finds. The owner, its body done, waits on the scope's latch, running
// the part itself if the thief did not take it. The part writes a plain
// cell; once Scope returns the owner must see it, and a Spawn on the
// finished scope is refused (ErrScopeDone).
func TestExploreForkJoinPairScopeSpawn(t *testing.T) {
	explore.Check(t, "forkjoin/pair-scope-spawn", explore.Options{Preemptions: 3}, func() {
		p := newBarePool(Config{Workers: 2, NoSleepTimeout: true})
		owner, thiefW := p.workers[0], p.workers[1]
		owner.depth.StoreRelaxed(1) // inside a job, as Scope requires
		var a atomic.Cell[int]
		one := 1
		thief := explore.Go("thief", func() {
			if j := thiefW.findWork(); j != nil {
				thiefW.execute(j)
			}
		})
		var kept *Scope
		err := owner.Scope(func(s *Scope) {
			kept = s
			if err := s.Spawn(func(*Scope) { a.Store(&one) }); err != nil {
				explore.Failf("Spawn: %v", err)
			}
		})
		if err != nil {
			explore.Failf("Scope: %v", err)
		}
		if r := a.Load(); r == nil || *r != 1 {
			explore.Failf("the owner saw the part's result %v after Scope returned", r)
		}
		if err := kept.Spawn(func(*Scope) {}); err != ErrScopeDone {
			explore.Failf("Spawn on a finished scope = %v, want ErrScopeDone", err)
		}
		thief.Join()
	})
}

// A Join (the real Worker.Join: b pushed and offered, a run here, b taken
// back or waited for) while a thief looks for work once and runs what it
// finds; then a second Join, which reuses the first's job record
// (freeJoinJob: its latch reset). Each half writes a plain cell; once a
// Join returns the owner must see both of its halves. Exhaustive at 3
// preemptions in both modes (8,028 schedules plain; 9,815 in the weak
// layer's reduced search, about 2 s of CPU).
func TestExploreForkJoinPairJoin(t *testing.T) {
	explore.Check(t, "forkjoin/pair-join", explore.Options{Preemptions: 3}, func() {
		p := newBarePool(Config{Workers: 2, NoSleepTimeout: true})
		owner, thiefW := p.workers[0], p.workers[1]
		owner.depth.StoreRelaxed(1) // inside a job, as Join requires
		thief := explore.Go("thief", func() {
			if j := thiefW.findWork(); j != nil {
				thiefW.execute(j)
			}
		})
		for round := range 2 {
			var a, b atomic.Cell[int]
			one, two := 1, 2
			if err := owner.Join(func(*Worker) { a.Store(&one) }, func(*Worker) { b.Store(&two) }); err != nil {
				explore.Failf("Join: %v", err)
			}
			if ra, rb := a.Load(), b.Load(); ra == nil || rb == nil {
				explore.Failf("round %d: the owner saw the halves' results %v, %v after Join returned", round, ra, rb)
			}
		}
		thief.Join()
	})
}

// A job that calls runtime.Goexit, on a pool New started (one worker),
// against the worker's idle loop and Close: the worker goroutine ends,
// its deferred call (main) finishes the job with ErrGoexit (afterGoexit:
// the jobs it was inside, its depth back to 0) and goes on with the same
// worker in a new goroutine, which Close must then stop (Close waits for
// it: without it, a deadlock). Run returns ErrGoexit; after Close,
// Snapshot (its relaxed diagnostic loads) finds the worker stopped, at
// depth 0, with nothing queued, injected or asleep. Exhaustive at 3
// preemptions in both modes (6,354 schedules plain; 32,343 in the weak
// layer's reduced search, about 5 s of CPU: past the default budget of
// 20,000, hence the larger one).
func TestExploreForkJoinPairGoexit(t *testing.T) {
	explore.Check(t, "forkjoin/pair-goexit", explore.Options{Preemptions: 3, MaxSchedules: 100_000}, func() {
		p, err := New(Config{Workers: 1, NoSleepTimeout: true})
		if err != nil {
			explore.Failf("New: %v", err)
		}
		if err := p.Run(func(*Worker) { runtime.Goexit() }); !errors.Is(err, ErrGoexit) {
			explore.Failf("Run of a job that calls Goexit = %v, want ErrGoexit", err)
		}
		if err := p.Close(); err != nil {
			explore.Failf("Close: %v", err)
		}
		s := p.Snapshot()
		if len(s.Workers) != 1 || s.Sleepers != 0 || s.Injected != 0 {
			explore.Failf("after Close: %d workers, %d sleepers, %d injected", len(s.Workers), s.Sleepers, s.Injected)
		}
		if w := s.Workers[0]; w.State != StateStopped || w.Depth != 0 || w.Queued != 0 {
			explore.Failf("after Close the worker is %v at depth %d with %d queued, want stopped, 0, 0", w.State, w.Depth, w.Queued)
		}
	})
}
