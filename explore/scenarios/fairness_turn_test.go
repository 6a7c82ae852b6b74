//go:build explore

package scenarios

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// wokenTask is a task that waits for a wake: its first poll hands out its
// waker and returns Pending; the poll after the wake counts a run and
// completes. A wake from inside another task's poll puts it in that
// worker's LIFO slot.
type wokenTask struct {
	waker sched.Waker
	have  bool
	runs  int
}

func (p *wokenTask) Poll(cx *sched.Context) sched.Poll {
	if !p.have {
		p.waker, p.have = cx.Waker(), true
		return sched.Pending
	}
	p.runs++
	return sched.Ready
}

// The busy worker's fairness turn serves the queues of a worker stuck in a
// long poll (findWork, step 1: pollGlobal, then stealStuck). A busy worker
// reaches its turn every interval-th poll, and also right after a task
// yielded (pushYield), which is what makes the scenario small: one
// yielding task keeps a worker busy, with a turn after each poll.
//
// Two workers, the monitor on (LongPoll 1 ms), extra workers off. Main
// spawns two tasks from outside, which worker A takes in one batch: a task
// that waits for a wake (its first poll hands out its waker), and the
// yielder. The yielder's first poll spawns, from outside, the task that
// blocks: worker B takes it; it wakes the waiting task into B's LIFO slot
// (a wake from inside a poll, no announcement: B would run it next) and
// blocks until main releases it. Each poll of the yielder works for 1.75
// ms of virtual time and yields, so the yielder is back in A's ring
// whenever A looks for work: A never runs out of work of its own, never
// reaches its steal pass (step 5) and never parks. The monitor's first
// look (0.5 ms) starts B's clock, the look at 1.5 ms flags B as stuck, and
// at the end of the yielder's first poll (1.75 ms) A's turn takes the
// slot's task.
//
// Nobody else can take it while B's poll blocks: B's own poll does not
// return, A never steals the ordinary way, no worker is parked for the
// monitor to wake, and no extra worker may start. (With extra workers on,
// one would: A's tick lasts as long as B's, since a tick's count moves
// only every 16 polls, so the monitor flags A too, sees no healthy worker,
// and starts an extra worker, whose steal pass takes the slot; each of the
// mutants below then survives.) So the task in the slot must run before
// the yielder's sixth poll (at 8.75 ms), exactly once: the monitor's flag
// comes later than 1.5 ms only if its look is put off by preemptions, one
// yielding poll per preemption. Main releases the blocked poll only after
// the yielder is done (the yielder then waits for the same release, so
// that its worker does not go looking for work and park before Shutdown).
//
// The slot, not the ring: a worker's ring is open to every thief's steal
// pass, its slot only once the monitor flagged it, and only a task in the
// slot tells a turn that takes both from one that takes rings. The turn
// that serves only the global queue (sched-turn-skips-stuck), the turn
// that takes stuck workers' rings but not their slots
// (sched-turn-stuck-ring-only), a flagged worker that skips its turn's
// look at stuck workers (sched-turn-flagged-thief-skips) and a yield that
// does not bring the turn forward (sched-yield-no-turn) all leave the task
// in the slot for the yielder's six polls: an assertion, at the first
// schedule. Exhaustive at two preemptions in 225,220 schedules with the
// state cache (cached), 1,197,996 without (about 27 s of one core); under
// WSCHED_LONG, without the cache, the rounds up to 2 again and a start on
// 3, which it cannot end (forecast: about 160,000,000).
func TestExploreFairnessTurnServesStuck(t *testing.T) {
	explore.Check(t, "fairness/turn-serves-stuck", cached(explore.Options{MaxSchedules: 1_500_000}), func() {
		rt := newRuntimeWith(sched.Config{Workers: 2, LongPoll: time.Millisecond, ExtraWorkers: -1})
		const maxPolls = 6
		woken := &wokenTask{}
		if _, err := rt.Spawn(woken); err != nil {
			explore.Failf("Spawn: %v", err)
		}
		var done, release explore.Event
		blocker := sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			explore.Block(func() bool { return woken.have }, "the woken task's waker")
			cx.Wake(woken.waker) // into this worker's LIFO slot
			release.Wait()
			return sched.Ready
		})
		polls, ranAt := 0, -1
		if _, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			if polls++; polls == 1 {
				if _, err := rt.Spawn(blocker); err != nil {
					explore.Failf("Spawn: %v", err)
				}
			}
			if woken.runs > 0 || polls == maxPolls {
				if woken.runs > 0 {
					ranAt = polls
				}
				done.Set()
				release.Wait()
				return sched.Ready
			}
			explore.Sleep(7*time.Millisecond/4, "1.75 ms of work")
			return cx.Yield()
		})); err != nil {
			explore.Failf("Spawn: %v", err)
		}
		done.Wait()
		explore.Assert(ranAt > 0, "the task in the stuck worker's LIFO slot did not run during the %d polls of the busy worker's yielder: its fairness turns must take it once the monitor flagged the worker", maxPolls)
		release.Set()
		m := shutdown(rt)
		explore.Assert(woken.runs == 1, "the task in the stuck worker's LIFO slot ran %d times, want 1", woken.runs)
		explore.Assert(m.ExtraStarted == 0, "an extra worker started with ExtraWorkers < 0\n%s", m)
	})
}
