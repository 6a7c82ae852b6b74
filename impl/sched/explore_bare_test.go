//go:build explore

package sched

import (
	"github.com/wsched/wsched/impl/idle"
	"github.com/wsched/wsched/impl/park"
	"github.com/wsched/wsched/impl/queue"
)

// newBareRuntime builds a runtime as New does, but starts no goroutine: a
// scenario of one protocol plays the workers and the monitor itself, with
// the real functions, and nothing else of a runtime runs
// (explore_monitor_test.go, explore_retire_test.go, explore_turn_test.go,
// explore_timer_test.go, explore_slot_test.go, explore_shutdown_test.go).
// Its workers are running, not parked, and no task is counted as spawned.
func newBareRuntime(cfg Config) *Runtime {
	workers := cfg.Workers
	rt := &Runtime{
		cfg:        cfg,
		global:     queue.NewGlobal[task](),
		idle:       idle.New(workers),
		terminated: make(chan struct{}),
	}
	rt.timers.init()
	rt.workers = make([]*worker, workers)
	for i := range rt.workers {
		rt.workers[i] = newWorker(rt, i, park.NewChan())
	}
	rt.mon.init(rt)
	rt.extras.init(rt)
	return rt
}
