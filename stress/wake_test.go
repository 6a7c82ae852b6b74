package stress

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/schedtest"
)

// TestSchedYieldStorm: many tasks yield thousands of times each. Yield puts
// the task at the back of its worker's ring, so each task is polled exactly
// yields+1 times, and the per-task counts are exact.
func TestSchedYieldStorm(t *testing.T) { forSizes(t, stressSizes, schedYieldStorm) }

func schedYieldStorm(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	tasks, yields := 64, int32(1000*stressScale())
	polls := make(once, tasks)
	hs := make([]*sched.JoinHandle, tasks)
	for i := range tasks {
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			if polls[i].Add(1) > yields {
				return sched.Ready
			}
			return cx.Yield()
		})
	}
	e.waitAll(hs, "yielding task")
	polls.check(t, "polls per yielding task", yields+1)
}

// TestSchedYieldLetsOthersGo: on one worker, a task that yields is never
// polled twice in a row while another task is runnable, and tasks spawned
// from outside meanwhile (the global queue) still run. A root task spawns
// every yielder in one poll, so each is queued before any runs; remote
// tasks join through the global queue while they yield.
func TestSchedYieldLetsOthersGo(t *testing.T) {
	forSizes(t, []int{1}, schedYieldLetsOthersGo)
}

func schedYieldLetsOthersGo(t *testing.T, cfg sched.Config) {
	// The property is about one worker's order of polls. The monitor's
	// help is off: an extra worker, started when the worker looks stuck
	// (under -race at GOMAXPROCS 1 a busy worker can be descheduled for
	// longer than LongPoll), would poll the yielders in parallel.
	cfg.LongPoll = -1
	e := newSchedEnv(t, cfg)
	yielders, yields := 16, int32(200*stressScale())
	polls := make(once, yielders)
	var live atomic.Int32 // yielders spawned and not finished
	last := -1            // the yielder polled last; one worker, so only its polls touch it
	var repeats atomic.Int32
	hs := make([]*sched.JoinHandle, yielders)
	root := e.spawn(func(cx *sched.Context) sched.Poll {
		live.Store(int32(yielders))
		for i := range yielders {
			h, err := cx.Spawn(e.task(func(cx *sched.Context) sched.Poll {
				if last == i && live.Load() > 1 {
					repeats.Add(1)
				}
				last = i
				if polls[i].Add(1) > yields {
					live.Add(-1)
					return sched.Ready
				}
				return cx.Yield()
			}))
			if err != nil {
				t.Errorf("Spawn: %v", err)
			}
			hs[i] = h
		}
		return sched.Ready
	})
	e.waitAll([]*sched.JoinHandle{root}, "root")
	remote := make(once, 256)
	rhs := make([]*sched.JoinHandle, len(remote))
	for i := range remote {
		rhs[i] = e.spawn(func(*sched.Context) sched.Poll {
			remote[i].Add(1)
			return sched.Ready
		})
	}
	e.waitAll(rhs, "remote task")
	e.waitAll(hs, "yielding task")
	e.shutdown()
	polls.check(t, "polls per yielding task", yields+1)
	remote.check(t, "runs per remote task", 1)
	if n := repeats.Load(); n != 0 {
		t.Errorf("a yielding task was polled twice in a row %d times while others were runnable", n)
	}
}

// pingPong is two tasks that take turns through Context.Wake, which puts
// the other task in the worker's LIFO slot: the pattern the LIFO cap exists
// for. turn is even when it is a's turn; each side advances it and then
// wakes the other.
type pingPong struct {
	turn   atomic.Int64
	stop   atomic.Bool
	wakers [2]sched.Waker
	ready  atomic.Int32 // how many wakers are published
}

func (p *pingPong) side(me int) func(cx *sched.Context) sched.Poll {
	return func(cx *sched.Context) sched.Poll {
		if p.stop.Load() {
			return sched.Ready
		}
		if p.ready.Load() < 2 {
			p.wakers[me] = cx.Waker()
			p.ready.Add(1)
			return sched.Pending
		}
		if p.turn.Load()%2 == int64(me) {
			p.turn.Add(1)
			cx.Wake(p.wakers[1-me])
		}
		return sched.Pending
	}
}

// TestSchedPingPong: pairs of tasks wake each other through the LIFO slot
// without end while background tasks yield their way to completion. The
// background tasks must finish (the LIFO cap flushes the slot to the ring
// so the ring is not starved), then the pairs must still be making
// progress, then they are stopped.
func TestSchedPingPong(t *testing.T) { forSizes(t, stressSizes, schedPingPong) }

func schedPingPong(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const pairs = 4
	pps := make([]*pingPong, pairs)
	var pairHs []*sched.JoinHandle
	for i := range pps {
		pp := &pingPong{}
		pps[i] = pp
		// The wakers are published in the first polls; the side that
		// publishes second may see ready < 2 and so must itself be
		// published first: spawn a, wait, spawn b.
		pairHs = append(pairHs, e.spawn(pp.side(0)))
		e.until(func() bool { return pp.ready.Load() == 1 }, "ping side polled")
		pairHs = append(pairHs, e.spawn(pp.side(1)))
		e.until(func() bool { return pp.ready.Load() == 2 }, "pong side polled")
		pp.wakers[0].Wake() // serve
	}

	background, yields := 16, int32(300*stressScale())
	polls := make(once, background)
	hs := make([]*sched.JoinHandle, background)
	for i := range background {
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			if polls[i].Add(1) > yields {
				return sched.Ready
			}
			return cx.Yield()
		})
	}
	e.waitAll(hs, "background task beside the ping-pong")
	polls.check(t, "background polls", yields+1)

	for i, pp := range pps {
		from := pp.turn.Load()
		e.until(func() bool { return pp.turn.Load() >= from+100 }, fmt.Sprintf("pair %d to keep playing", i))
		pp.stop.Store(true)
		pp.wakers[0].Wake()
		pp.wakers[1].Wake()
	}
	e.waitAll(pairHs, "ping-pong side")
}

// TestSchedWakeFromOutside: tasks wait for events that goroutines outside
// the runtime record and then announce with Waker.Wake. Every task reaches
// Ready (no wake lost), and is polled at most once per wake plus once.
func TestSchedWakeFromOutside(t *testing.T) { forSizes(t, stressSizes, schedWakeFromOutside) }

func schedWakeFromOutside(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	tasks, events, senders := 200, int32(200*stressScale()), 8
	got := make(once, tasks)
	polls := make(once, tasks)
	wakers := make([]sched.Waker, tasks)
	var published atomic.Int32
	hs := make([]*sched.JoinHandle, tasks)
	for i := range tasks {
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			if polls[i].Add(1) == 1 {
				wakers[i] = cx.Waker()
				published.Add(1)
			}
			if got[i].Load() == events {
				return sched.Ready
			}
			return sched.Pending
		})
	}
	e.until(func() bool { return published.Load() == int32(tasks) }, "every task published its waker")
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			// Sender s delivers the events of tasks s, s+senders, ...
			for range events {
				for i := s; i < tasks; i += senders {
					got[i].Add(1)
					wakers[i].Wake()
				}
			}
		})
	}
	wg.Wait()
	e.waitAll(hs, "task waiting for outside events")
	for i := range polls {
		if n := polls[i].Load(); n > events+1 {
			t.Errorf("task %d polled %d times for %d wakes", i, n, events)
		}
	}
}

// TestSchedWakerManyAtOnce: one waker called by many goroutines at the same
// moment, each after recording its event, and by tasks inside the runtime
// through Context.Wake. The task is never polled concurrently (the wrapper
// checks), reaches Ready, and is polled at most once per wake plus once.
func TestSchedWakerManyAtOnce(t *testing.T) { forSizes(t, stressSizes, schedWakerManyAtOnce) }

func schedWakerManyAtOnce(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	goroutines, per := 32, 1000*stressScale()
	inside, insidePer := 8, 100
	total := int64(goroutines*per + inside*insidePer)
	var events, polls atomic.Int64
	wch := make(chan sched.Waker, 1)
	h := e.spawn(func(cx *sched.Context) sched.Poll {
		if polls.Add(1) == 1 {
			wch <- cx.Waker()
		}
		if events.Load() == total {
			return sched.Ready
		}
		return sched.Pending
	})
	var w sched.Waker
	select {
	case w = <-wch:
	case <-e.ctx.Done():
		e.hang("first poll")
	}
	startLine := make(chan struct{})
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			<-startLine
			for range per {
				events.Add(1)
				w.Wake()
			}
		})
	}
	var insideHs []*sched.JoinHandle
	for range inside {
		n := 0
		insideHs = append(insideHs, e.spawn(func(cx *sched.Context) sched.Poll {
			n++
			events.Add(1)
			cx.Wake(w)
			if n == insidePer {
				return sched.Ready
			}
			return cx.Yield()
		}))
	}
	close(startLine)
	wg.Wait()
	e.waitAll(insideHs, "task waking from inside")
	e.waitAll([]*sched.JoinHandle{h}, "the task woken by everyone")
	if n := polls.Load(); n > total+1 {
		t.Errorf("polled %d times for %d wakes", n, total)
	}
}

// TestSchedWakesRaceCompletion: every task finishes on its second poll
// while goroutines outside and tasks inside keep waking it, before, during
// and after that poll. Each task is polled exactly twice (a third poll
// would be a poll after Ready, which the wrapper also reports) and its
// handle returns nil.
func TestSchedWakesRaceCompletion(t *testing.T) { forSizes(t, stressSizes, schedWakesRaceCompletion) }

func schedWakesRaceCompletion(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	tasks := 5000 * stressScale()
	polls := make(once, tasks)
	wakers := make([]sched.Waker, tasks)
	var published atomic.Int32
	hs := make([]*sched.JoinHandle, tasks)
	for i := range tasks {
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			if polls[i].Add(1) == 1 {
				wakers[i] = cx.Waker()
				published.Add(1)
				return sched.Pending
			}
			return sched.Ready
		})
	}
	e.until(func() bool { return published.Load() == int32(tasks) }, "every task published its waker")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range tasks {
				wakers[(k*7+g*(tasks/4))%tasks].Wake()
			}
		})
	}
	var wakerHs []*sched.JoinHandle
	for g := range 4 {
		next := 0
		wakerHs = append(wakerHs, e.spawn(func(cx *sched.Context) sched.Poll {
			for k := 0; k < 50 && next < tasks; k, next = k+1, next+1 {
				cx.Wake(wakers[(next*13+g*(tasks/4))%tasks])
			}
			if next == tasks {
				return sched.Ready
			}
			return cx.Yield()
		}))
	}
	wg.Wait()
	e.waitAll(wakerHs, "waking task")
	e.waitAll(hs, "task racing its wakes")
	for i := range wakers { // and once more, after completion
		wakers[i].Wake()
	}
	e.shutdown()
	polls.check(t, "polls per task", 2)
}

// TestSchedTwoWakesOfIdleTasks: two goroutines, released together, wake
// the same idle tasks in the same order, round after round, so that their
// wakes of one task race each other while it is idle. Only one of them may
// move it to scheduled and queue it: a second queue entry is found later
// by a worker with the task running or idle, which the scheduler reports
// as an internal error (a crash), or is polled by two workers at once,
// which the poll guard reports. Each task takes one or two polls a round
// (two when the second wake lands during the first poll).
func TestSchedTwoWakesOfIdleTasks(t *testing.T) {
	forSizes(t, []int{2, 4}, schedTwoWakesOfIdleTasks)
}

func schedTwoWakesOfIdleTasks(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const tasks = 16
	rounds := 1500 * stressScale()
	polls := make([]atomic.Int64, tasks)
	wakers := make([]sched.Waker, tasks)
	var published atomic.Int32
	for i := range tasks {
		e.spawn(func(cx *sched.Context) sched.Poll {
			if polls[i].Add(1) == 1 {
				wakers[i] = cx.Waker()
				published.Add(1)
			}
			return sched.Pending
		})
	}
	e.until(func() bool { return published.Load() == tasks }, "every task published its waker")
	var round atomic.Int64 // the round both wakers may start; -1 ends them
	var done [2]atomic.Int64
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for r := int64(1); ; r++ {
				for round.Load() < r {
					if round.Load() < 0 {
						return
					}
					runtime.Gosched() // the workers need the cores between rounds
				}
				for i := range wakers {
					wakers[i].Wake()
				}
				done[g].Store(r)
			}
		})
	}
	for r := int64(1); r <= int64(rounds); r++ {
		var before [tasks]int64
		for i := range polls {
			before[i] = polls[i].Load()
		}
		round.Store(r)
		e.until(func() bool { return done[0].Load() == r && done[1].Load() == r }, "both wakers done")
		for i := range polls {
			e.until(func() bool { return polls[i].Load() > before[i] }, "a woken task's poll")
		}
	}
	round.Store(-1)
	wg.Wait()
	e.shutdown()
	var total int64
	for i := range polls {
		total += polls[i].Load()
	}
	// One poll per round at least, two at most, plus the first.
	if lo, hi := int64(tasks*(rounds+1)), int64(tasks*(2*rounds+1)); total < lo || total > hi {
		t.Errorf("%d polls in all, want %d..%d", total, lo, hi)
	}
}

// TestSchedAbsorbedWakePublishes: what a goroutine writes before a Wake is
// visible to the poll that follows, also when the wake is absorbed because
// the task is queued already. On one worker kept busy by a blocked task,
// the test wakes an idle task (it is queued behind the blocker); another
// goroutine writes a plain variable and wakes it again (absorbed); once
// that goroutine has exited, the blocker is released and the task's poll
// reads the variable. The state word is the only thing between the write
// and the read, so -race reports the read if an absorbed wake publishes
// nothing (the race build's edge annotations, which would order it anyway,
// are off in this package: edgeoff_test.go). The wait for the goroutine's exit looks for its frames in a
// goroutine dump, which does not synchronise.
func TestSchedAbsorbedWakePublishes(t *testing.T) {
	// The task must stay queued behind the blocker until released: the
	// monitor's help, which would run it elsewhere, is off.
	e := newSchedEnv(t, sched.Config{Workers: 1, LongPoll: -1})
	for range 20 {
		var x int
		var wk sched.Waker
		polled := make(chan struct{})
		got := make(chan int, 1)
		polls := 0
		h := e.spawn(func(cx *sched.Context) sched.Poll {
			if polls++; polls == 1 {
				wk = cx.Waker()
				close(polled)
				return sched.Pending
			}
			got <- x
			return sched.Ready
		})
		<-polled
		running, release := make(chan struct{}), make(chan struct{})
		blocker := e.spawn(func(*sched.Context) sched.Poll {
			close(running)
			<-release
			return sched.Ready
		})
		<-running
		wk.Wake() // idle -> scheduled: queued behind the blocker
		go absorbedWaker(wk, &x)
		schedtest.WaitGoroutinesGone(t, "stress.absorbedWaker(", "stress.TestSchedAbsorbedWakePublishes.gowrap")
		close(release)
		if v := <-got; v != 1 {
			t.Fatalf("the poll after an absorbed wake read %d, want 1", v)
		}
		e.waitAll([]*sched.JoinHandle{h, blocker}, "task woken twice")
	}
}

// absorbedWaker writes *x, then wakes the task behind wk.
func absorbedWaker(wk sched.Waker, x *int) {
	*x = 1
	wk.Wake()
}
