package sched

import (
	"fmt"
	"strings"

	"github.com/wsched/wsched/explore/atomic"
)

// Metrics is a snapshot of the runtime's counters. Values are read one by
// one while the runtime runs, so they need not add up exactly (a worker
// publishes its poll, spawn and completion counts once per tick, so they
// may trail by up to one tick); after Shutdown they are exact.
type Metrics struct {
	Workers []WorkerMetrics
	// Extra are the extra workers' slots (extra.go): those running now
	// and those that ran and retired, whose counters remain.
	Extra          []WorkerMetrics
	ExtraRunning   int    // extra worker goroutines running now
	ExtraStarted   uint64 // extra workers started by the monitor
	MonitorWakes   uint64 // parked workers the monitor woke for a stuck one
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
	Stuck          bool   // flagged by the monitor: in one tick for longer than LongPoll
	Polls          uint64 // every call of Task.Poll
	LIFOPolls      uint64
	Steals         uint64 // successful steals (ring batches and LIFO slots)
	TasksStolen    uint64
	SlotSteals     uint64 // tasks taken from a stuck worker's LIFO slot
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
	slotSteals                                       atomic.StatUint64
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
		ExtraRunning:   int(rt.extras.running.LoadRelaxed()),
		ExtraStarted:   rt.extras.started.Load(),
		MonitorWakes:   rt.mon.woken.Load(),
	}
	for i, w := range rt.workers {
		m.Workers[i] = w.metrics(&m)
	}
	for _, w := range rt.extraSlots() {
		m.Extra = append(m.Extra, w.metrics(&m))
	}
	return m
}

// metrics returns w's counters and adds its spawns and completions to m.
func (w *worker) metrics(m *Metrics) WorkerMetrics {
	c := &w.m
	m.Spawned += c.spawned.Load()
	m.Completed += c.completed.Load()
	return WorkerMetrics{
		State:          workerStateNames[w.state.Load()],
		Stuck:          w.stuck.LoadRelaxed(),
		Polls:          c.polls.Load(),
		LIFOPolls:      c.lifoPolls.Load(),
		Steals:         c.steals.Load(),
		TasksStolen:    c.tasksStolen.Load(),
		SlotSteals:     c.slotSteals.Load(),
		Overflows:      c.overflows.Load(),
		GlobalPolls:    c.globalPolls.Load(),
		GlobalBatches:  c.globalBatches.Load(),
		Parks:          c.parks.Load(),
		EmptyWakes:     c.emptyWakes.Load(),
		BudgetYields:   c.budgetYields.Load(),
		GlobalInterval: int(c.interval.Load()),
		RingLen:        w.ring.Len(),
		LIFOFull:       w.lifo.Full(),
	}
}

// TotalPolls is the sum of every worker's and extra worker's Polls.
func (m Metrics) TotalPolls() uint64 {
	var n uint64
	for _, w := range m.Workers {
		n += w.Polls
	}
	for _, w := range m.Extra {
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
	fmt.Fprintf(&b, "monitor: woke=%d extra running=%d started=%d\n", m.MonitorWakes, m.ExtraRunning, m.ExtraStarted)
	for i, w := range m.Workers {
		writeWorker(&b, "worker", i, w)
	}
	for i, w := range m.Extra {
		writeWorker(&b, "extra ", len(m.Workers)+i, w)
	}
	return b.String()
}

func writeWorker(b *strings.Builder, kind string, i int, w WorkerMetrics) {
	fmt.Fprintf(b, "%s %2d %-9s polls=%d lifo=%d steals=%d/%d slot=%d overflows=%d global=%d/%d parks=%d emptywakes=%d budget=%d interval=%d ring=%d lifofull=%v stuck=%v\n",
		kind, i, w.State, w.Polls, w.LIFOPolls, w.Steals, w.TasksStolen, w.SlotSteals, w.Overflows,
		w.GlobalPolls, w.GlobalBatches, w.Parks, w.EmptyWakes, w.BudgetYields,
		w.GlobalInterval, w.RingLen, w.LIFOFull, w.Stuck)
}
