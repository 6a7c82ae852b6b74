//go:build !race

package sched

import "github.com/wsched/wsched/internal/goid"

// Without the race detector, a Context method does not check which
// goroutine calls it (pollcheck_race.go does): the methods are on the hot
// path of every spawn and wake from a poll, and the check is a
// diagnosis, not a guard the scheduler needs. The after-the-poll check
// (Context.poller) is in every build.

// pollGoroutine is empty: nothing is recorded, nothing compared.
type pollGoroutine struct{}

// recordGoroutine notes the worker goroutine's number (a stack trace
// read, once per goroutine), at the start of its loop (and of the loop of
// the goroutine that replaces it after a Goexit). A build with the race
// detector notes its handle too (pollcheck_race.go).
func (w *worker) recordGoroutine() {
	w.goid.StoreRelaxed(goid.Current()) // read by Shutdown for a match with its caller; relaxed
}

func checkPollGoroutine(w *worker, op string) {}
