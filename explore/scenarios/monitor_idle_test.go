//go:build explore

package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// The monitor's idle sleep against a worker leaving the parked set
// (tla/MonitorIdle.tla checks the design; this runs the code). One
// worker, parked; virtual time passes, so the monitor may go to sleep with
// no period, or be about to, or be past its re-check. A task from outside
// wakes the worker, spawns a child into its ring and blocks until the
// child has run. Only an extra worker can run the child, and only a
// watching monitor starts one: the worker that left the parked set must
// have woken a monitor that went idle, whichever way their steps
// interleave, or every goroutine ends up waiting (a deadlock).
//
// It kills the monitor's side of the pair broken (no re-check after the
// idle store; no wake at all). The worker's side swapped (load idle, then
// clear the own bit) it does not reach at 2 preemptions: here a spawn's
// notify clears the worker's bit before the worker runs, and then either
// order is safe; the swap matters only when the worker clears its own bit
// (its park-time re-check found work, or a stale token woke it) with the
// monitor's idle store and re-check falling between its two steps, which
// takes more preemptions than the bound. tla/MonitorIdle.tla shows that
// swap failing (MonitorIdleSwapped).
func TestExploreMonitorIdleAgainstWake(t *testing.T) {
	explore.Check(t, "protocol/monitor-idle", explore.Options{MaxSchedules: 400_000}, func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: time.Millisecond})
		// Let virtual time pass with nothing to do: the worker parks,
		// and the monitor looks and may go to sleep idle.
		explore.BlockTimeout(func() bool { return false }, 2*time.Millisecond, "2 ms of idleness")
		var ran explore.Event
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			if _, err := cx.Spawn(sched.Func(ran.Set)); err != nil {
				explore.Failf("Context.Spawn: %v", err)
			}
			ran.Wait()
			return sched.Ready
		}))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := h.Wait(context.Background()); err != nil {
			explore.Failf("Wait: %v", err)
		}
		shutdown(rt)
	})
}
