package sched

import (
	"fmt"
	"strings"
)

// Metrics is a snapshot of a runtime's counters.
//
// This package fills in Spawned, Completed, Cancelled, Panicked, GlobalQueueLen (the
// length of its one queue), the extra workers (Extra, ExtraRunning, ExtraStarted)
// and, per worker and extra worker, State and Polls. The other fields
// describe machinery this package does not have and are always zero.
type Metrics struct {
	Workers        []WorkerMetrics
	Extra          []WorkerMetrics // the extra workers started so far
	ExtraRunning   int             // extra workers running now
	ExtraStarted   uint64          // extra workers started
	MonitorWakes   uint64          // always 0 here (the condition variable wakes)
	GlobalQueueLen int
	Searching      int    // always 0 here
	Parked         int    // always 0 here
	ParkedBitmap   uint64 // always 0 here
	Spawned        uint64 // tasks accepted by Spawn or Go
	Completed      uint64 // tasks that returned Ready or panicked
	Cancelled      uint64 // tasks cancelled by Shutdown
	Panicked       uint64 // tasks whose Poll panicked (counted in Completed too)
}

// WorkerMetrics is a snapshot of one worker's counters.
type WorkerMetrics struct {
	State          string // "running", "parked" (waiting for the queue) or "exited"
	Polls          uint64 // calls of Task.Poll
	LIFOPolls      uint64 // always 0 here
	Steals         uint64 // always 0 here
	TasksStolen    uint64 // always 0 here
	Overflows      uint64 // always 0 here
	GlobalPolls    uint64 // always 0 here
	GlobalBatches  uint64 // always 0 here
	Parks          uint64 // always 0 here
	EmptyWakes     uint64 // always 0 here
	BudgetYields   uint64 // always 0 here
	GlobalInterval int    // always 0 here
	RingLen        int    // always 0 here
	LIFOFull       bool   // always false here
}

// Metrics returns a consistent snapshot: it is taken with the lock held.
func (rt *Runtime) Metrics() Metrics {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	m := Metrics{
		Workers:        make([]WorkerMetrics, rt.cfg.Workers),
		ExtraRunning:   rt.extras,
		ExtraStarted:   rt.extraStarted,
		GlobalQueueLen: len(rt.queue),
		Spawned:        rt.spawned,
		Completed:      rt.completed,
		Cancelled:      rt.cancelled,
		Panicked:       rt.panicked,
	}
	for i, w := range rt.workers {
		wm := WorkerMetrics{State: w.state, Polls: w.polls}
		if w.extra {
			m.Extra = append(m.Extra, wm)
		} else {
			m.Workers[i] = wm
		}
	}
	return m
}

// TotalPolls is the sum of the workers' and extra workers' Polls.
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

// String is a multi-line dump for humans, printed by watchdogs on a hang.
func (m Metrics) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "workers=%d global_queue=%d searching=%d parked=%d parked_bitmap=%#016x\n",
		len(m.Workers), m.GlobalQueueLen, m.Searching, m.Parked, m.ParkedBitmap)
	fmt.Fprintf(&b, "spawned=%d completed=%d cancelled=%d panicked=%d polls=%d\n",
		m.Spawned, m.Completed, m.Cancelled, m.Panicked, m.TotalPolls())
	fmt.Fprintf(&b, "monitor: extra running=%d started=%d\n", m.ExtraRunning, m.ExtraStarted)
	for i, w := range m.Workers {
		writeWorker(&b, "worker", i, w)
	}
	for i, w := range m.Extra {
		writeWorker(&b, "extra ", len(m.Workers)+i, w)
	}
	return b.String()
}

func writeWorker(b *strings.Builder, kind string, i int, w WorkerMetrics) {
	fmt.Fprintf(b, "  %s %2d %-9s polls=%d lifo=%d steals=%d stolen=%d overflows=%d "+
		"global=%d/%d batches parks=%d empty_wakes=%d budget_yields=%d interval=%d ring=%d lifo_full=%t\n",
		kind, i, w.State, w.Polls, w.LIFOPolls, w.Steals, w.TasksStolen, w.Overflows,
		w.GlobalPolls, w.GlobalBatches, w.Parks, w.EmptyWakes, w.BudgetYields,
		w.GlobalInterval, w.RingLen, w.LIFOFull)
}
