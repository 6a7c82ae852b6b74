//go:build explore

package scenarios

import (
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
// (its park-time re-check found work, or a timeout or stale token woke
// it) with the monitor's idle store and re-check falling between its two
// steps. protocol/monitor-idle-self-wake below makes that happen within
// the bound; tla/MonitorIdle.tla shows the swap failing too
// (MonitorIdleSwapped).
func TestExploreMonitorIdleAgainstWake(t *testing.T) {
	explore.Check(t, "protocol/monitor-idle", cached(weakLongAtOne(explore.Options{MaxSchedules: 400_000}, 15_000)), func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: time.Millisecond})
		// Let virtual time pass with nothing to do: the worker parks,
		// and the monitor looks and may go to sleep idle.
		explore.Sleep(2*time.Millisecond, "2 ms of idleness")
		blockOnChild(rt)
		shutdown(rt)
	})
}

// The worker's side of the same pair: a worker that wakes by itself (its
// park timeout) clears its own parked bit, and only then loads the
// monitor's idle flag. Virtual time: the worker's timeout comes first (it
// fires with everybody waiting, at no cost); the monitor's look, fired
// early, can fall between the worker's two steps and go to sleep with no
// period; main's spawn, fired early too, comes before the worker's first
// look at the queues, so the spawn's notify finds no parked worker and the
// task goes to the worker that woke by itself. The task blocks on a child
// in its ring that only an extra worker can run, so only a monitor that
// the worker woke can save it. Swapped (load idle, then clear the bit),
// the monitor sleeps for ever and so does everybody: two preemptions,
// within the bound, where protocol/monitor-idle needs more. Exhaustive at
// 2; the swap (mutant monitor-idle-worker-swapped) deadlocks within it
// (docs/explore.md and the mutant have the counts).
func TestExploreMonitorIdleAgainstSelfWake(t *testing.T) {
	explore.Check(t, "protocol/monitor-idle-self-wake", cached(weakLongAtOne(explore.Options{MaxSchedules: 500_000}, 30_000)), func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: 10 * time.Millisecond, ParkTimeout: time.Millisecond})
		explore.Sleep(3*time.Millisecond/2, "the worker's first timeout")
		blockOnChild(rt)
		shutdown(rt)
	})
}
