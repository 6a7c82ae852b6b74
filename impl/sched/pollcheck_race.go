//go:build race

package sched

import (
	"github.com/wsched/wsched/impl/internal/atomic"
	"github.com/wsched/wsched/internal/goid"
)

// In a build with the race detector on, a Context method compares the
// calling goroutine with the goroutine of the worker running the poll, so
// that a Context used from another goroutine while its poll still runs
// panics at the call, naming the mistake, instead of racing on the
// worker's owner-only queues.
//
// The comparison costs a register read and a load, whatever the depth of
// the caller's stack: each worker goroutine records its goid.Handle as it
// starts (recordGoroutine), and a method compares its caller's with
// the poller's. A handle names its goroutine only while that goroutine
// lives, which is enough here: the poller's goroutine is running the
// poll, so it is alive for the whole comparison, and no other goroutine
// can have its handle. (Reading the goroutine number from a stack trace
// instead cost the depth of the stack on every call: a hundred
// microseconds and more for a deep poll under the race detector.)

// pollGoroutine is the handle of the goroutine running the worker's
// loop, recorded by that goroutine before its first tick.
type pollGoroutine struct {
	handle atomic.Uint64
}

// recordGoroutine notes the worker goroutine's number (a stack trace
// read, once per goroutine) and its handle, at the start of its loop (and
// of the loop of the goroutine that replaces it after a Goexit).
func (w *worker) recordGoroutine() {
	w.goid.StoreRelaxed(goid.Current()) // read by Shutdown for a match with its caller; relaxed
	// Relaxed: read by this goroutine's own checks, and by another's only
	// to find it different.
	w.pollGoroutine.handle.StoreRelaxed(uint64(goid.Handle()))
}

// checkPollGoroutine panics if the caller is not w's goroutine.
func checkPollGoroutine(w *worker, op string) {
	if uint64(goid.Handle()) != w.pollGoroutine.handle.LoadRelaxed() { // relaxed: see recordGoroutine
		panic("sched: Context." + op + " called from a goroutine other than the one running its poll: a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
}
