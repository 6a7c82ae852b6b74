//go:build explore

package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// The timer heap's lock-free mirror of its earliest deadline (timerQueue.
// next), which a worker's per-tick poll and the monitor's fireTimers read
// before they take the heap's mutex: a Sleep adding a deadline races an
// expire that empties the heap, while the monitor decides how long to
// sleep. Task e sleeps 1 ms; once it has, task l is spawned and sleeps
// 2 ms. The monitor may by then be parked until e's deadline, and the
// explorer may fire that timeout (virtual time jumps to 1 ms) while the
// worker is inside l's poll, so the monitor's expire of e and l's Sleep
// interleave.
// If the mirror ever says "nothing due" while the heap holds l's timer,
// nobody takes the mutex to fire it: l never wakes, a deadlock. One
// worker, the monitor's help off (it then sleeps exactly until the next
// deadline, or until a Sleep wakes it).
func TestExploreTimerMirror(t *testing.T) {
	explore.Check(t, "protocol/timer-mirror", cached(weakLongAtOne(explore.Options{MaxSchedules: 600_000}, 10_000)), func() {
		rt := newRuntime(1)
		var hs [2]*sched.JoinHandle
		var slept [2]bool
		for i, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond} {
			if i == 1 {
				// The second sleeper comes once the first sleeps, so
				// the monitor may already be parked until its deadline.
				explore.Block(func() bool { return slept[0] }, "the first sleeper to sleep")
			}
			h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				if slept[i] {
					return sched.Ready
				}
				slept[i] = true
				if err := cx.Sleep(d); err != nil {
					explore.Failf("Sleep: %v", err)
				}
				return sched.Pending
			}))
			if err != nil {
				explore.Failf("Spawn: %v", err)
			}
			hs[i] = h
		}
		for i, h := range hs {
			if err := h.Wait(context.Background()); err != nil {
				explore.Failf("Wait %d: %v", i, err)
			}
		}
		if now := explore.Now(); now < int64(2*time.Millisecond) {
			explore.Failf("both sleepers finished at %v, before the 2 ms sleep ended", time.Duration(now))
		}
		m := shutdown(rt)
		explore.Assert(m.PendingTimers == 0, "%d timers left", m.PendingTimers)
	})
}
