//go:build explore

package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// An extra worker retiring against a publisher deciding whether to
// notify. An extra worker that finds no work gives its searching credit
// back and re-checks every queue before its goroutine ends (retire); a
// publisher pushes, then skips its notify if it sees a searcher. One of
// the two sees the other: either the retiring worker finds the task, or
// the publisher sees no searcher and wakes the parked worker.
//
// One worker. Its first task blocks until a child it spawned has run, so
// the monitor starts an extra worker, which runs the child; the first
// task returns and worker 0 goes to park. Then, while the extra worker
// may be retiring, a task is published: from outside (global queue) in
// one scenario, from a task on worker 0 (its ring) in the other. No
// worker is stuck any more, so the monitor does not help: a task the
// retiring worker missed and nobody was woken for waits for ever (with
// the park timeout off, a deadlock).
//
// Each is exhaustive at one preemption (about 2,000 schedules) and at
// two, the explore step's bound: the remote one in 870,923 schedules
// (about 31 s), the local one in 979,522 (about 36 s; the reduced search
// takes longer on both). WSCHED_LONG=1 (verify -long) gives each a
// million schedules at three preemptions. The mutants of retire die at
// one preemption (docs/explore.md and the mutants have the counts).

// blockOnChild spawns a task that spawns a child and blocks until the
// child has run, and waits for it. The child is in the blocked worker's
// ring: only another worker (one the monitor wakes, or an extra worker it
// starts) can run it. Here, with one worker, it returns once an extra
// worker has run the child.
func blockOnChild(rt *sched.Runtime) {
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
}

func TestExploreExtraRetireAgainstRemoteSpawn(t *testing.T) {
	explore.Check(t, "protocol/extra-retire-remote", cached(weakLongAtOne(explore.Options{MaxSchedules: budget(1_000_000, 100_000)}, 30_000)), func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: time.Millisecond})
		blockOnChild(rt)
		var c counter
		h, err := rt.Spawn(c.task())
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := h.Wait(context.Background()); err != nil || c.runs != 1 {
			explore.Failf("the task published while the extra worker retired: Wait = %v after %d runs, want nil after 1", err, c.runs)
		}
		m := shutdown(rt)
		explore.Assert(m.ExtraStarted >= 1, "no extra worker was started for the blocked poll's child\n%s", m)
	})
}

func TestExploreExtraRetireAgainstLocalSpawn(t *testing.T) {
	explore.Check(t, "protocol/extra-retire-local", cached(weakLongAtOne(explore.Options{MaxSchedules: budget(1_100_000, 100_000)}, 40_000)), func() {
		rt := newRuntimeWith(sched.Config{Workers: 1, LongPoll: time.Millisecond})
		blockOnChild(rt)
		// A task that spawns a child and does not wait for it: the child
		// is in the ring of whichever worker ran the parent.
		var c counter
		var hc *sched.JoinHandle
		hp, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			var err error
			if hc, err = cx.Spawn(c.task()); err != nil {
				explore.Failf("Context.Spawn: %v", err)
			}
			return sched.Ready
		}))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		if err := hp.Wait(context.Background()); err != nil {
			explore.Failf("Wait of the parent: %v", err)
		}
		if err := hc.Wait(context.Background()); err != nil || c.runs != 1 {
			explore.Failf("the child spawned while the extra worker retired: Wait = %v after %d runs, want nil after 1", err, c.runs)
		}
		shutdown(rt)
	})
}
