package sched

import (
	"context"

	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// JoinHandle waits for one spawned task. It is the task's only allocation:
// the runtime's record of the task lives inside it.
type JoinHandle struct {
	t task
}

// waitChan is a join channel, made only when a Wait has to block.
type waitChan struct{ ch chan struct{} }

// doneChan returns the channel that closes when the task is final, making
// it on first use. Only Wait calls it, and only after it saw the task not
// final; Wait looks at the state again afterwards (see signal).
func (t *task) doneChan() <-chan struct{} {
	for {
		// Observes an existing channel; acquire (we read its ch).
		w := t.wait.LoadAcquire()
		if w != nil {
			return w.ch
		}
		nw := &waitChan{ch: make(chan struct{})}
		chaos.Point()
		// Publishes the channel; seq_cst: one side of the Dekker pair
		// described at signal. Fails if another Wait got there first:
		// use theirs (the acquire load above reads it again).
		if t.wait.CompareAndSwapSeqCstRelaxed(nil, nw) {
			return nw.ch
		}
	}
}

// signal wakes every Wait. Called once, by whoever made the task final,
// after the final state was stored.
//
// This is a Dekker pair with Wait: the finisher stores the final state,
// then loads wait; a Wait publishes its channel (CAS), then loads the
// state. With all four sequentially consistent, either the finisher sees
// the channel and closes it, or the Wait sees the final state and returns
// without reading the channel (or both). So the common case, a task nobody
// waits for yet, costs one plain load here, not a swap.
func (t *task) signal() {
	// seq_cst (see above); acquire would do for reading w.ch, the
	// StoreLoad order with the state store needs seq_cst.
	if w := t.wait.LoadSeqCst(); w != nil {
		sync.PointOn(w.ch)
		close(w.ch)
	}
}

// Wait blocks until the task finishes and returns nil when it returned
// Ready, a *PanicError if it panicked, ErrGoexit if its poll called
// runtime.Goexit, ErrCancelled if the runtime shut down before it
// finished, or ctx.Err() if ctx ends first (the task goes on).
func (h *JoinHandle) Wait(ctx context.Context) error {
	if h == nil {
		panic("sched: Wait on a nil *JoinHandle (the Spawn that returned it failed; its error says why)")
	}
	if ctx == nil {
		panic("sched: Wait with a nil context.Context (use context.Background())")
	}
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
	switch sync.Select3(done, t.rt.terminated, ctx.Done()) {
	case 1:
		// Every worker has exited: nobody will poll this task again.
		// A task still waiting for a wake is cancelled now (it was
		// counted as cancelled when the runtime terminated).
		t.cancel()
	case 2:
		if err, ok := t.result(); ok {
			return err
		}
		return ctx.Err()
	}
	err, _ := t.result()
	return err
}
