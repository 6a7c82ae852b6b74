package forkjoin

import (
	"errors"
	"fmt"
	"runtime/debug"
)

var (
	// ErrClosed: the pool was closed (Run, Join or Scope after Close), or
	// Close was called twice.
	ErrClosed = errors.New("forkjoin: pool is closed")
	// ErrWorkers: Config.Workers is outside [1, MaxWorkers].
	ErrWorkers = fmt.Errorf("forkjoin: Workers must be between 1 and %d", MaxWorkers)
	// ErrSleepTimeout: Config.SleepTimeout is negative.
	ErrSleepTimeout = errors.New("forkjoin: SleepTimeout must not be negative")
	// ErrNilFunc: a nil function was given to Run, Join, Scope or Spawn.
	ErrNilFunc = errors.New("forkjoin: nil function")
	// ErrNotInWorker: Join or Scope was called on a Worker that is not
	// running a job, i.e. outside the call that received it.
	ErrNotInWorker = errors.New("forkjoin: Worker used outside the job it was given to")
	// ErrScopeDone: Spawn on a Scope whose Scope call has already returned.
	ErrScopeDone = errors.New("forkjoin: Spawn on a finished scope")
	// ErrGoexit is the Value of the *PanicError that a job calling
	// runtime.Goexit (what t.FailNow does) finishes with: Join and Scope
	// re-raise it, Run returns it (errors.Is(err, ErrGoexit) holds).
	ErrGoexit = errors.New("forkjoin: job called runtime.Goexit")
	// ErrInsideJob: Close called from inside a job of the same pool (it
	// would wait for the Run that the job belongs to), or Run from inside
	// a job of a one-worker pool (it would wait for a worker to run its
	// function, and the only one is busy waiting). Inside a job, use the
	// Worker's Join and Scope.
	ErrInsideJob = errors.New("forkjoin: Run or Close called from inside a job of the same pool, which would wait for itself")
)

// PanicError carries a panic out of a job: Join and Scope re-panic with it in
// the joining code, and Pool.Run returns it.
type PanicError struct {
	Value any    // the value the job panicked with
	Stack []byte // the stack of the goroutine that panicked, at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("forkjoin: job panicked: %v", e.Value)
}

// Unwrap returns Value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// asPanicError wraps a recovered value. A *PanicError coming up from a
// nested Join is passed on as it is, so the stack of the first panic
// survives any number of joins.
func asPanicError(r any) *PanicError {
	if pe, ok := r.(*PanicError); ok {
		return pe
	}
	return &PanicError{Value: r, Stack: debug.Stack()}
}
