package sched

import (
	"errors"
	"fmt"
)

// Errors returned by the runtime. Compare with errors.Is.
var (
	ErrInvalidConfig    = errors.New("sched: invalid config")
	ErrNilTask          = errors.New("sched: nil task")
	ErrShutdown         = errors.New("sched: runtime is shut down")
	ErrCancelled        = errors.New("sched: task cancelled by shutdown")
	ErrNegativeDuration = errors.New("sched: negative duration")
)

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
