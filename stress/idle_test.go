package stress

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedIdleChurn: bursts of work separated by idle gaps in which every
// worker parks (the scenario waits until Metrics reports all of them
// parked, which with ParkTimeout 0 they must reach). Each round then wakes
// the runtime one way: a single remote spawn, a burst of remote spawns, a
// remote task that spawns a burst locally, or an outside wake of a task
// waiting for it. A lost wakeup at any of these hangs the round.
func TestSchedIdleChurn(t *testing.T) { forSizes(t, stressSizes, schedIdleChurn) }

func schedIdleChurn(t *testing.T, cfg sched.Config) {
	// The property is about the idle protocol of the workers: every round
	// begins with all of them asleep, and the round's work wakes one. The
	// monitor's help is off: an extra worker it started (a descheduled
	// worker looks stuck under -race at GOMAXPROCS 1) would run a round
	// in a parked worker's place.
	cfg.LongPoll = -1
	e := newSchedEnv(t, cfg)
	rounds := 1000 * stressScale()
	const burst = 40

	// waiter is woken from outside in every fourth round.
	var waiterTurn, waiterSeen atomic.Int32
	var stopWaiter atomic.Bool
	wch := make(chan sched.Waker, 1)
	waiter := e.spawn(func(cx *sched.Context) sched.Poll {
		if stopWaiter.Load() {
			return sched.Ready
		}
		select {
		case wch <- cx.Waker():
		default:
		}
		waiterSeen.Store(waiterTurn.Load())
		return sched.Pending
	})
	var w sched.Waker
	select {
	case w = <-wch:
	case <-e.ctx.Done():
		e.hang("the waiter's first poll")
	}

	parks := func() (n uint64) {
		for _, wm := range e.rt.Metrics().Workers {
			n += wm.Parks
		}
		return n
	}
	// Every worker parked, and one more park than at the last round's
	// start: the worker that ran the last round went back to sleep. (The
	// parked count alone is not enough: a worker counts as parked from
	// its parked bit on, and its re-check may still find the next
	// round's task and run it without sleeping.)
	var last uint64
	asleep := func() bool {
		if e.rt.Metrics().Parked != e.workers {
			return false
		}
		n := parks()
		if n <= last {
			return false
		}
		last = n
		return true
	}
	for r := range rounds {
		e.until(asleep, fmt.Sprintf("every worker parked, and one more park, before round %d", r))
		switch r % 4 {
		case 0:
			e.waitAll([]*sched.JoinHandle{e.spawn(func(*sched.Context) sched.Poll { return sched.Ready })},
				"a single remote spawn into a parked runtime")
		case 1:
			hs := make([]*sched.JoinHandle, burst)
			for i := range hs {
				hs[i] = e.spawn(func(*sched.Context) sched.Poll { return sched.Ready })
			}
			e.waitAll(hs, "a remote burst")
		case 2:
			var ran atomic.Int32
			var children []*sched.JoinHandle
			root := e.spawn(func(cx *sched.Context) sched.Poll {
				for range burst {
					h, err := cx.Spawn(e.task(func(*sched.Context) sched.Poll { ran.Add(1); return sched.Ready }))
					if err != nil {
						t.Errorf("Context.Spawn: %v", err)
						return sched.Ready
					}
					children = append(children, h)
				}
				return sched.Ready
			})
			e.waitAll([]*sched.JoinHandle{root}, "a local burst's root")
			e.waitAll(children, "a local burst")
			if n := ran.Load(); n != burst {
				t.Fatalf("local burst: %d of %d children ran", n, burst)
			}
		case 3:
			turn := waiterTurn.Add(1)
			w.Wake()
			e.until(func() bool { return waiterSeen.Load() == turn }, "the waiter to see an outside wake")
		}
	}
	stopWaiter.Store(true)
	w.Wake()
	e.waitAll([]*sched.JoinHandle{waiter}, "the waiter")

	t.Logf("%d rounds, %d parks", rounds, parks())
}
