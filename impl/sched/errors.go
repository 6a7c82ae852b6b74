package sched

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Errors returned by the runtime. Compare with errors.Is.
var (
	ErrInvalidConfig    = errors.New("sched: invalid config")
	ErrNilTask          = errors.New("sched: nil task")
	ErrShutdown         = errors.New("sched: runtime is shut down")
	ErrCancelled        = errors.New("sched: task cancelled by shutdown")
	ErrNegativeDuration = errors.New("sched: negative duration")
	// ErrGoexit is what JoinHandle.Wait returns for a task whose Poll
	// called runtime.Goexit (as t.FailNow does when a test's assertion
	// fails inside a task). The worker goes on in a new goroutine.
	ErrGoexit = errors.New("sched: task called runtime.Goexit")
	// ErrShutdownInsideTask is returned by Shutdown called from inside a
	// task: the shutdown has begun, and completes once the caller's poll
	// returns (Shutdown cannot wait for it).
	ErrShutdownInsideTask = errors.New("sched: Shutdown called from inside a task: shutdown begun, not waited for")
)

// StillRunningError is what Shutdown returns when its context ends while
// polls are still running: polls that block, which Shutdown cannot stop.
// It wraps the context's error (errors.Is(err, context.DeadlineExceeded)
// holds). Every queued task has been cancelled; the runtime finishes
// shutting down when these polls return.
type StillRunningError struct {
	Err error // the context's error
	// Polls are the workers inside a poll (a task's Poll or a Go func)
	// as Shutdown looked, one by one, after its context ended. A worker
	// not inside a poll is not named, even if it has not exited yet: it
	// runs no poll that began before Shutdown, and exits without waiting
	// for anything but the scheduler's own code.
	Polls []RunningPoll
}

// RunningPoll is one poll still running at Shutdown.
type RunningPoll struct {
	Worker int  // the worker's index; extra workers follow the workers
	Extra  bool // the poll runs on an extra worker
	// For is how long the worker has been in its current tick as far as
	// the monitor knows: since the monitor's first look at that tick or,
	// if it has not looked since the worker started, since the start (of
	// the runtime for a worker, of the extra worker for an extra one).
	// A tick runs several polls: the poll may be younger than its tick.
	For time.Duration
}

func (e *StillRunningError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sched: shutdown: %v: %d poll(s) still running", e.Err, len(e.Polls))
	for i, p := range e.Polls {
		sep := ", "
		if i == 0 {
			sep = " ("
		}
		kind := "worker"
		if p.Extra {
			kind = "extra worker"
		}
		fmt.Fprintf(&b, "%s%s %d for %v", sep, kind, p.Worker, p.For.Round(time.Millisecond))
	}
	if len(e.Polls) > 0 {
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the context's error.
func (e *StillRunningError) Unwrap() error { return e.Err }

// PanicError is what JoinHandle.Wait returns for a task whose Poll
// panicked. Value is the value passed to panic, Stack the panicking
// goroutine's stack at the time of the panic.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("sched: task panicked: %v", e.Value)
}

// Unwrap returns Value if it is an error, so errors.Is and errors.As see
// through a panic(err).
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}

// isNil reports whether t is no task at all: a nil interface, a nil
// TaskFunc or a nil Func, whose Poll would only panic on the worker.
func isNil(t Task) bool {
	switch f := t.(type) {
	case nil:
		return true
	case TaskFunc:
		return f == nil
	case Func:
		return f == nil
	}
	return false
}
