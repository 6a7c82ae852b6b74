//go:build !race

package forkjoin

// checkGoroutine checks nothing without the race detector: it reads a
// stack trace, and Join is the hot path (misuse_race.go, misuse.go).
func (w *Worker) checkGoroutine(string) {}
