//go:build explore

package scenarios

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// A poll that calls runtime.Goexit while a goroutine wakes its task: the
// worker goroutine ends, a new one goes on with the same worker, the task
// finishes with ErrGoexit exactly once (the wake, before or after, changes
// nothing), and a task queued behind it still runs. One worker, the
// monitor's help off: nothing else could run that task.
func TestExploreGoexitRacesWake(t *testing.T) {
	// The plain search with the state cache (plainCached): exhaustive at
	// 2 preemptions in 71,052 schedules; the reduced search, 114,148;
	// the plain search alone, 759,409. Under WSCHED_LONG the reduced
	// search, the same budget at 3, which it cannot end: 2 and a start
	// on 3. In the weak mode at 1 (weakAtOne), in the weak layer: 43,815
	// schedules with the state cache, 6 to 10 s of one core; the only
	// weak-mode scenario that runs worker.afterGoexit.
	opt := explore.Options{Reduce: true, MaxSchedules: budget(150_000, 15_000)}
	weakAtOne(&opt, 100_000)
	explore.Check(t, "misuse/goexit-races-wake", plainCached(opt), func() {
		rt := newRuntime(1)
		var w sched.Waker
		have := false
		polls := 0
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			if polls++; polls == 1 {
				touched(&have)
				w, have = cx.Waker(), true
				return sched.Pending
			}
			runtime.Goexit()
			return sched.Ready
		}))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		blockOn(&have, func() bool { return have }, "the task's waker")
		waker := explore.Go("waker", func() { w.Wake(); w.Wake() })
		var c counter
		hc, _ := rt.Spawn(c.task())
		if err := h.Wait(context.Background()); !errors.Is(err, sched.ErrGoexit) {
			explore.Failf("Wait of the task that called Goexit = %v, want ErrGoexit", err)
		}
		if err := hc.Wait(context.Background()); err != nil || c.runs != 1 {
			explore.Failf("the task behind it: Wait = %v after %d runs", err, c.runs)
		}
		waker.Join()
		explore.Assert(polls == 2, "the task was polled %d times, want 2", polls)
		shutdown(rt)
	})
}
