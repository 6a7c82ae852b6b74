//go:build explore

package sched

import (
	"context"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The extra workers' count and slots as the monitor starts one while
// another retires, alone (go test -tags explore -run
// TestExploreExtraSlotsPair ./impl/sched). Worker 0 is parked for good.
// An extra worker is running (started before the scenario's goroutines,
// in the one slot); with nothing to do it searches, finds nothing,
// re-checks and retires (retire, exit, retired: the count down, the slot
// freed). Meanwhile the monitor asks for another (start: the count, a
// free slot or a new one, the credit, the goroutine), with ExtraWorkers
// max, so that the monitor meets a full count or a free one; the extra
// worker it starts retires too.
//
// Right after the monitor's start, at most max extra workers counted as
// running and at most max slots. Once the monitor and every extra worker
// have exited (awaitExits): no extra worker counted as running; every
// start counted once (started); a slot made only for a start; every slot
// inactive.
//
// At most max slots holds because retired frees the slot before it
// counts the worker down, and ready reads the count with acquire: in the
// other order (mutant extra-retired-frees-slot-last) a monitor that looked
// between the two saw a free count and no free slot and made a second
// slot for ExtraWorkers 1.
//
// Shutdown is not in this pair. It was (Shutdown after the monitor's
// start, worker 0 parked until its token): its store of closed and its
// look at every worker's state raced with every step of the two extra
// workers, which made the pair 18,125 schedules at 3 preemptions in the
// reduced search, and 23,487 at 2 in the weak mode (24 s of CPU). The races
// it had are in three pairs now, each exhaustive at 3 in both modes: the
// start against the retirement (this one), Shutdown against a retiring
// extra worker (TestExploreExtraSlotsPairShutdown) and Shutdown against
// the monitor's start of one (TestExploreCloseStatePairExtra); the three
// together stay in the plain layer (TestExploreExtraStartRetireShutdown).
func extraSlots(max int) {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second, ParkTimeout: 0, ExtraWorkers: max})
	w := rt.workers[0]
	w.beginPark()
	if !rt.extras.start() {
		explore.Failf("the first extra worker could not start")
	}
	started := 1
	mon := explore.Go("monitor", func() {
		if rt.extras.start() {
			started++
		}
		checkExtrasAtStart(rt, max)
		rt.exited()
	})
	awaitExits(rt)
	mon.Join()
	checkExtrasAfter(rt, started, "after the extra workers exited")
}

// checkExtrasAtStart is what holds right after the monitor's start: the
// monitor is the count's only incrementer, so the count is at most max,
// and so are the slots.
func checkExtrasAtStart(rt *Runtime, max int) {
	if n := rt.extras.running.LoadRelaxed(); int(n) > max {
		explore.Failf("%d extra workers counted as running, at most %d allowed", n, max)
	}
	if n := len(rt.extraSlots()); n > max {
		explore.Failf("%d extra worker slots, at most %d allowed (ExtraWorkers)", n, max)
	}
}

// checkExtrasAfter is what holds once every extra worker has exited, of
// the started the scenario started: none counted as running, every start
// counted once, a slot only for a start, every slot inactive.
func checkExtrasAfter(rt *Runtime, started int, when string) {
	if n := rt.extras.running.LoadRelaxed(); n != 0 {
		explore.Failf("%s %d extra workers counted as running, want 0", when, n)
	}
	slots := rt.extraSlots()
	if len(slots) > started {
		explore.Failf("%d extra worker slots for %d extra workers started", len(slots), started)
	}
	if got := rt.extras.started.Load(); got != uint64(started) {
		explore.Failf("started counts %d extra workers, %d were started", got, started)
	}
	for _, s := range slots {
		if s.active.LoadRelaxed() {
			explore.Failf("extra slot %d still active %s", s.index, when)
		}
	}
}

// Exhaustive at 3 preemptions in both modes: 2,202 schedules in the
// plain search (20 traces; the reduced search finds the same 20 in 90,
// WSCHED_EXPLORE_CLASSES=1), 137 in the weak layer's reduced search;
// milliseconds.
func TestExploreExtraSlotsPair(t *testing.T) {
	explore.Check(t, "extra/slots-max1", explore.Options{Preemptions: 3}, func() { extraSlots(1) })
}

// Shutdown against a retiring extra worker, alone: worker 0 parked until
// Shutdown's token, the one extra worker searching, finding nothing and
// retiring, or seeing closed first; the monitor has exited. Shutdown
// (a live context) returns nil; after it no extra worker counted as
// running, its start counted, its slot inactive. Exhaustive at 3
// preemptions in both modes with the reduced search: 692 schedules plain
// (149 traces, the plain search's 20,000 found no other), 10,644 in the
// weak mode (about 4 s of CPU).
func TestExploreExtraSlotsPairShutdown(t *testing.T) {
	explore.Check(t, "extra/slots-shutdown", explore.Options{Preemptions: 3, Reduce: true, MaxSchedules: 100_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second, ParkTimeout: 0, ExtraWorkers: 1})
		rt.exited() // the monitor's exit: live counts worker 0 and the extra worker
		w := rt.workers[0]
		w.beginPark()
		if !rt.extras.start() {
			explore.Failf("the extra worker could not start")
		}
		worker := goParkedUntilShutdown(rt, w)
		if err := rt.Shutdown(context.Background()); err != nil {
			explore.Failf("Shutdown = %v", err)
		}
		worker.Join()
		checkExtrasAfter(rt, 1, "after Shutdown")
	})
}

// goParkedUntilShutdown is worker 0's goroutine in these pairs: parked
// (beginPark before) until Shutdown's token, then out of the parked set
// and exited.
func goParkedUntilShutdown(rt *Runtime, w *worker) *explore.Thread {
	return explore.Go("worker", func() {
		for !rt.closed.LoadAcquire() {
			w.parker.Park(0) // until Shutdown's token
		}
		w.endPark()
		w.exit()
	})
}

// The three together, as extra/slots-max1 was before it was split: the
// monitor's start against the retirement, then Shutdown while the extra
// workers still run. Plain layer only (the weak layer's scenarios match
// TestExploreExtraSlots, not this): exhaustive at 3 with the reduced
// search (18,125 schedules, under 2 s of CPU; 903 traces, and 400,000
// schedules of the plain search find no other); in the weak mode 23,487
// schedules at 2 (24 s of CPU) and 144,047 at 3 (4 min 53 s on a loaded
// machine), several times the weak layer's whole budget.
func TestExploreExtraStartRetireShutdown(t *testing.T) {
	explore.Check(t, "extra/start-retire-shutdown", explore.Options{Preemptions: 3, Reduce: true, MaxSchedules: 400_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second, ParkTimeout: 0, ExtraWorkers: 1})
		w := rt.workers[0]
		w.beginPark()
		if !rt.extras.start() {
			explore.Failf("the first extra worker could not start")
		}
		worker := goParkedUntilShutdown(rt, w)
		started := 1
		mon := explore.Go("monitor", func() {
			if rt.extras.start() {
				started++
			}
			checkExtrasAtStart(rt, 1)
			rt.exited()
		})
		mon.Join()
		if err := rt.Shutdown(context.Background()); err != nil {
			explore.Failf("Shutdown = %v", err)
		}
		worker.Join()
		checkExtrasAfter(rt, started, "after Shutdown")
	})
}
