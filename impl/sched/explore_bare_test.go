//go:build explore

package sched

import "github.com/wsched/wsched/explore"

// newBareRuntime builds a runtime as New does (build), but starts no
// goroutine: a scenario of one protocol plays the workers and the monitor
// itself, with the real functions, and nothing else of a runtime runs
// (explore_monitor_test.go, explore_retire_test.go, explore_turn_test.go,
// explore_timer_test.go, explore_slot_test.go, explore_shutdown_test.go,
// explore_idle_test.go).
// Its workers are running, not parked, and no task is counted as spawned.
func newBareRuntime(cfg Config) *Runtime {
	rt, err := build(cfg)
	if err != nil {
		explore.Failf("build: %v", err)
	}
	return rt
}
