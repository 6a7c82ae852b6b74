//go:build explore

package scenarios

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// Shutdown while a poll blocks, with one task in that worker's LIFO slot
// and one in its ring. Only the monitor's shutdown sweep can cancel them
// (the worker cancels its own queues only when it exits, after the poll):
// it must take both, from a worker it may never have flagged (LongPoll is
// a second, though the explorer may let that much virtual time pass), or
// the watcher that waits for their Waits never releases the poll and
// Shutdown never returns. Where the monitor did flag the worker before
// Shutdown, an extra worker may have run either task instead: then it ran
// exactly once.
func TestExploreShutdownSweepsSlotAndRing(t *testing.T) {
	opt := explore.Options{MaxSchedules: 400_000}
	if explore.WeakMode() {
		weakOneWorker(&opt)
	}
	explore.Check(t, "protocol/shutdown-sweep", opt, func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: time.Second})
		b := &pendingTask{}
		hb, _ := rt.Spawn(b)
		b.waitForWaker()
		var started, release explore.Event
		var hc *sched.JoinHandle
		cRuns, ran := 0, 0 // the scenario's goroutines run one at a time
		ha, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			b.send()         // its next poll returns Ready
			cx.Wake(b.waker) // into this worker's LIFO slot
			var err error
			if hc, err = cx.Spawn(sched.Func(func() { cRuns++ })); err != nil { // into its ring
				explore.Failf("Context.Spawn: %v", err)
			}
			started.Set()
			release.Wait()
			return sched.Ready
		}))
		started.Wait()
		watcher := explore.Go("watcher", func() {
			ran = cancelledOrRanOnce("the slot's task", hb, func() int { return b.polls - 1 }) +
				cancelledOrRanOnce("the ring's task", hc, func() int { return cRuns })
			release.Set()
		})
		m := shutdown(rt)
		if err := ha.Wait(context.Background()); err != nil {
			explore.Failf("Wait of the blocked task = %v", err)
		}
		watcher.Join()
		if m.Cancelled != uint64(2-ran) || m.Completed != uint64(1+ran) {
			explore.Failf("after Shutdown: %d cancelled, %d completed; want %d and %d\n%s", m.Cancelled, m.Completed, 2-ran, 1+ran, m)
		}
	})
}

// cancelledOrRanOnce waits for h, whose task was queued when Shutdown
// began, and checks its fate given how often its body ran since (read
// after Wait): cancelled without running (0) or run exactly once, to
// completion (1).
func cancelledOrRanOnce(what string, h *sched.JoinHandle, ranSince func() int) int {
	err := h.Wait(context.Background())
	runs := ranSince()
	switch {
	case errors.Is(err, sched.ErrCancelled) && runs == 0:
		return 0
	case err == nil && runs == 1:
		return 1
	}
	explore.Failf("Wait of %s = %v after %d runs, want ErrCancelled after none or nil after one", what, err, runs)
	return 0
}
