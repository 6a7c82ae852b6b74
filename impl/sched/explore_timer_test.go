//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The timer heap's lock-free mirror of its earliest deadline, alone (go
// test -tags explore -run TestExploreTimerPair ./impl/sched). The mirror
// (timerQueue.next) is what a worker's per-tick poll and the monitor's
// fireTimers read before they take the heap's mutex; if it ever says
// "nothing due" while the heap holds a due timer, nobody fires that timer.
// The whole-runtime scenario (explore/scenarios: protocol/timer-mirror) is
// exhaustive at 2, in hundreds of thousands of schedules; this one plays
// the parties on a bare runtime (newBareRuntime) and is exhaustive at 3:
//
//   - task e sleeps 1 ms (its timer is in the heap from the start);
//   - a worker arms task l's timer for 2 ms (Context.Sleep's arm, which
//     wakes the monitor if it sleeps past the new deadline), then starts a
//     tick (pollTimers: the mirror, then the heap);
//   - the monitor, its help off (it sleeps exactly until the next
//     deadline, or until a Sleep wakes it), sleeps and fires timers until
//     both tasks are queued. Its first sleep may end at e's deadline while
//     the worker arms l, so the expire that empties the heap of e and the
//     arm of l interleave.
//
// Lost, l's timer stays in the heap with the mirror saying nothing is
// due: the monitor wakes at l's deadline, skips the heap, and loops (a
// livelock, over the step budget). Each task must be queued exactly once:
// by the monitor (the global queue) or the worker (its ring).
func TestExploreTimerPair(t *testing.T) {
	explore.Check(t, "timer/pair", explore.Options{Preemptions: 3}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: -1})
		w := rt.workers[0]
		e, l := &task{}, &task{}
		e.state.StoreRelaxed(stateIdle)
		l.state.StoreRelaxed(stateIdle)
		rt.timers.set(int64(time.Millisecond), e)
		queued := func() int { return rt.global.Len() + w.ring.Len() }
		mon := explore.Go("monitor", func() {
			for queued() < 2 {
				rt.mon.sleep(rt.now(), false)
				rt.mon.fireTimers(rt.now())
			}
		})
		rt.arm(l, 2*time.Millisecond)
		w.pollTimers(rt.now())
		// The worker goes on with its tick: a monitor asleep with no
		// deadline after the worker fired the last timer would sleep for
		// ever here, as it may in a runtime whose workers run. (This
		// wake cannot hide a lost timer: the monitor then loops.)
		rt.mon.parker.Unpark()
		mon.Join()
		seen := map[*task]int{}
		var buf [2]*task
		for _, t := range buf[:rt.global.PopBatch(buf[:])] {
			seen[t]++
		}
		for t := w.ring.Pop(); t != nil; t = w.ring.Pop() {
			seen[t]++
		}
		if seen[e] != 1 || seen[l] != 1 || len(seen) != 2 {
			explore.Failf("queued: e %d times, l %d times, want once each", seen[e], seen[l])
		}
	})
}
