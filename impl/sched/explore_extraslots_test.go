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
// TestExploreExtraSlotsPair ./impl/sched). Worker 0 is parked until
// Shutdown. An extra worker is running (started before the scenario's
// goroutines, in the one slot); with nothing to do it searches, finds
// nothing, re-checks and retires (retire, exit, retired: the count down,
// the slot freed). Meanwhile the monitor asks for another (start: the
// count, a free slot or a new one, the credit, the goroutine), with
// ExtraWorkers 1, so that the monitor meets a full count or a free one.
//
// Right after the monitor's start, at most max extra workers counted as
// running and at most max slots. After Shutdown: no extra worker counted
// as running; every start counted once (started); a slot made only for a
// start; every slot inactive.
//
// At most max slots holds because retired frees the slot before it
// counts the worker down, and ready reads the count with acquire: in the
// other order (mutant extra-retired-frees-slot-last) a monitor that looked
// between the two saw a free count and no free slot and made a second
// slot for ExtraWorkers 1 (schedule 222 of the reduced search, one
// preemption; 491 of the plain one).
func extraSlots(max int) {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second, ParkTimeout: 0, ExtraWorkers: max})
	w := rt.workers[0]
	w.beginPark()
	if !rt.extras.start() {
		explore.Failf("the first extra worker could not start")
	}
	worker := explore.Go("worker", func() {
		for !rt.closed.LoadAcquire() {
			w.parker.Park(0) // until Shutdown's token
		}
		w.endPark()
		w.exit()
	})
	started := 1
	mon := explore.Go("monitor", func() {
		if rt.extras.start() {
			started++
		}
		// The monitor is the count's only incrementer: right after its
		// start, the count is at most max.
		if n := rt.extras.running.LoadRelaxed(); int(n) > max {
			explore.Failf("%d extra workers counted as running, at most %d allowed", n, max)
		}
		if n := len(rt.extraSlots()); n > max {
			explore.Failf("%d extra worker slots, at most %d allowed (ExtraWorkers)", n, max)
		}
		rt.exited()
	})
	mon.Join()
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown = %v", err)
	}
	worker.Join()
	if n := rt.extras.running.LoadRelaxed(); n != 0 {
		explore.Failf("after Shutdown %d extra workers counted as running, want 0", n)
	}
	slots := rt.extraSlots()
	if len(slots) > started {
		explore.Failf("%d extra worker slots for %d extra workers started", len(slots), started)
	}
	if got := rt.extras.started.Load(); got != uint64(started) {
		explore.Failf("started counts %d extra workers, the monitor started %d", got, started)
	}
	for _, s := range slots {
		if s.active.LoadRelaxed() {
			explore.Failf("extra slot %d still active after Shutdown", s.index)
		}
	}
}

// Exhaustive at 3 preemptions with the reduced search (224,741
// schedules, about 11 s of CPU on a loaded machine): the plain search
// needs 951,975 schedules and 22 s, and at 3 the two reach the same
// 1,166 traces (WSCHED_EXPLORE_CLASSES=1: 0 missed). The plain search at
// 2 was 42,832 schedules, about a second. At 1 in the weak mode (3,281
// schedules; at 2 it had not ended after 3.5 minutes on a loaded machine).
func TestExploreExtraSlotsPair(t *testing.T) {
	opt := explore.Options{Preemptions: 3, Reduce: true, MaxSchedules: 400_000}
	if explore.WeakMode() {
		opt = explore.Options{Preemptions: 1, MaxSchedules: 200_000}
	}
	explore.Check(t, "extra/slots-max1", opt, func() { extraSlots(1) })
}
