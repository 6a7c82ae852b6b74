package schedtest

import (
	"context"
	"time"
)

// Poll mirrors sched.Poll.
type Poll uint8

const (
	Pending Poll = iota
	Ready
)

// PollFunc is a task body, as the suite writes it.
type PollFunc func(cx Ctx) Poll

// Config is the part of sched.Config the suite sets.
type Config struct {
	Workers     int
	ParkTimeout time.Duration
	// LongPoll is sched.Config.LongPoll: 0 the default, below 0 the
	// monitor's help off, so a task queued behind a blocked poll stays
	// queued until a worker of the runtime's own takes it.
	LongPoll time.Duration
}

// Runtime wraps a *sched.Runtime. A nil PollFunc or func must reach the
// scheduler as a nil Task or nil func, so the nil checks are exercised.
// On error the returned Handle must be a nil interface.
type Runtime interface {
	Spawn(f PollFunc) (Handle, error)
	SpawnFunc(f func()) (Handle, error) // Spawn(sched.Func(f))
	Go(f func()) error
	Shutdown(ctx context.Context) error
	Metrics() Metrics
}

// Ctx wraps a *sched.Context for the duration of one poll.
type Ctx interface {
	Waker() Waker
	Yield() Poll
	Wake(w Waker) // w is a Waker this adapter produced
	Sleep(d time.Duration) error
	Spawn(f PollFunc) (Handle, error)
	SpawnFunc(f func()) (Handle, error) // Spawn(sched.Func(f))
	Go(f func()) error
	Worker() int
}

// Waker wraps a sched.Waker.
type Waker interface{ Wake() }

// Handle wraps a *sched.JoinHandle.
type Handle interface {
	Wait(ctx context.Context) error
}

// Metrics is the part of sched.Metrics the suite checks, plus the dump.
type Metrics struct {
	Workers        int
	Parked         int    // workers whose State is "parked"
	ExtraRunning   int    // extra workers running (polling, or about to retire)
	Polls          uint64 // Metrics.TotalPolls()
	Spawned        uint64
	Completed      uint64
	Cancelled      uint64
	Panicked       uint64
	GlobalQueueLen int
	Searching      int    // the idle state's num_searching: 0 after Shutdown (no credit kept)
	Dump           string // Metrics.String()
}

// Impl describes one scheduler package to the suite.
type Impl struct {
	Name string
	New  func(cfg Config) (Runtime, error)
	// ExtraWorkers is how many extra workers the runtime may run beyond
	// Config.Workers (its default); Worker() may name any of them.
	ExtraWorkers int
	// ZeroWaker is the package's zero Waker, wrapped.
	ZeroWaker Waker
	// PanicValue reports whether err is (or wraps) the package's
	// *PanicError, and its Value.
	PanicValue func(err error) (value any, ok bool)
	// SpawnNilFunc spawns a nil TaskFunc (a typed nil inside the Task
	// interface) on a runtime New returned. The contract's "Spawn with
	// nil" covers it: it must fail with ErrNilTask, not panic later.
	SpawnNilFunc func(rt Runtime) (Handle, error)

	ErrInvalidConfig    error
	ErrNilTask          error
	ErrShutdown         error
	ErrCancelled        error
	ErrNegativeDuration error
	ErrGoexit           error // what Wait returns for a task whose poll called runtime.Goexit
	// ErrShutdownInsideTask is what Shutdown returns called from a task.
	ErrShutdownInsideTask error
}
