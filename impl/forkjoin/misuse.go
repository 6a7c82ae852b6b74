package forkjoin

import (
	"github.com/wsched/wsched/impl/internal/debugcheck"
	"github.com/wsched/wsched/internal/goid"
)

// Telling misuse apart needs to know which goroutine calls: a Worker is
// its goroutine's. So each worker goroutine records, once, as it starts,
// its number (goid.Current, read from a stack trace) and, in a build with
// the race detector, its handle (goid.Handle, a register read). Run and
// Close (no hot path) compare their caller's number with each worker's to
// refuse a call from inside a job: a number is never reused, so a worker
// goroutine that has exited is never taken for the caller. A build with
// the race detector compares handles on every Join, Scope and Spawn
// (checkGoroutine), which is where a captured outer Worker or Scope is
// caught. Without the race detector, those three check only what costs a
// load (a closed pool, a worker that runs no job): Join is the hot path,
// and the check is a diagnosis the pool does not need.

// recordGoroutine notes the worker goroutine's number and, with the race
// detector, the goroutine itself (goid.Owner; nothing without it).
func (w *Worker) recordGoroutine() {
	w.goid.StoreRelaxed(goid.Current()) // relaxed: see the goid field
	goid.RecordOwner(&w.jobGoroutine)
}

// checkGoroutine panics, naming op, if the caller is not w's goroutine: a
// Worker or Scope captured by a closure that runs on another worker (or on
// a goroutine of its own), which would push onto w's deque from a
// goroutine that does not own it. Race-detector builds only. The
// comparison is sound because the checks call it only while the worker's
// goroutine runs a job (check has seen a depth above zero, Spawn a scope
// not yet over): the goroutine recorded is alive, and no other carries
// its handle.
func (w *Worker) checkGoroutine(op string) {
	if debugcheck.Race && !goid.IsOwner(&w.jobGoroutine) {
		panic("forkjoin: " + op + " on a Worker from a goroutine that is not its own: use the *Worker (or *Scope) your function was given, not one captured from an enclosing job")
	}
}

// insideJob reports whether the caller is one of p's worker goroutines:
// code inside a job.
func (p *Pool) insideJob() bool {
	me := goid.Current()
	for _, w := range p.workers {
		if w.goid.LoadRelaxed() == me { // relaxed: a worker's own store, if it is the caller
			return true
		}
	}
	return false
}

// zeroPool is the panic of a Pool not made by New.
const zeroPool = "forkjoin: zero Pool (it has no workers): make one with New"
