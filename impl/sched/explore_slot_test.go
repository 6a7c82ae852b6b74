//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The LIFO slot between its owner, a thief and the monitor's flag, alone
// (go test -tags explore -run TestExploreSlotPair ./impl/sched). The
// slot's own scenarios (explore/scenarios: slot/*) run impl/queue's Slot
// with a thief that steals whenever it likes; here the worker code runs
// it, with the flag that decides when a thief may look:
//
//   - worker B's poll wakes two tasks (pushLIFO: the second displaces the
//     first into the ring), a new tick begins (its tick count moves), and
//     it takes its work (popLocal: the slot first, then the ring);
//   - the monitor looks twice: the first look finds B in one long tick
//     and flags it; the second finds the count moved and unflags it;
//   - worker A tries B's slot twice (stealSlot: only while B is flagged).
//
// Every task must come out exactly once, whoever takes it and whatever
// the flag said when the thief looked. On a bare runtime
// (newBareRuntime); exhaustive at 3.
func TestExploreSlotPair(t *testing.T) {
	explore.Check(t, "slot/pair", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 2, LongPoll: time.Millisecond})
		a, b := rt.workers[0], rt.workers[1]
		tasks := []*task{{}, {}}
		got := map[*task]int{}
		take := func(t *task) {
			if t != nil {
				got[t]++
			}
		}
		mon := explore.Go("monitor", func() {
			rt.mon.check(b, int64(2*time.Millisecond)) // one long tick: flagged
			rt.mon.check(b, int64(3*time.Millisecond)) // unflagged if B's count moved
		})
		thief := explore.Go("thief", func() {
			take(a.stealSlot(b))
			take(a.stealSlot(b))
		})
		for _, t := range tasks {
			b.pushLIFO(t)
		}
		b.ticks.Add(1) // the poll returned; a new tick begins
		take(b.popLocal())
		take(b.popLocal())
		mon.Join()
		thief.Join()
		take(b.popLocal())
		take(b.popLocal())
		for _, t := range tasks {
			if got[t] != 1 {
				explore.Failf("a task came out %d times, want once (owner and thief took %d tasks in all)", got[t], len(got))
			}
		}
		if len(got) != len(tasks) {
			explore.Failf("%d distinct tasks came out, want %d", len(got), len(tasks))
		}
	})
}
