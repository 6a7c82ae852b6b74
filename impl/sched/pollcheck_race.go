//go:build race

package sched

import "github.com/wsched/wsched/internal/goid"

// In a build with the race detector on, a Context method compares the
// calling goroutine with the goroutine of the worker running the poll, so
// that a Context used from another goroutine while its poll still runs
// panics at the call, naming the mistake, instead of racing on the
// worker's owner-only queues. The check reads the goroutine number out
// of a stack trace (about a microsecond): affordable where the race
// detector already multiplies every cost, not on the production path
// (pollcheck.go).

// checkPollGoroutine panics if the caller is not w's goroutine.
func checkPollGoroutine(w *worker, op string) {
	if goid.Current() != w.goid.LoadRelaxed() { // relaxed: see recordGoroutine
		panic("sched: Context." + op + " called from a goroutine other than the one running its poll: a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
}
