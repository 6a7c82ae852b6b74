//go:build race

package forkjoin

import (
	"github.com/wsched/wsched/impl/internal/atomic"
	"github.com/wsched/wsched/internal/goid"
)

// jobGoroutine is the handle (goid.Handle) of the worker's goroutine,
// recorded by that goroutine as it starts, and compared on every Join,
// Scope and Spawn: a register read and a load, whatever the depth of a
// recursive job's stack (reading the goroutine number from a stack trace
// made each call cost the depth: a nested Join of depth 10,000 did not
// finish in 40 s). A handle names its goroutine only while it lives; the
// checks compare it only while the worker's goroutine runs a job (check
// has seen a depth above zero, Spawn a scope not yet over), so the
// goroutine it names is alive and no other can carry it.
type jobGoroutine struct {
	handle atomic.Uint64
}

// record notes the calling goroutine as the worker's.
func (j *jobGoroutine) record() {
	// Relaxed: read by this goroutine's own checks, and by another's only
	// to find it different.
	j.handle.StoreRelaxed(uint64(goid.Handle()))
}

// checkGoroutine panics, naming op, if the caller is not w's goroutine: a
// Worker or Scope captured by a closure that runs on another worker (or on
// a goroutine of its own), which would push onto w's deque from a
// goroutine that does not own it. Race-detector builds only (misuse.go).
func (w *Worker) checkGoroutine(op string) {
	if uint64(goid.Handle()) != w.jobGoroutine.handle.LoadRelaxed() { // relaxed: see record
		panic("forkjoin: " + op + " on a Worker from a goroutine that is not its own: use the *Worker (or *Scope) your function was given, not one captured from an enclosing job")
	}
}
