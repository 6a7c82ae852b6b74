package sched

import (
	"testing"

	"github.com/wsched/wsched/impl/fastrand"
)

// A slot that a later extra worker reuses starts as a new one would: its
// previous worker's owner-only state (clocks, flags, the poll in flight,
// its spare records) is gone, and what it keeps is what reset says it
// keeps.
func TestReusedExtraSlotStartsFresh(t *testing.T) {
	rt, err := New(Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Shutdown(t.Context())
	fresh := newWorker(rt, 1, nil)
	w := newWorker(rt, 1, nil)
	// What a previous extra worker could have left behind.
	w.rechecked, w.pollUnwound, w.pollYielded = true, true, true
	w.polling = &task{}
	w.rand = fastrand.New(99)
	w.rand.N(10)
	old := w.rand
	w.sinceGlobal, w.lifoPolls = 17, 3
	w.avgPoll = 1e9
	w.setInterval(1)
	w.woke, w.yielded = true, true
	w.spare = nil
	w.slab = make([]JoinHandle, 4)
	w.setState(workerExited)
	w.m.polls.Store(5) // a counter: kept

	w.reset()

	if w.rechecked || w.pollUnwound || w.pollYielded || w.polling != nil || w.woke || w.yielded {
		t.Error("reset kept a per-poll or per-park flag")
	}
	if w.sinceGlobal != 0 || w.lifoPolls != 0 || w.avgPoll != fresh.avgPoll || w.interval != fresh.interval {
		t.Errorf("reset kept the fairness clock: sinceGlobal %d lifoPolls %d avgPoll %v interval %d; a new worker has %d %d %v %d",
			w.sinceGlobal, w.lifoPolls, w.avgPoll, w.interval, fresh.sinceGlobal, fresh.lifoPolls, fresh.avgPoll, fresh.interval)
	}
	if w.rand == old {
		t.Error("reset kept the victim generator's state (a new worker seeds its own)")
	}
	if w.slab != nil || cap(w.spare) != cap(fresh.spare) || len(w.spare) != 0 {
		t.Errorf("reset kept the record caches: slab %d, spare %d/%d", len(w.slab), len(w.spare), cap(w.spare))
	}
	if s := w.state.Load(); s != workerStarting {
		t.Errorf("state after reset = %s, want starting", workerStateNames[s])
	}
	if w.searching {
		t.Error("searching after reset")
	}
	if got := w.m.polls.Load(); got != 5 {
		t.Errorf("reset cleared the poll counter (%d): Metrics adds the slot's counters up over its extra workers", got)
	}
}

// A walk over every worker, extra slots included, allocates nothing: the
// workers are one list (workerlist.go). Before, the fairness turn's look
// at stuck workers built a fresh slice of workers and extra slots each
// time once an extra slot existed.
func TestWalkOverWorkersAndExtraSlotsDoesNotAllocate(t *testing.T) {
	rt, err := New(Config{Workers: 2, LongPoll: MinLongPoll})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Shutdown(t.Context())
	rt.addSlot() // as the monitor does for a first extra worker (it runs none here: the runtime is idle)
	if got := len(rt.allWorkers()); got != 3 {
		t.Fatalf("allWorkers has %d entries, want 2 workers and 1 extra slot", got)
	}
	thief := newWorker(rt, 99, nil) // not in the list: owned by this goroutine
	rt.mon.stuckCount.AddRelaxed(1) // as if a worker were flagged: stealStuck walks every worker
	defer rt.mon.stuckCount.AddRelaxed(-1)
	allocs := testing.AllocsPerRun(100, func() {
		thief.stealStuck()
		rt.workAvailable(thief)
	})
	if allocs != 0 {
		t.Fatalf("stealStuck and workAvailable allocate %v times per call with an extra slot, want 0", allocs)
	}
}
