//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The monitor's idle/wake pair alone (go test -tags explore -run
// TestExploreMonitorPair ./impl/sched), small enough for the weak-memory
// mode: one worker going to park and the monitor deciding to sleep with
// no period, on a runtime whose own goroutines never start
// (newBareRuntime). It is a Dekker pair:
//
//	worker:  clear the own parked bit (an RMW)   monitor: store sleepsIdle
//	         load sleepsIdle; if set, wake it             load the bitmap; if
//	                                                      all parked, sleep
//
// Lost, the monitor sleeps for ever while the worker runs: the monitor's
// goroutine never returns and the scenario deadlocks. The bigger scenarios
// (explore/scenarios: protocol/monitor-idle, protocol/monitor-idle-self-wake)
// reach the same code through a whole runtime, with a task the monitor
// must then help; under the weak-memory mode they take minutes, these take
// well under a second.

// monitorSleeps runs the monitor's sleep as its loop does when no worker
// ran at its last look.
func monitorSleeps(rt *Runtime) *explore.Thread {
	return explore.Go("monitor", func() { rt.mon.sleep(rt.now(), false) })
}

// The worker parks and wakes by itself (its park timeout: endPark clears
// its own bit), against the monitor going to sleep idle. The timeout may
// fire early, at any point of the monitor's decision (at the cost of a
// preemption), so the worker's two steps can fall on either side of the
// monitor's two.
func TestExploreMonitorPairTimeout(t *testing.T) {
	explore.Check(t, "monitor/pair-timeout", explore.Options{Preemptions: 3}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Millisecond, ParkTimeout: time.Millisecond})
		w := rt.workers[0]
		m := monitorSleeps(rt)
		w.park()
		m.Join()
	})
}

// The worker parks while a task is published to the global queue with a
// notify, and the monitor goes to sleep idle. Two Dekker pairs at once:
// the publisher's (push, then the notifier's fence and bitmap load)
// against the parker's (set the bit, fence, re-check the queues), where
// the worker either finds the task at its re-check (cancelPark clears its
// own bit) or is claimed (ClaimParked clears it, the parker wakes it);
// and whichever it is, the worker's leftParked against the monitor. Park
// timeouts are off: a lost notify leaves the worker parked for ever, a
// lost monitor wake leaves the monitor asleep; both are deadlocks.
func TestExploreMonitorPairPublish(t *testing.T) {
	explore.Check(t, "monitor/pair-publish", explore.Options{Preemptions: 3}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Millisecond})
		w := rt.workers[0]
		m := monitorSleeps(rt)
		p := explore.Go("publisher", func() { rt.pushRemote(&task{}) })
		w.park()
		p.Join()
		m.Join()
		if rt.global.Len() != 1 {
			explore.Failf("the global queue holds %d tasks, want 1", rt.global.Len())
		}
	})
}

// The monitor's look (watch: flag workers stuck in a tick, help if one
// is) against a worker that parks and wakes by its park timeout. A worker
// that is parking or parked is in no tick, so the look must not flag it,
// whichever of the worker's steps it falls between.
func TestExploreMonitorPairWatch(t *testing.T) {
	explore.Check(t, "monitor/pair-watch", explore.Options{Preemptions: 3}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Millisecond, ParkTimeout: time.Millisecond})
		w := rt.workers[0]
		m := explore.Go("monitor", func() {
			var pacing extraPacing
			rt.mon.watch(rt.now(), &pacing)
		})
		w.park()
		m.Join()
		if w.stuck.LoadRelaxed() {
			explore.Failf("the monitor flagged worker 0 as stuck while it parked")
		}
	})
}
