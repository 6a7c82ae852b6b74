package sched

import (
	"github.com/wsched/wsched/impl/internal/debugcheck"
	"github.com/wsched/wsched/internal/goid"
)

// In a build with the race detector on, a Context method compares the
// calling goroutine with the goroutine of the worker running the poll, so
// that a Context used from another goroutine while its poll still runs
// panics at the call, naming the mistake, instead of racing on the
// worker's owner-only queues. Without the race detector it does not
// check: the methods are on the hot path of every spawn and wake from a
// poll, and the check is a diagnosis, not a guard the scheduler needs.
// The after-the-poll check (Context.poller) is in every build.
//
// The comparison costs a register read and a load, whatever the depth of
// the caller's stack (goid.Owner): each worker goroutine records
// itself as it starts (recordGoroutine), and a method compares its
// caller with it. It is sound because the poller's goroutine is running
// the poll, so it is alive for the whole comparison.

// recordGoroutine notes the worker goroutine's number (a stack trace
// read, once per goroutine) and, with the race detector, the goroutine
// itself, at the start of its loop (and of the loop of the goroutine that
// replaces it after a Goexit, or of a new extra worker in a reused slot).
func (w *worker) recordGoroutine() {
	w.goid.StoreRelaxed(goid.Current()) // read by Shutdown for a match with its caller; relaxed
	if debugcheck.Race {
		goid.RecordOwner(&w.pollGoroutine)
	}
}

// checkPollGoroutine panics, with the race detector on, if the caller is
// not w's goroutine.
func checkPollGoroutine(w *worker, op string) {
	if debugcheck.Race && !goid.IsOwner(&w.pollGoroutine) {
		panic("sched: Context." + op + " called from a goroutine other than the one running its poll: a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
}
