//go:build explore

package scenarios

import (
	"context"
	"errors"
	"testing"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/internal/engine"
	"github.com/wsched/wsched/impl/sched"
)

// The runtime scenarios run impl/sched whole: its workers, the idle
// protocol, parking (the park timeout off, so a lost wakeup is a
// deadlock), tasks and wakers, shutdown. Each ends with Shutdown, which
// must return nil: every worker goroutine gone.

// touched tells the explorer's reduced search that the running step
// writes *p, a variable of the scenario that goroutines share without an
// atomic (the explorer runs one at a time, so no race detector objects):
// the search then orders the steps that touch it (engine.Touch).
func touched[T any](p *T) { engine.Touch(uintptr(unsafe.Pointer(p)), true) }

// budget is a scenario's MaxSchedules: layer in the explore layer, and
// long under WSCHED_LONG (verify -long), where Check runs ten times it
// at one bound more. A scenario the layer cannot run to the end of its
// bound gets a layer budget that covers the bound below and a start on
// it, while -long keeps the budget that runs it through.
func budget(layer, longer int) int {
	if long() {
		return longer
	}
	return layer
}

// weakOneWorker sets opt for a one-worker runtime scenario that the weak
// layer runs: the reduced search at 1 preemption, the bound the
// explorer's scaling asks of runtime scenarios in the weak mode, each
// ending there in a few seconds at most (docs/explore.md, "Runtime
// scenarios in the weak mode"). With one worker the reduced search runs
// about as fast as the plain search with the state cache (weakSearch) at
// 1, and faster at 2, where -long runs these (runtime/go-recycling-1:
// 38,877 schedules in 10 s against 103,287 in 41 s). Most two-worker ones
// run at 1 for a minute or more, or do not end: verify -long runs those
// that end (weakLongAtOne); runtime/shutdown-races-go and
// stranding/extra-worker, at 1 in seconds, are the weak layer's
// (weakAtOne).
func weakOneWorker(opt *explore.Options) {
	opt.Reduce, opt.Preemptions, opt.MaxSchedules = true, 1, 100_000
}

// weakAtOne sets opt, in the weak mode, for a runtime scenario of two
// workers, or of one and an extra one, or of one where the state cache
// pays (misuse/goexit-races-wake: 43,815 schedules cached at 1 against
// the reduced search's 96,806, a third of its time), that the weak layer
// runs: its search (weakSearch) at 1 preemption with the budget given, and under
// -long at 1 as well (with ten times the budget; at 2 such searches run for
// many minutes), the bound written as 0 (Preemptions -1), which -long
// raises.
func weakAtOne(opt *explore.Options, budget int) {
	switch {
	case weakLong():
		*opt = weakLongAtOne(*opt, budget)
	case explore.WeakMode():
		opt.Preemptions, opt.MaxSchedules = 1, budget
		weakSearch(opt)
	}
}

// weakLongAtOne is opt, but in verify -long's weak layer, which runs these
// scenarios beside the weak layer's (scenarioset.WeakLongScenarios), the
// plain search with the state cache (weakSearch) at 1 preemption with the
// budget given (ten times it under -long). Each ends at 1 in the weak mode
// in 10 s to 2 minutes of one core (14 s to 3.4 minutes with the reduced
// search), too long together for the weak layer of every CI run, and
// none ends at 2 in minutes (docs/explore.md, "Runtime scenarios in the
// weak mode"): so the bound is written as 0 (Preemptions -1), which -long
// raises to 1.
// In the weak mode without -long opt is unchanged: the weak layer does
// not select these tests (scenarioset.WeakScenarios), and a test that
// holds a scenario of both (TestExploreSleep) says which runs.
func weakLongAtOne(opt explore.Options, budget int) explore.Options {
	if weakLong() {
		opt.Preemptions, opt.MaxSchedules = -1, budget
		weakSearch(&opt)
	}
	return opt
}

// weakByWorkers sets opt, in the weak mode, for a test of one and of two
// workers whose one-worker scenario the weak layer runs (weakOneWorker)
// and whose two-worker one, name, only verify -long's weak layer runs, at
// 1 with the budget given (weakLongAtOne), with the state cache like the
// other runtime scenarios there. Since a full table takes new states
// (docs/explore.md, "A full table") it pays on these too:
// runtime/go-recycling-2 ends in 1,691,827 schedules (783,473 cut) and
// about 4.5 minutes of one core, against the reduced search's 4,956,551
// in about 12, and wake-races-poll-2 in 1,331,250 (718,460 cut) and about
// 2, against 3,854,263 in about 6; sleep-2 about even (360,465 against
// 499,536). When the table kept its first states go-recycling-2 cut 4%
// of its runs and took 41 minutes. Outside -long it reports false and
// logs that the two-worker scenario is left to -long.
func weakByWorkers(t *testing.T, name string, workers int, opt *explore.Options, budget int) bool {
	t.Helper()
	if workers == 1 {
		weakOneWorker(opt)
		return true
	}
	if !weakLong() {
		t.Logf("explore %s: not run in the weak layer (verify -long's runs it at 1)", name)
		return false
	}
	*opt = weakLongAtOne(*opt, budget)
	return true
}

// looked is touched for a read of *p.
func looked[T any](p *T) { engine.Touch(uintptr(unsafe.Pointer(p)), false) }

// blockOn is explore.Block for a wait whose ready reads only *p, a
// variable of the scenario written under touched: the reduced search
// orders the wait against the writes of *p alone (engine.BlockOn), where
// a Block is ordered against every step of every goroutine.
func blockOn[T any](p *T, ready func() bool, what string) {
	engine.BlockOn(uintptr(unsafe.Pointer(p)), false, ready, what)
}

// newRuntime starts a runtime of n workers with the park timeout off and
// the monitor's help for long polls off (LongPoll < 0: the monitor only
// fires timers, and sleeps until one is due). These scenarios are about
// the workers' protocols; a monitor looking every half millisecond of
// virtual time would multiply their schedules (each look can come at any
// point) and push the bugs they find past the schedule budget. The
// stranding scenarios use newMonitoredRuntime.
func newRuntime(n int) *sched.Runtime {
	return newRuntimeWith(sched.Config{Workers: n, LongPoll: -1})
}

// newMonitoredRuntime starts a runtime of n workers with the park timeout
// off and the monitor as configured by default.
func newMonitoredRuntime(n int) *sched.Runtime {
	return newRuntimeWith(sched.Config{Workers: n})
}

func newRuntimeWith(cfg sched.Config) *sched.Runtime {
	rt, err := sched.New(cfg)
	if err != nil {
		explore.Failf("New: %v", err)
	}
	return rt
}

// shutdown stops rt and checks the accounting: every spawned task either
// completed or was cancelled.
func shutdown(rt *sched.Runtime) sched.Metrics {
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown: %v", err)
	}
	m := rt.Metrics()
	if m.Spawned != m.Completed+m.Cancelled {
		explore.Failf("after Shutdown: spawned %d, completed %d, cancelled %d\n%s", m.Spawned, m.Completed, m.Cancelled, m)
	}
	return m
}

// counter is a task body that counts its runs; the scenario's goroutines
// run one at a time, so a plain int is safe.
type counter struct{ runs int }

func (c *counter) task() sched.Task {
	return sched.Func(func() { c.runs++ })
}

// Two tasks spawned from outside onto two parked workers: each runs once,
// Wait returns for both, and no worker is left asleep with a task queued.
//
// The plain search with the state cache (plainCached) ends 2 preemptions
// in 256,696 schedules, its timed-park twin below in 359,864; the reduced
// search in 601,666 and 1,410,400; the plain search alone in about
// 2,000,000 and over 4,000,000. -long, the reduced search: the same
// budgets at 3, which they cannot end (plain forecast at 3: over
// 100,000,000 each). wake-races-poll-2 is the
// largest two-worker runtime search the layer runs to the end of 2
// (TestExploreWakeRacesPoll).
func TestExploreRemoteSpawn(t *testing.T) {
	// In -long's weak layer, at 1: exhaustive in 768,885 schedules, 2m9s
	// of one core (its budget there, ten times 120,000, leaves room; the
	// default weak layer does not run it).
	explore.Check(t, "runtime/remote-spawn", plainCached(weakLongAtOne(explore.Options{Reduce: true, MaxSchedules: budget(650_000, 65_000)}, 120_000)), func() {
		remoteSpawn(newRuntime(2))
	})
	// The same with a park timeout: parked workers also wake by
	// themselves (in virtual time, once everybody waits), and a token
	// left in a parker must not keep its worker from sleeping.
	explore.Check(t, "runtime/remote-spawn-timed-park", plainCached(weakLongAtOne(explore.Options{Reduce: true, MaxSchedules: budget(1_500_000, 150_000)}, 250_000)), func() {
		remoteSpawn(newRuntimeWith(sched.Config{Workers: 2, ParkTimeout: time.Millisecond, LongPoll: -1}))
	})
}

// One worker and one task from outside: the smallest race between a remote
// spawn's notify and the worker's park (the re-check after the parked bit
// is what catches a task pushed while the notifier saw no parked bit).
// Small enough to be exhaustive at two preemptions in the plain search,
// and at 2 in the weak mode, where the two-worker runs of
// TestExploreRemoteSpawn need the reduced search.
func TestExploreRemoteSpawnOneWorker(t *testing.T) {
	// The budget is for the weak-memory mode, where the lost wakeup of a
	// Dekker pair weakened by one ordering takes two preemptions and a
	// stale read; under sequential consistency the search is exhaustive
	// within the default budget (docs/explore.md has the counts).
	explore.Check(t, "runtime/remote-spawn-one-worker", explore.Options{MaxSchedules: 100_000}, func() {
		rt := newRuntime(1)
		spawnOneAndShutdown(rt)
	})
}

// spawnOneAndShutdown spawns one counting task from outside, waits for it,
// checks it ran once, and shuts rt down.
func spawnOneAndShutdown(rt *sched.Runtime) {
	var c counter
	h, err := rt.Spawn(c.task())
	if err != nil {
		explore.Failf("Spawn: %v", err)
	}
	if err := h.Wait(context.Background()); err != nil {
		explore.Failf("Wait: %v", err)
	}
	if c.runs != 1 {
		explore.Failf("runs: %d, want 1", c.runs)
	}
	shutdown(rt)
}

// The same with a park timeout: the worker may wake by itself while the
// spawn's notifier claims it, and must tell the two apart by the bit its
// own fetch-and cleared (idle.State.Unpark): read from a separate load, a
// claim in between is taken for a timeout and its searching credit is
// never given back (the ledger's check at the last exit sees it).
func TestExploreRemoteSpawnOneWorkerTimedPark(t *testing.T) {
	// The budget is for WSCHED_LONG (ten times it, one bound more), where
	// the search is exhaustive at 3 (docs/explore.md has the count).
	opt := explore.Options{MaxSchedules: 100_000}
	if explore.WeakMode() {
		weakOneWorker(&opt)
	}
	explore.Check(t, "runtime/remote-spawn-one-worker-timed-park", opt, func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, ParkTimeout: time.Millisecond, LongPoll: -1})
		// Half the park timeout of virtual time, so that the worker is
		// parked (with its timeout pending) when the spawn comes: its
		// timeout firing early then costs one preemption, not three.
		explore.Sleep(time.Millisecond/2, "the worker to park")
		spawnOneAndShutdown(rt)
	})
}

// remoteSpawn spawns two tasks on rt from outside, waits for both and
// shuts rt down.
func remoteSpawn(rt *sched.Runtime) {
	{
		var a, b counter
		ha, err1 := rt.Spawn(a.task())
		hb, err2 := rt.Spawn(b.task())
		if err := errors.Join(err1, err2); err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := errors.Join(ha.Wait(context.Background()), hb.Wait(context.Background())); err != nil {
			explore.Failf("Wait: %v", err)
		}
		if a.runs != 1 || b.runs != 1 {
			explore.Failf("runs: %d and %d, want 1 each", a.runs, b.runs)
		}
		shutdown(rt)
	}
}

// pendingTask is a task that waits for a message: it returns Ready once
// msg is set, and otherwise hands its waker out and returns Pending. Its
// fields are shared by the poll and the goroutines that send the message
// or take the waker, and named for the reduced search (touched, looked:
// waker and have as one variable, &have).
type pendingTask struct {
	msg   bool
	waker sched.Waker
	have  bool
	polls int
}

func (p *pendingTask) Poll(cx *sched.Context) sched.Poll {
	touched(&p.polls)
	p.polls++
	if looked(&p.msg); p.msg {
		return sched.Ready
	}
	if looked(&p.have); !p.have {
		touched(&p.have)
		p.waker, p.have = cx.Waker(), true
	}
	return sched.Pending
}

// send sets the message p's next poll sees.
func (p *pendingTask) send() {
	touched(&p.msg)
	p.msg = true
}

// waitForWaker blocks the calling goroutine until p has handed out its
// waker.
func (p *pendingTask) waitForWaker() {
	blockOn(&p.have, func() bool { return p.have }, "the task's waker")
}

// A wake from outside races the poll that registered the waker: it lands
// while the task runs (running -> notified: one more poll), or after
// (idle -> scheduled: queued again). Either way the task sees the message
// and finishes; a lost wake is a deadlock.
func TestExploreWakeRacesPoll(t *testing.T) {
	for _, workers := range []int{1, 2} {
		// One worker: the reduced search, exhaustive at 2 in 9,862
		// schedules (the plain search: 69,783, about three times the
		// CPU). -long: ten times 30,000 at 3, which it ends (210,833).
		//
		// Two workers: the plain search with the state cache,
		// exhaustive at 2 in 918,094 schedules, 572,849 of them cut,
		// about 74 s of CPU, the explore layer's longest search (the
		// reduced search: 2,782,239 schedules, about 135 s; the plain
		// search alone: about 130,000,000; docs/explore.md, "The state
		// cache"). The budget leaves room for a change of impl/ that
		// adds schedules. -long runs the reduced search: Long raises the
		// bound written for it, 1, by one and its budget ten times (at 3
		// neither search would end).
		//
		// In the weak mode: one worker at 1 in the weak layer
		// (weakOneWorker); two at 1 under -long only (weakLongAtOne),
		// where the state cache ends it in 1,331,250 schedules, about 2
		// minutes of one core (the reduced search: 3,854,263; ten times
		// 450,000 leaves it room).
		opt := explore.Options{Reduce: workers == 1, MaxSchedules: budget(120_000, 30_000)}
		if explore.WeakMode() {
			if !weakByWorkers(t, "runtime/wake-races-poll-2", workers, &opt, 450_000) {
				continue
			}
		} else if workers == 2 {
			opt = plainCached(explore.Options{Reduce: true, Preemptions: 2, MaxSchedules: 4_000_000})
			if long() {
				opt.Preemptions, opt.MaxSchedules = 1, 400_000
			}
		}
		explore.Check(t, "runtime/wake-races-poll-"+string(rune('0'+workers)), opt, func() {
			rt := newRuntime(workers)
			p := &pendingTask{}
			h, err := rt.Spawn(p)
			if err != nil {
				explore.Failf("Spawn: %v", err)
			}
			explore.Go("waker", func() {
				p.waitForWaker()
				p.send()
				p.waker.Wake()
			})
			if err := h.Wait(context.Background()); err != nil {
				explore.Failf("Wait: %v", err)
			}
			if p.polls > 2 {
				explore.Failf("%d polls for one wake", p.polls)
			}
			shutdown(rt)
		})
	}
}

// Two wakers, one of which sends the message: whichever order the wakes
// take, and however they meet the polls (one may be absorbed by a task
// already queued or already notified), the task runs until it sees the
// message, never twice at once and never again after it finished.
// -long runs it at 2 with the state cache (cachedUnderLong), where it
// ends in 11,391,641 schedules, about 6 minutes of one core, its table
// full (8,388,608 states; a full table forgets old states for new ones);
// when a full table took no new state it took 36,823,938 and 21 minutes
// (docs/explore.md, "A full table"). In the weak mode it has ended at 1
// only by hand, in two parts of the cached search (WSCHED_EXPLORE_SHARD
// 0/2 and 1/2): 40,102,786 schedules, about 45 minutes of two cores.
func TestExploreTwoWakes(t *testing.T) {
	explore.Check(t, "runtime/two-wakes", cachedUnderLong(explore.Options{Preemptions: 1, MaxSchedules: 5_000_000}), func() {
		rt := newRuntime(2)
		p := &pendingTask{}
		h, err := rt.Spawn(p)
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		explore.Go("waker 1", func() {
			p.waitForWaker()
			p.waker.Wake()
		})
		explore.Go("waker 2", func() {
			p.waitForWaker()
			p.send()
			p.waker.Wake()
		})
		if err := h.Wait(context.Background()); err != nil {
			explore.Failf("Wait: %v", err)
		}
		polls := p.polls
		shutdown(rt)
		if p.polls != polls {
			explore.Failf("polled after it finished")
		}
	})
}

// A task spawns a child from inside its poll and waits there until the
// child has run: the child is in its worker's ring, and the other worker,
// parked, must be woken to steal it (a poll that blocks on another task of
// the same runtime, the case the notify on a local push exists for).
func TestExploreChildRunsWhileParentBlocks(t *testing.T) {
	// The plain search with the state cache (plainCached): exhaustive at
	// 2 preemptions in 145,508 schedules; the reduced search, 282,984;
	// the plain search alone, 1,880,520. Under WSCHED_LONG the reduced
	// search, the same budget at 3, which it cannot end: 2 and a start
	// on 3. In -long's weak layer at 1: 292,480 schedules, about 51 s of
	// one core.
	explore.Check(t, "runtime/child-while-parent-blocks", plainCached(weakLongAtOne(explore.Options{Reduce: true, MaxSchedules: budget(400_000, 40_000)}, 40_000)), func() {
		rt := newRuntime(2)
		var childRan explore.Event
		var child *sched.JoinHandle
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			var err error
			if child, err = cx.Spawn(sched.Func(childRan.Set)); err != nil {
				explore.Failf("Context.Spawn: %v", err)
			}
			childRan.Wait()
			return sched.Ready
		}))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := h.Wait(context.Background()); err != nil {
			explore.Failf("Wait: %v", err)
		}
		// The child's handle, made inside a poll, is waited on like any.
		if err := child.Wait(context.Background()); err != nil {
			explore.Failf("Wait of the child: %v", err)
		}
		shutdown(rt)
	})
}

// Go funcs spawning Go funcs, on two workers: each runs exactly once, the
// records are recycled as they run, and a record is never handed out
// while still queued.
func TestExploreGoTree(t *testing.T) {
	// The plain search with the state cache (plainCached): exhaustive at
	// 2 in 207,894 schedules (about 16 s of CPU); the reduced search,
	// 422,280 (about 27 s); the plain search alone, about 1.7 million
	// (about 48 s). Under WSCHED_LONG the reduced search, the same
	// budget at 3, which it cannot end: 2 and a start on 3. In -long's weak layer at 1: 449,329 schedules, about
	// 78 s of one core.
	explore.Check(t, "runtime/go-tree", plainCached(weakLongAtOne(explore.Options{Reduce: true, MaxSchedules: budget(500_000, 50_000)}, 60_000)), func() {
		rt := newRuntime(2)
		runs := map[string]int{}
		var done explore.Event
		left := 3
		leaf := func(name string) func() {
			return func() {
				// The leaves run on two workers: writes the reduced
				// search must see.
				touched(&runs)
				runs[name]++
				touched(&left)
				if left--; left == 0 {
					done.Set()
				}
			}
		}
		err := rt.Go(func() {
			touched(&runs)
			runs["root"]++
			for _, n := range []string{"a", "b"} {
				if err := rt.Go(leaf(n)); err != nil {
					explore.Failf("Go: %v", err)
				}
			}
			leaf("root leaf")()
		})
		if err != nil {
			explore.Failf("Go: %v", err)
		}
		done.Wait()
		shutdown(rt)
		for _, n := range []string{"root", "a", "b", "root leaf"} {
			if runs[n] != 1 {
				explore.Failf("%s ran %d times: %v", n, runs[n], runs)
			}
		}
	})
}

// A task that panics: the panic reaches its handle, the worker goes on
// and runs the next task.
func TestExplorePanicReachesHandle(t *testing.T) {
	// The reduced search: exhaustive at 2 in 4,747 schedules (the plain
	// search: 34,207, about five times the CPU).
	opt := explore.Options{Reduce: true, MaxSchedules: 50_000}
	if explore.WeakMode() {
		weakOneWorker(&opt)
	}
	explore.Check(t, "runtime/panic", opt, func() {
		rt := newRuntime(1)
		h1, _ := rt.Spawn(sched.Func(func() { panic("boom") }))
		var c counter
		h2, _ := rt.Spawn(c.task())
		var pe *sched.PanicError
		if err := h1.Wait(context.Background()); !errors.As(err, &pe) || pe.Value != "boom" {
			explore.Failf("Wait of the panicking task: %v", err)
		}
		if err := h2.Wait(context.Background()); err != nil || c.runs != 1 {
			explore.Failf("the next task: %v, %d runs", err, c.runs)
		}
		shutdown(rt)
	})
}

// A task sleeps, on a runtime of one and of two workers: worker 0 must
// wake for the timer even when it parks right as the timer is added. With
// the park timeout off, an overslept timer is a deadlock. (Virtual time
// passes only once every goroutine waits.)
func TestExploreSleep(t *testing.T) {
	for _, workers := range []int{1, 2} {
		// Exhaustive at 2: one worker by the reduced search in 4,980
		// schedules (the plain search: 26,055); two by the plain search
		// with the state cache in 513,055 (the reduced search: 918,213;
		// the plain search alone: about 3,300,000, docs/explore.md).
		// -long, the reduced search: one worker ten times 200,000 at 3,
		// which it ends; two the same budget at 3, which ends 2 and
		// starts 3 (the plain search's forecast at 3 is about
		// 310,000,000).
		limit := budget(50_000, 200_000)
		if workers == 2 {
			limit = budget(1_000_000, 100_000)
		}
		opt := explore.Options{Reduce: true, MaxSchedules: limit}
		if workers == 2 {
			opt = plainCached(opt) // 513,055 schedules, 223,780 of them cut
		}
		// In the weak mode, two workers under -long at 1: 360,465
		// schedules with the state cache (the reduced search: 499,536),
		// under a minute of one core.
		if explore.WeakMode() && !weakByWorkers(t, "runtime/sleep-2", workers, &opt, 70_000) {
			continue
		}
		explore.Check(t, "runtime/sleep-"+string(rune('0'+workers)), opt, func() {
			rt := newRuntime(workers)
			slept := false
			h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				if slept {
					return sched.Ready
				}
				slept = true
				if err := cx.Sleep(time.Millisecond); err != nil {
					explore.Failf("Sleep: %v", err)
				}
				return sched.Pending
			}))
			if err != nil {
				explore.Failf("Spawn: %v", err)
			}
			if err := h.Wait(context.Background()); err != nil {
				explore.Failf("Wait: %v", err)
			}
			if now := explore.Now(); now < int64(time.Millisecond) {
				explore.Failf("the task finished %v after it slept for 1ms", time.Duration(now))
			}
			shutdown(rt)
		})
	}
}

// Shutdown races a Spawn and its Wait from another goroutine: the spawn is
// refused (ErrShutdown), or its task runs once, or it is cancelled, and
// Wait says which; nothing is left in a queue. (A spawn admitted just
// before Shutdown must finish its push before the last worker drains the
// global queue.)
func TestExploreShutdownRacesSpawn(t *testing.T) {
	// The plain search with the state cache (plainCached): exhaustive at
	// 2 preemptions in 131,054 schedules; the reduced search, 337,603
	// (under WSCHED_LONG, the same budget at 3, which it cannot end: 2
	// and a start on 3). In the weak mode at 1 (weakAtOne), in the weak
	// layer: 73,736 schedules with the state cache (146,451 reduced),
	// about 9 s of one core.
	opt := explore.Options{Reduce: true, MaxSchedules: budget(400_000, 40_000)}
	weakAtOne(&opt, 150_000)
	explore.Check(t, "runtime/shutdown-races-spawn", plainCached(opt), func() {
		rt := newRuntime(2)
		var spawned counter
		s := explore.Go("spawner", func() {
			h, err := rt.Spawn(spawned.task())
			switch {
			case errors.Is(err, sched.ErrShutdown):
				return
			case err != nil:
				explore.Failf("Spawn: %v", err)
			}
			switch err := h.Wait(context.Background()); {
			case err == nil && spawned.runs == 1:
			case errors.Is(err, sched.ErrCancelled) && spawned.runs == 0:
			default:
				explore.Failf("Wait = %v after %d runs", err, spawned.runs)
			}
		})
		m := shutdown(rt)
		s.Join()
		if spawned.runs > 1 {
			explore.Failf("the task ran %d times", spawned.runs)
		}
		if m.GlobalQueueLen != 0 {
			explore.Failf("after Shutdown: %d tasks queued\n%s", m.GlobalQueueLen, m)
		}
	})
}

// Shutdown races a Go from another goroutine: refused, or run once, or
// cancelled, and accounted for either way.
func TestExploreShutdownRacesGo(t *testing.T) {
	// The reduced search: exhaustive at 2 preemptions in 105,686
	// schedules, where the plain search needs 434,320 (about half the
	// CPU). In the weak mode at 1, in the weak layer: 88,863 schedules,
	// about 9 s of one core.
	opt := explore.Options{Reduce: true, MaxSchedules: 500_000}
	weakAtOne(&opt, 200_000)
	explore.Check(t, "runtime/shutdown-races-go", opt, func() {
		rt := newRuntime(2)
		var ran counter
		g := explore.Go("goer", func() {
			if err := rt.Go(ran.task().(sched.Func)); err != nil && !errors.Is(err, sched.ErrShutdown) {
				explore.Failf("Go: %v", err)
			}
		})
		m := shutdown(rt)
		g.Join()
		if ran.runs > 1 || m.GlobalQueueLen != 0 {
			explore.Failf("ran %d times; %d tasks queued after Shutdown\n%s", ran.runs, m.GlobalQueueLen, m)
		}
	})
}

// A task waiting for a wake that never comes, and one sleeping on a timer,
// when Shutdown comes: both are cancelled, their Waits return
// ErrCancelled, and no timer is left holding a task.
func TestExploreShutdownCancelsWaiting(t *testing.T) {
	// The plain search with the state cache (plainCached): exhaustive at
	// 2 preemptions in 103,435 schedules; the reduced search, 311,804;
	// the plain search alone, 1,427,441. Under WSCHED_LONG the reduced
	// search, the same budget at 3, which it cannot end: 2 and a start
	// on 3.
	explore.Check(t, "runtime/shutdown-cancels-waiting", plainCached(weakLongAtOne(explore.Options{Reduce: true, MaxSchedules: budget(400_000, 40_000)}, 30_000)), func() {
		rt := newRuntime(1)
		p := &pendingTask{}
		h1, _ := rt.Spawn(p)
		h2, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			cx.Sleep(time.Hour)
			return sched.Pending
		}))
		var waits [2]error
		w := explore.Go("waiter", func() {
			waits[0] = h1.Wait(context.Background())
			waits[1] = h2.Wait(context.Background())
		})
		p.waitForWaker()
		m := shutdown(rt)
		w.Join()
		for i, err := range waits {
			if !errors.Is(err, sched.ErrCancelled) {
				explore.Failf("Wait of task %d = %v, want ErrCancelled", i+1, err)
			}
		}
		if m.PendingTimers != 0 || m.Cancelled != 2 {
			explore.Failf("after Shutdown: %d timers, %d cancelled\n%s", m.PendingTimers, m.Cancelled, m)
		}
	})
}

// A task spawns Go funcs in two polls, yielding between them: the records
// of the first ones are recycled as they run (into the worker's spare
// list, and past 4 into the shared stack; spareBatch is 2 under the
// explorer) and reused by the second ones while others are still queued.
// Every func runs exactly once: a record is never in two places at once.
func TestExploreGoRecycling(t *testing.T) {
	for _, workers := range []int{1, 2} {
		// One worker: the reduced search, exhaustive at 2 in 2,506
		// schedules (the plain search: 154,517, forty times the CPU).
		// Two workers stay plain: there it cuts 74,466 to 33,982 and
		// costs more per schedule than it saves. They run with the state
		// cache: at 1 in the layer, and at 2 under -long, where Check
		// gives a cached search ten times its budget (2,500,000) and it
		// ends in 1,604,318 schedules, 1,111,395 of them cut (the search
		// without the cache: about 25,000,000).
		//
		// In the weak mode: one worker at 1 in the weak layer
		// (weakOneWorker); two at 1 under -long only (weakLongAtOne),
		// where the state cache ends it in 1,691,827 schedules, about 4.5
		// minutes of one core (the reduced search: 4,956,551, about 12;
		// ten times 600,000 leaves it room).
		opt := explore.Options{Reduce: true, MaxSchedules: 250_000}
		if explore.WeakMode() {
			if !weakByWorkers(t, "runtime/go-recycling-2", workers, &opt, 600_000) {
				continue
			}
		} else if workers == 2 {
			opt.Reduce, opt.Preemptions, opt.StateCache = false, 1, true
		}
		explore.Check(t, "runtime/go-recycling-"+string(rune('0'+workers)), opt, func() {
			rt := newRuntime(workers)
			runs := make([]int, 12)
			left := len(runs)
			var done explore.Event
			next := 0
			spawn := func(cx *sched.Context, n int) {
				for range n {
					i := next
					next++
					err := cx.Go(func() {
						runs[i]++
						// Funcs on two workers count down left: a
						// write the reduced search must see.
						touched(&left)
						if left--; left == 0 {
							done.Set()
						}
					})
					if err != nil {
						explore.Failf("Context.Go: %v", err)
					}
				}
			}
			polls := 0
			h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				if polls++; polls == 1 {
					spawn(cx, 5)
					return cx.Yield()
				}
				spawn(cx, 7)
				return sched.Ready
			}))
			if err != nil {
				explore.Failf("Spawn: %v", err)
			}
			if err := h.Wait(context.Background()); err != nil {
				explore.Failf("Wait: %v", err)
			}
			done.Wait()
			shutdown(rt)
			for i, n := range runs {
				if n != 1 {
					explore.Failf("Go func %d ran %d times: %v", i, n, runs)
				}
			}
		})
	}
}

// long reports whether the scenarios run under WSCHED_LONG (verify -long).
func long() bool {
	opt, _ := explore.FromEnv(explore.Options{})
	return opt.Long
}

// weakLong reports whether they run so in the weak-memory mode (verify
// -long's weak layer).
func weakLong() bool {
	opt, _ := explore.FromEnv(explore.Options{})
	return opt.Long && opt.Weak
}
