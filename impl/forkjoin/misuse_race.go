//go:build race

package forkjoin

import "github.com/wsched/wsched/internal/goid"

// checkGoroutine panics, naming op, if the caller is not w's goroutine: a
// Worker or Scope captured by a closure that runs on another worker (or on
// a goroutine of its own), which would push onto w's deque from a
// goroutine that does not own it. Race-detector builds only (misuse.go).
func (w *Worker) checkGoroutine(op string) {
	if goid.Current() != w.goid.LoadRelaxed() { // relaxed: see the goid field
		panic("forkjoin: " + op + " on a Worker from a goroutine that is not its own: use the *Worker (or *Scope) your function was given, not one captured from an enclosing job")
	}
}
