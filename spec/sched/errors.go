package sched

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

var (
	// ErrInvalidConfig is wrapped by the error New returns for a bad Config.
	ErrInvalidConfig = errors.New("sched: invalid config")
	// ErrNilTask is returned by Spawn and Go when given nil.
	ErrNilTask = errors.New("sched: nil task")
	// ErrShutdown is returned by Spawn and Go once Shutdown has begun.
	ErrShutdown = errors.New("sched: runtime is shut down")
	// ErrCancelled is returned by JoinHandle.Wait for a task that Shutdown
	// cancelled before it finished.
	ErrCancelled = errors.New("sched: task cancelled by shutdown")
	// ErrGoexit: the task's poll called runtime.Goexit.
	ErrGoexit = errors.New("sched: task called runtime.Goexit")
	// ErrShutdownInsideTask: Shutdown was called from inside a task; the
	// shutdown has begun and completes once the caller's poll returns.
	ErrShutdownInsideTask = errors.New("sched: Shutdown called from inside a task: shutdown begun, not waited for")
	// ErrNegativeDuration is returned by Context.Sleep for d < 0.
	ErrNegativeDuration = errors.New("sched: negative duration")
)

// StillRunningError is what Shutdown returns when its context ends while
// polls are still running (polls that block, which Shutdown cannot stop).
// It wraps the context's error. The queued tasks have been cancelled; the
// runtime finishes when these polls return.
type StillRunningError struct {
	Err   error
	Polls []RunningPoll
}

// RunningPoll is one poll still running at Shutdown.
type RunningPoll struct {
	Worker int           // the worker's index; extra workers follow the workers
	Extra  bool          // it runs on an extra worker
	For    time.Duration // how long it has run
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

// PanicError is what JoinHandle.Wait returns for a task whose Poll panicked.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the stack of the panicking goroutine, from debug.Stack
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("sched: task panicked: %v", e.Value)
}

// Unwrap returns the panic value if it is an error, so that errors.Is and
// errors.As see through a task that panicked with an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
