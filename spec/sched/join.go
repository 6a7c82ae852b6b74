package sched

import "context"

// JoinHandle waits for one spawned task.
type JoinHandle struct{ t *task }

// Wait blocks until the task finishes or ctx ends. It returns nil when the
// task returned Ready, a *PanicError when its Poll panicked, ErrCancelled
// when Shutdown cancelled it, and ctx.Err() when ctx ended first (the task
// goes on). Wait may be called any number of times, from any goroutine.
func (h *JoinHandle) Wait(ctx context.Context) error {
	if h == nil {
		panic("sched: Wait on a nil *JoinHandle (the Spawn that returned it failed; its error says why)")
	}
	if ctx == nil {
		panic("sched: Wait with a nil context.Context (use context.Background())")
	}
	// A finished task answers even when ctx has already ended.
	select {
	case <-h.t.finished:
		return h.t.err
	default:
	}
	select {
	case <-h.t.finished:
		return h.t.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
