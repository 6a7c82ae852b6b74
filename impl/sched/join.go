package sched

import (
	"context"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// JoinHandle waits for one spawned task. It is the task's only allocation:
// the runtime's record of the task lives inside it.
type JoinHandle struct {
	t task
}

// waitChan is a join channel, made only when a Wait has to block.
type waitChan struct{ ch chan struct{} }

// signalled is stored in task.wait once the task is final; a Wait that
// finds it does not block.
var signalled = func() *waitChan {
	w := &waitChan{ch: make(chan struct{})}
	close(w.ch)
	return w
}()

// doneChan returns the channel that closes when the task is final, making
// it on first use.
func (t *task) doneChan() <-chan struct{} {
	for {
		// Observes an existing channel; acquire (we read its ch).
		w := t.wait.Load()
		if w != nil {
			return w.ch
		}
		nw := &waitChan{ch: make(chan struct{})}
		chaos.Point()
		// Publishes the channel; acq_rel. Fails if another Wait or
		// signal got there first: use theirs.
		if t.wait.CompareAndSwap(nil, nw) {
			return nw.ch
		}
	}
}

// signal wakes every Wait. Called once, by whoever made the task final,
// after the final state was stored.
//
// A Wait that published its channel before this swap is closed here; a
// Wait that comes later finds signalled. A Wait that published its channel
// but then checked the state (final) returns without reading the channel.
func (t *task) signal() {
	// acq_rel: acquires a Wait's channel, releases signalled.
	if w := t.wait.Swap(signalled); w != nil && w != signalled {
		close(w.ch)
	}
}

// Wait blocks until the task finishes and returns nil when it returned
// Ready, a *PanicError if it panicked, ErrCancelled if the runtime shut
// down before it finished, or ctx.Err() if ctx ends first (the task goes
// on).
func (h *JoinHandle) Wait(ctx context.Context) error {
	t := &h.t
	if err, ok := t.result(); ok {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	done := t.doneChan()
	// The task may have become final between result() and doneChan()
	// (its signal then found no channel yet).
	if err, ok := t.result(); ok {
		return err
	}
	select {
	case <-done:
	case <-t.rt.terminated:
		// Every worker has exited: nobody will poll this task again.
		// A task still waiting for a wake is cancelled now (it was
		// counted as cancelled when the runtime terminated).
		t.cancel()
	case <-ctx.Done():
		if err, ok := t.result(); ok {
			return err
		}
		return ctx.Err()
	}
	err, _ := t.result()
	return err
}
