package sched

import (
	"fmt"
	"strings"

	"github.com/wsched/wsched/impl/internal/atomic"
)

// Metrics is a snapshot of the runtime's counters. Values are read one by
// one while the runtime runs, so they need not add up exactly (a worker
// publishes its poll, spawn and completion counts once per tick, so they
// may trail by up to one tick); after Shutdown they are exact.
type Metrics struct {
	Workers        []WorkerMetrics
	GlobalQueueLen int
	Searching      int    // idle state: num_searching (may read -1 for an instant, see impl/idle)
	Parked         int    // idle state: num_parked
	ParkedBitmap   uint64 // idle state: bit i set = worker i parked
	Spawned        uint64 // tasks accepted by Spawn/Go (runtime and Context)
	Completed      uint64 // tasks that finished (Ready or panicked)
	Panicked       uint64 // tasks whose Poll panicked (counted in Completed too)
	Cancelled      uint64 // tasks cancelled by shutdown; after Shutdown, Spawned == Completed + Cancelled
	PendingTimers  int
}

// WorkerMetrics are one worker's counters.
type WorkerMetrics struct {
	State          string // "running", "searching", "parked", "exited" (a snapshot)
	Polls          uint64 // every call of Task.Poll
	LIFOPolls      uint64
	Steals         uint64 // successful StealInto calls
	TasksStolen    uint64
	Overflows      uint64 // ring overflows to the global queue
	GlobalPolls    uint64 // tasks taken from the global queue
	GlobalBatches  uint64
	Parks          uint64
	EmptyWakes     uint64 // wakes after which the worker found nothing
	BudgetYields   uint64 // ticks ended because the budget of 128 ran out
	GlobalInterval int    // current adaptive interval, in polls
	RingLen        int
	LIFOFull       bool
}

// pollCounts are the counters that move on every poll or spawn. The owner
// keeps them in plain fields, so the hot path has no atomic add for them,
// and publishes them into workerCounters at the end of every tick and at
// exit: a running runtime's Metrics lag by at most one tick's polls; after
// Shutdown they are exact.
type pollCounts struct {
	polls, lifoPolls, spawned, completed uint64
}

// workerCounters are written by the owner and read by Metrics. Each is an
// atomic so that the read is not a data race; relaxed ordering would do
// (counters, no decision reads them: Stat types, not scheduling points of
// the explorer).
type workerCounters struct {
	polls, lifoPolls, steals, tasksStolen, overflows atomic.StatUint64
	globalPolls, globalBatches, parks, emptyWakes    atomic.StatUint64
	budgetYields, spawned, completed                 atomic.StatUint64
	interval                                         atomic.StatUint32
}

// Metrics returns a snapshot of the runtime's counters.
//
// Every load below is relaxed: a snapshot of counters no decision reads.
func (rt *Runtime) Metrics() Metrics {
	snap := rt.idle.Snapshot()
	m := Metrics{
		Workers:        make([]WorkerMetrics, len(rt.workers)),
		GlobalQueueLen: rt.global.Len(),
		Searching:      snap.Searching,
		Parked:         snap.Parked,
		ParkedBitmap:   snap.Bitmap,
		Spawned:        rt.spawned.Load(),
		Cancelled:      rt.cancelled.Load(),
		Panicked:       rt.panicked.Load(),
		PendingTimers:  rt.timers.len(),
	}
	for i, w := range rt.workers {
		c := &w.m
		m.Workers[i] = WorkerMetrics{
			State:          workerStateNames[w.state.Load()],
			Polls:          c.polls.Load(),
			LIFOPolls:      c.lifoPolls.Load(),
			Steals:         c.steals.Load(),
			TasksStolen:    c.tasksStolen.Load(),
			Overflows:      c.overflows.Load(),
			GlobalPolls:    c.globalPolls.Load(),
			GlobalBatches:  c.globalBatches.Load(),
			Parks:          c.parks.Load(),
			EmptyWakes:     c.emptyWakes.Load(),
			BudgetYields:   c.budgetYields.Load(),
			GlobalInterval: int(c.interval.Load()),
			RingLen:        w.ring.Len(),
			LIFOFull:       w.lifoFull.Load(),
		}
		m.Spawned += c.spawned.Load()
		m.Completed += c.completed.Load()
	}
	return m
}

// TotalPolls is the sum of every worker's Polls.
func (m Metrics) TotalPolls() uint64 {
	var n uint64
	for _, w := range m.Workers {
		n += w.Polls
	}
	return n
}

// String is a multi-line dump, the one a watchdog prints on a hang.
func (m Metrics) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runtime: spawned=%d completed=%d cancelled=%d panicked=%d polls=%d global=%d timers=%d\n",
		m.Spawned, m.Completed, m.Cancelled, m.Panicked, m.TotalPolls(), m.GlobalQueueLen, m.PendingTimers)
	fmt.Fprintf(&b, "idle: searching=%d parked=%d bitmap=%#016x\n", m.Searching, m.Parked, m.ParkedBitmap)
	for i, w := range m.Workers {
		fmt.Fprintf(&b, "worker %2d %-9s polls=%d lifo=%d steals=%d/%d overflows=%d global=%d/%d parks=%d emptywakes=%d budget=%d interval=%d ring=%d lifofull=%v\n",
			i, w.State, w.Polls, w.LIFOPolls, w.Steals, w.TasksStolen, w.Overflows,
			w.GlobalPolls, w.GlobalBatches, w.Parks, w.EmptyWakes, w.BudgetYields,
			w.GlobalInterval, w.RingLen, w.LIFOFull)
	}
	return b.String()
}
