//go:build explore

package sched

import (
	"context"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// Shutdown while a poll blocks, alone (go test -tags explore -run
// TestExploreShutdownPair ./impl/sched). The whole-runtime scenario
// (explore/scenarios: protocol/shutdown-sweep) is exhaustive at 2 and cut
// at 3; this one runs the same three parties on a bare runtime
// (newBareRuntime), exhaustive at 3:
//
//   - main calls Shutdown (the real one: closed, the tokens, then the wait
//     for the last goroutine's exit);
//   - the monitor waits for closed, then runs its part of Shutdown
//     (monitor.shutdown: sweep what is queued anywhere while another
//     goroutine lives) and exits;
//   - the worker is inside a poll, with one task in its LIFO slot and one
//     in its ring; when the poll returns it exits (worker.exit: it cancels
//     its own queues).
//
// Every queued task is cancelled, and Shutdown returns. In
// ShutdownPairBlocked the poll returns only once both tasks are cancelled
// (as a poll that waits for them would), so only the monitor's sweep can
// cancel them, from a worker it never flagged (LongPoll is a second); in
// ShutdownPairReturns the poll returns at once, and the worker's exit
// races the sweep for the same tasks.
func shutdownPair(pollBlocks bool) {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second})
	w := rt.workers[0]
	inSlot, inRing := &task{}, &task{} // born scheduled
	rt.spawned.Add(2)                  // counted as spawned, so that Shutdown's final count holds
	w.pushLIFO(inSlot)
	w.pushRing(inRing)
	cancelled := func() bool {
		return inSlot.state.Peek() == stateCancelled && inRing.state.Peek() == stateCancelled
	}
	mon := explore.Go("monitor", func() {
		for !rt.closed.LoadAcquire() {
			rt.mon.parker.Park(0) // until Shutdown's token
		}
		rt.mon.shutdown()
		rt.exited()
	})
	worker := explore.Go("worker", func() {
		if pollBlocks {
			explore.Block(cancelled, "the poll: both queued tasks cancelled")
		}
		w.exit()
	})
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown = %v", err)
	}
	worker.Join()
	mon.Join()
	if !cancelled() || rt.cancelled.Load() != 2 {
		explore.Failf("after Shutdown: %d tasks cancelled (slot's %v, ring's %v), want both",
			rt.cancelled.Load(), stateNames[inSlot.state.Peek()], stateNames[inRing.state.Peek()])
	}
}

func TestExploreShutdownPairBlocked(t *testing.T) {
	explore.Check(t, "shutdown/pair-blocked", explore.Options{Preemptions: 3, MaxSchedules: 1_000_000}, func() { shutdownPair(true) })
}

func TestExploreShutdownPairReturns(t *testing.T) {
	// The reduced search: exhaustive at 3 in 6,033 schedules (the plain
	// search: 57,546).
	explore.Check(t, "shutdown/pair-returns", explore.Options{Reduce: true, Preemptions: 3, MaxSchedules: 1_000_000}, func() { shutdownPair(false) })
}
