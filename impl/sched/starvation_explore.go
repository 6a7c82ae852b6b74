//go:build explore

package sched

// Under the explore build tag the monitor starts an extra worker whenever
// its rule says so (starvation.go): the goroutine counts that pace it are
// the real runtime's, which an explored schedule does not control.
type extraPacing struct{}

func (*extraPacing) allowExtra(*monitor, int64, int) bool { return true }
