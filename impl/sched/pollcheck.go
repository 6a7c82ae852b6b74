//go:build !race

package sched

// Without the race detector, a Context method does not check which
// goroutine calls it (pollcheck_race.go does): the check reads a stack
// trace, and the methods are on the hot path of every spawn and wake
// from a poll. The after-the-poll check (Context.poller) is in every
// build.

func checkPollGoroutine(w *worker, op string) {}
