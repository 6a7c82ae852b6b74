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

// awaitExits waits, in a scenario on a bare runtime whose worker 0 is
// parked for good (beginPark, no goroutine), until the monitor and every
// extra worker have exited: the last of them takes live down to 1 (worker
// 0 alone) and so unparks the monitor's parker (exited), which nothing
// else here unparks. No Shutdown: a pair of the extra workers' own
// protocols waits for their exits without Shutdown's store of closed and
// look at every worker, which would race with each of their steps
// (TestExploreExtraSlotsPairShutdown has that race alone).
func awaitExits(rt *Runtime) {
	rt.mon.parker.Park(0)
}
