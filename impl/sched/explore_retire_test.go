//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// An extra worker retiring against a publisher, alone (go test -tags
// explore -run TestExploreRetirePair ./impl/sched), small enough for the
// weak-memory mode. Two Dekker pairs meet in retire:
//
//	extra worker: give the searching credit back    publisher: push the task
//	              re-check every queue (fence)                 fence, load the
//	              (found: search on; else exit)                credits; none:
//	                                                           claim a parked
//	                                                           worker
//
// Either the retiring worker sees the task, or the publisher sees no
// searcher and claims the parked worker 0. Lost, the task waits with nobody
// coming for it (the whole-runtime scenarios, protocol/extra-retire-*,
// show that as a deadlock; they are exhaustive at 2 only under
// WSCHED_LONG). Here the scenario asserts the protocol's promise directly:
// an extra worker that retired left worker 0 claimed.
//
// The runtime is bare (newBareRuntime, no goroutine of its own): worker 0
// is parked, not searching; worker 1 runs (the publisher of the local
// variant); one extra worker is readied as the monitor's start readies it
// (a searching credit) and searches on that credit as its goroutine does
// first (beginExtra), and the scenario runs its retire.

// retirePair readies the bare runtime and the extra worker, runs retire
// against publish, and checks the promise.
func retirePair(publish func(rt *Runtime)) {
	rt := newBareRuntime(Config{Workers: 2, LongPoll: time.Millisecond})
	rt.workers[0].beginPark()
	x := rt.extras.ready()
	x.searchOnCredit() // beginExtra's first step
	p := explore.Go("publisher", func() { publish(rt) })
	retired := x.retire()
	p.Join()
	if retired && rt.idle.IsParked(0) {
		explore.Failf("the extra worker retired and worker 0 is still parked: the task published while it retired has nobody coming for it (queued: global %d, worker 1's ring %d)",
			rt.global.Len(), rt.workers[1].ring.Len())
	}
}

// From outside: the global queue and notify (Runtime.Spawn's push).
func TestExploreRetirePairRemote(t *testing.T) {
	explore.Check(t, "retire/pair-remote", explore.Options{Preemptions: 3}, func() {
		retirePair(func(rt *Runtime) { rt.pushRemote(&task{}) })
	})
}

// From a task on worker 1: its ring and notify (Context.Spawn's push).
func TestExploreRetirePairLocal(t *testing.T) {
	explore.Check(t, "retire/pair-local", explore.Options{Preemptions: 3}, func() {
		retirePair(func(rt *Runtime) { rt.workers[1].pushLocal(&task{}) })
	})
}
