//go:build explore

package sched

import (
	"testing"

	"github.com/wsched/wsched/explore"
)

// The last searcher's duty (Rule 2) against a claim that is half done,
// alone (go test -tags explore -run TestExploreIdlePairHalfClaim
// ./impl/sched). A claim is three steps (ClaimParked: clear the parked bit,
// np--, ns++), and the claimed worker may act on its credit between the
// first and the third: a worker that is parking sees work at its re-check,
// finds its bit already cleared by the claimer, searches "on the claimer's
// credit", takes a task and gives that credit back before the claimer added
// it. num_searching then reads -1 for an instant, and the worker is still
// the last searcher: it must notify (docs/tla.md, IdleAsWritten, the trace
// this scenario replays with the real code).
//
// The bare runtime (newBareRuntime) has two workers. Worker 1 is parked
// and asleep; nothing runs it. Worker 0 searched and found nothing: it
// parks (the real worker.park, with no timeout: a lost wake is a
// deadlock), and once out of the parked set it takes one task and polls it
// (the real findWork and execute). That poll stands for a long one: worker
// 0 takes nothing more. Two publishers each spawn one task from outside
// (pushRemote). The protocol's promise: the task worker 0 did not take has
// a worker coming for it, so worker 1 is no longer parked.
func TestExploreIdlePairHalfClaim(t *testing.T) {
	explore.Check(t, "idle/pair-half-claim", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 2, LongPoll: -1})
		w0, w1 := rt.workers[0], rt.workers[1]
		w1.beginPark()
		if !w0.becomeSearcher() {
			explore.Failf("worker 0 could not become a searcher")
		}
		ran := 0
		newTask := func() *task { return rt.newGoRecord(func() { ran++ }) }
		// The publishers are identical (each task it makes is its own
		// until it publishes it): explore.Symmetric.
		a := explore.Go("publisher-a", func() { rt.pushRemote(newTask()) })
		b := explore.Go("publisher-b", func() { rt.pushRemote(newTask()) })
		explore.Symmetric(a, b)
		for {
			w0.park()
			if t := w0.findWork(); t != nil {
				w0.execute(t)
				break
			}
		}
		explore.JoinAll(a, b)
		if ran != 1 {
			explore.Failf("worker 0 ran %d tasks, want 1", ran)
		}
		// The other task is in the global queue, or in worker 0's ring
		// (pollGlobal takes a batch): either way another worker can take it.
		if q := rt.global.Len() + w0.ring.Len(); q != 1 {
			explore.Failf("%d tasks queued (global %d, worker 0's ring %d), want 1", q, rt.global.Len(), w0.ring.Len())
		}
		if rt.idle.IsParked(1) {
			explore.Failf("a task is queued, worker 0 is busy and worker 1 is still parked: nobody is coming for it (num_searching %d)",
				rt.idle.Searching())
		}
	})
}
