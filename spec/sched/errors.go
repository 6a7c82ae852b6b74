package sched

import (
	"errors"
	"fmt"
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
	// ErrNegativeDuration is returned by Context.Sleep for d < 0.
	ErrNegativeDuration = errors.New("sched: negative duration")
)

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
