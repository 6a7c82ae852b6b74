package sched

import (
	"sync/atomic"
	"testing"
	"time"
)

// Two tasks wake each other through the LIFO slot forever (until told to
// stop) on a single worker. The ring must still progress (the LIFO cap
// flushes the slot to the ring) and the global queue must still progress
// (every interval-th poll takes the global queue first). Either starving
// hangs, and the watchdog reports it.
func TestLIFOPingPongDoesNotStarve(t *testing.T) {
	// One worker's fairness: with the monitor's help on, a worker it starts
	// when the one worker looks stuck (descheduled for LongPoll on a loaded
	// machine) would run the starved task and hide the starvation.
	rt := start(t, unhelpedConfig(1))
	var ringRan, globalRan, exchanges atomic.Int64
	var wa, wb atomic.Pointer[Waker]
	stop := func() bool { return ringRan.Load() != 0 && globalRan.Load() != 0 }
	player := func(me, other *atomic.Pointer[Waker]) TaskFunc {
		return func(cx *Context) Poll {
			if me.Load() == nil {
				w := cx.Waker()
				me.Store(&w)
			}
			if stop() {
				if o := other.Load(); o != nil {
					cx.Wake(*o) // let the partner see stop() too
				}
				return Ready
			}
			exchanges.Add(1)
			if o := other.Load(); o != nil {
				cx.Wake(*o)
			}
			return Pending
		}
	}
	pa := player(&wa, &wb)
	first := true
	_, _ = rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if first {
			// The partner first, then the ring task behind it.
			first = false
			_, _ = cx.Spawn(player(&wb, &wa))
			_, _ = cx.Spawn(Func(func() { ringRan.Add(1) }))
			w := cx.Waker()
			wa.Store(&w)
			return Pending
		}
		return pa(cx)
	}))
	// Let the ping-pong get going, then spawn from outside.
	waitUntil(t, rt, "ping-pong to start", func() bool { return exchanges.Load() > 50 })
	g, _ := rt.Spawn(Func(func() { globalRan.Add(1) }))
	mustNil(t, waitAll(t, rt, []*JoinHandle{g}))
	waitUntil(t, rt, "ring task", func() bool { return ringRan.Load() == 1 })
	// The ping-pong now stops; its wakes must have used the LIFO slot. The
	// worker publishes its poll counts at the end of a tick, so read them
	// after Shutdown (the exiting worker publishes them last), not while
	// the tick that counted the exchanges may still be running.
	shutdown(t, rt)
	m := rt.Metrics()
	if m.Workers[0].LIFOPolls == 0 {
		t.Fatalf("no LIFO polls:\n%s", m)
	}
}

// The budget ends a tick after 128 polls even when work never runs out, and
// each tick starts by polling the timers: a task yielding until a sleeping
// task wakes must see it wake, and the ticks must have ended by budget.
// (The monitor fires due timers too, so the wake can come first from it;
// the spinner goes on for 300 polls in any case, more than two budgets.)
func TestBudgetLetsTimersRun(t *testing.T) {
	// The ticks counted are worker 0's: an extra worker started under load
	// could take the spinner and end its ticks by budget instead.
	rt := start(t, unhelpedConfig(1))
	var woke atomic.Bool
	sleeper, _ := rt.Spawn(TaskFunc(func() TaskFunc {
		slept := false
		return func(cx *Context) Poll {
			if !slept {
				slept = true
				if err := cx.Sleep(time.Millisecond); err != nil {
					t.Error(err)
				}
				return Pending
			}
			woke.Store(true)
			return Ready
		}
	}()))
	spins := 0
	spinner, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if spins++; woke.Load() && spins > 300 {
			return Ready
		}
		return cx.Yield()
	}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{sleeper, spinner}))
	if m := rt.Metrics(); m.Workers[0].BudgetYields == 0 {
		t.Fatalf("no budget yields while a task yielded for 1ms:\n%s", m)
	}
}

// Global-queue fairness under a local flood: one worker whose own tasks
// keep respawning locally still runs a task from the global queue.
func TestGlobalQueueServedUnderLocalFlood(t *testing.T) {
	rt := start(t, unhelpedConfig(1)) // one worker's fairness, as in TestLIFOPingPongDoesNotStarve
	var globalRan atomic.Bool
	var respawn func(cx *Context) Poll
	respawn = func(cx *Context) Poll {
		if !globalRan.Load() {
			if _, err := cx.Spawn(TaskFunc(respawn)); err != nil {
				t.Error(err)
			}
		}
		return Ready
	}
	_, _ = rt.Spawn(TaskFunc(respawn))
	waitUntil(t, rt, "flood", func() bool { return rt.Metrics().TotalPolls() > 200 })
	g, _ := rt.Spawn(Func(func() { globalRan.Store(true) }))
	mustNil(t, waitAll(t, rt, []*JoinHandle{g}))
	iv := rt.Metrics().Workers[0].GlobalInterval
	if iv < minGlobalInterval || iv > maxGlobalInterval {
		t.Fatalf("global interval %d outside [%d, %d]", iv, minGlobalInterval, maxGlobalInterval)
	}
}
