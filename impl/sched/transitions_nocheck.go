//go:build !race && !explore

package sched

// checkSearching is empty without the race detector and the explorer (see
// transitions_check.go).
func (w *worker) checkSearching(string) {}
