//go:build !race

package sched

// Without the race detector, a Context method does not check which
// goroutine calls it (pollcheck_race.go does): the methods are on the hot
// path of every spawn and wake from a poll, and the check is a
// diagnosis, not a guard the scheduler needs. The after-the-poll check
// (Context.poller) is in every build.

// pollGoroutine is empty: nothing is recorded, nothing compared.
type pollGoroutine struct{}

func (*pollGoroutine) record() {}

func checkPollGoroutine(w *worker, op string) {}
