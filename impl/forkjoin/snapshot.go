package forkjoin

import (
	"fmt"
	"strings"
)

// State is what a worker was doing when a Snapshot was taken.
type State int32

const (
	StateRunning   State = iota // running a job (or between jobs)
	StateSearching              // idle, searching and yielding
	StateSleepy                 // idle, announced sleepy, one search left
	StateSleeping               // registered as a sleeper, blocked
	StateStopped                // exited after Close
)

func (s State) String() string {
	switch s {
	case StateRunning:
		return "running"
	case StateSearching:
		return "searching"
	case StateSleepy:
		return "sleepy"
	case StateSleeping:
		return "sleeping"
	case StateStopped:
		return "stopped"
	}
	return fmt.Sprintf("State(%d)", int32(s))
}

// WorkerSnapshot describes one worker.
type WorkerSnapshot struct {
	Index    int
	State    State
	Queued   int   // jobs in its deque
	Depth    int   // jobs it is inside (0: idle)
	Executed int64 // jobs run through the scheduler (stolen, injected, helped)
	Steals   int64
	Sleeps   int64
}

// Snapshot is a racy, best-effort picture of a pool, for diagnostics: each
// field is read atomically, but not all at the same moment.
type Snapshot struct {
	Workers  []WorkerSnapshot
	Sleepers uint32 // workers registered as sleeping
	JEC      uint32 // jobs event counter; even: a sleepy announcement stands
	Injected int64  // Runs waiting in the injection queue
}

// Snapshot returns the pool's current state. Every load in it is relaxed:
// diagnostics, never a decision.
func (p *Pool) Snapshot() Snapshot {
	c := p.sleep.load()
	s := Snapshot{Sleepers: c.sleepers(), JEC: c.jec(), Injected: p.injector.n.LoadRelaxed()}
	for _, w := range p.workers {
		s.Workers = append(s.Workers, WorkerSnapshot{
			Index:    w.index,
			State:    State(w.state.Load()),
			Queued:   w.deque.Len(),
			Depth:    int(w.depth.Load()),
			Executed: w.ran.Load(),
			Steals:   w.steals.Load(),
			Sleeps:   w.sleeps.Load(),
		})
	}
	return s
}

func (s Snapshot) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "sleepers=%d jec=%d injected=%d\n", s.Sleepers, s.JEC, s.Injected)
	for _, w := range s.Workers {
		fmt.Fprintf(&sb, "  worker %d: %-9s queued=%d depth=%d executed=%d steals=%d sleeps=%d\n",
			w.Index, w.State, w.Queued, w.Depth, w.Executed, w.Steals, w.Sleeps)
	}
	return sb.String()
}

// WorkerState returns what worker i is doing, without the cost of a full
// Snapshot. It panics if i is out of range.
func (p *Pool) WorkerState(i int) State { return State(p.workers[i].state.Load()) }
