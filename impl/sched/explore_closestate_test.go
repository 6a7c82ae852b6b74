//go:build explore

package sched

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// Shutdown's look at the workers' states against a worker going into a
// tick, alone (go test -tags explore -run TestExploreCloseStatePair
// ./impl/sched), small enough for the weak-memory mode. It is a Dekker
// pair (setState, noneInTick):
//
//	worker:   store its state (running, searching)   Shutdown: store closed
//	          load closed; if clear, tick                     load each state; if
//	                                                          none in a tick, wait
//	                                                          for the exits
//
// The bare runtime (newBareRuntime) has one worker, which runs its real
// loop (worker.run) from starting: it stores running, and, with nothing to
// do, parks; the task main spawns wakes it (a claim and an unpark, or its
// park-time re-check), and it comes back to the top of its loop as a
// searcher. Main spawns a task whose poll blocks until Shutdown has
// returned, then calls Shutdown with a context already cancelled. If
// Shutdown sees the worker starting or parked, it waits for the exits
// whatever its context says, and the worker must see closed before its
// next tick, so the task is cancelled unpolled. Lost, the worker polls the
// task, which never returns, Shutdown waits for its exit for ever: a
// deadlock. Otherwise Shutdown returns a StillRunningError or, if the
// worker saw closed first, nil. The monitor is not in the pair: it has
// exited before the scenario begins (LongPoll < 0: it never helps).
func TestExploreCloseStatePair(t *testing.T) {
	explore.Check(t, "shutdown/pair-close-state", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: -1, ParkTimeout: 0})
		rt.exited() // the monitor's exit: live counts the worker alone
		worker := explore.Go("worker", rt.workers[0].run)
		b := spawnBlocking(rt)
		b.shutdownAround(rt)
		worker.Join()
		b.checkRunOrCancelled()
	})
}

// The same pair for an extra worker the monitor starts: its goroutine
// stores searching (beginExtra) before its loop's first load of closed
// (runExtra). Worker 0 is parked until Shutdown's token, then leaves
// the parked set and exits; the monitor readies and starts the extra
// worker (extraWorkers.start) with the blocking task queued, and exits.
// Lost, the extra worker polls the task after Shutdown saw it starting
// (or did not see its slot: allWorkersSeqCst), and Shutdown waits for its
// exit for ever. Exhaustive at 3 in both modes; the weak-memory mode
// needs the reduced search for it (as the weak layer runs it: 107,523
// schedules, about 40 s of CPU; the plain search runs past the budget).
func TestExploreCloseStatePairExtra(t *testing.T) {
	// The reduced search in both modes: exhaustive at 3 in 9,713
	// schedules in the plain mode (the plain search: 118,403).
	explore.Check(t, "shutdown/pair-close-state-extra", explore.Options{Reduce: true, Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second, ParkTimeout: 0})
		w := rt.workers[0]
		w.beginPark()
		b := spawnBlocking(rt)
		worker := explore.Go("worker", func() {
			for !rt.closed.LoadAcquire() {
				w.parker.Park(0) // until Shutdown's token
			}
			w.endPark()
			w.exit()
		})
		mon := explore.Go("monitor", func() {
			if !rt.extras.start() {
				explore.Failf("the monitor could not start an extra worker")
			}
			rt.exited()
		})
		b.shutdownAround(rt)
		worker.Join()
		mon.Join()
		b.checkRunOrCancelled()
	})
}

// blockingTask is the pairs' task: spawned from outside, its poll blocks
// until release is set, which is after Shutdown has returned.
type blockingTask struct {
	h       *JoinHandle
	release explore.Event
	polled  bool
}

func spawnBlocking(rt *Runtime) *blockingTask {
	b := &blockingTask{}
	h, err := rt.spawnRemote(Func(func() {
		b.polled = true
		b.release.Wait()
	}))
	if err != nil {
		explore.Failf("Spawn: %v", err)
	}
	b.h = h
	return b
}

// shutdownAround calls Shutdown with a context already cancelled, which
// must return nil (the task was not polled) or a StillRunningError
// wrapping context.Canceled, then releases the poll and shuts down again,
// which must succeed.
func (b *blockingTask) shutdownAround(rt *Runtime) {
	ctx, cancel := explore.WithCancel(context.Background())
	cancel()
	err := rt.Shutdown(ctx)
	var sr *StillRunningError
	switch {
	case err == nil && b.polled:
		explore.Failf("Shutdown returned nil while the task's poll blocks")
	case err == nil:
	case errors.As(err, &sr) && errors.Is(err, context.Canceled):
	default:
		explore.Failf("Shutdown = %v, want nil or a StillRunningError wrapping context.Canceled", err)
	}
	b.release.Set()
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown after the poll returned = %v", err)
	}
}

// checkRunOrCancelled: the task ran once, or was cancelled unpolled.
func (b *blockingTask) checkRunOrCancelled() {
	switch err := b.h.Wait(context.Background()); {
	case err == nil && b.polled, errors.Is(err, ErrCancelled) && !b.polled:
	default:
		explore.Failf("Wait of the task = %v, polled %v: want nil and polled, or ErrCancelled and not", err, b.polled)
	}
}
