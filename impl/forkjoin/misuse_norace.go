//go:build !race

package forkjoin

// jobGoroutine is empty without the race detector: Join is the hot path,
// and the check is a diagnosis the pool does not need (misuse_race.go,
// misuse.go).
type jobGoroutine struct{}

func (*jobGoroutine) record() {}

// checkGoroutine checks nothing without the race detector.
func (w *Worker) checkGoroutine(string) {}
