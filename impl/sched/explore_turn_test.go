//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The fairness turn of a busy worker against a stuck worker, alone (go
// test -tags explore -run TestExploreTurnPair ./impl/sched). The
// whole-runtime scenario (explore/scenarios: fairness/turn-serves-stuck)
// is exhaustive at 1 preemption in CI and at 2 only under WSCHED_LONG
// (over a million schedules); this one plays the three parties on a bare
// runtime (newBareRuntime) and is exhaustive at 3.
//
//   - Worker A is busy: its ring holds its own task, which yields after
//     every poll (pushYield: back into the ring, and the global queue's
//     turn comes first at the next findWork). So A never runs out of work
//     and never reaches its steal pass; only its turns (findWork, step 1:
//     the global queue, then stealStuck) can serve B.
//   - Worker B is stuck in a poll: its ring holds the quiet rest of a
//     global batch, and its poll wakes a task into its LIFO slot
//     (pushLIFO) and then never returns.
//   - The monitor finds both in one long tick and flags both: B, and A too
//     (a tick's count moves only every 16 polls; a flagged worker still
//     takes its turns).
//
// A takes turns while the other two act, and a few more after: both of
// B's tasks must come to A, each exactly once.
func TestExploreTurnPair(t *testing.T) {
	explore.Check(t, "turn/pair", explore.Options{Preemptions: 3}, func() {
		rt := newBareRuntime(Config{Workers: 2, LongPoll: time.Millisecond})
		a, b := rt.workers[0], rt.workers[1]
		own, rest, woken := &task{}, &task{}, &task{}
		a.pushRing(own)
		b.pushRing(rest)
		later := int64(2 * time.Millisecond) // past LongPoll: one long tick
		mon := explore.Go("monitor", func() {
			rt.mon.check(b, later)
			rt.mon.check(a, later)
		})
		stuck := explore.Go("stuck worker", func() { b.pushLIFO(woken) })
		got := map[*task]int{}
		turn := func() {
			switch t := a.findWork(); t {
			case own:
				a.pushYield(own)
			case nil:
				explore.Failf("worker A found no work, but its own task yields back into its ring")
			default:
				got[t]++
			}
		}
		turn()
		turn()
		mon.Join()
		stuck.Join()
		// A turn after each poll of own: three more polls serve B's two
		// tasks (a turn that takes one runs it in place of own).
		for i := 0; i < 3; i++ {
			turn()
		}
		if got[rest] != 1 || got[woken] != 1 || len(got) != 2 {
			explore.Failf("worker A ran the stuck worker's tasks %d (its ring) and %d (its slot) times, want once each", got[rest], got[woken])
		}
	})
}
