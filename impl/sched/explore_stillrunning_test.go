//go:build explore

package sched

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// What Shutdown's error names, alone (go test -tags explore -run
// TestExploreStillRunningPair ./impl/sched): the polls running when its
// context ended, and no worker that only has not exited yet.
//
// The bare runtime (newBareRuntime) has one worker. Worker 0 is inside a
// poll that blocks until Shutdown has returned. The monitor, as when it
// finds worker 0 stuck with a task queued behind it, starts an extra
// worker (the real extraWorkers.start: the slot, the searching credit, the
// goroutine, which runs the real worker loop), and exits (its sweep at
// shutdown is ShutdownPair's subject). Main queues that task and calls Shutdown with a
// context already cancelled. The extra worker races Shutdown: it may not
// have begun its loop, be at the top of it, search, poll the queued task,
// or have exited. Whatever it does, Shutdown's StillRunningError names one
// poll, worker 0's: the extra worker's poll of a task that only counts has
// no scheduling point inside it, so it never runs while Shutdown looks. In
// the weak-memory mode Shutdown may still read the extra worker's inPoll
// as set after that poll ended (a relaxed flag, and no happens-before
// from the poll's end to the look), so there the extra worker may be named
// as well, if it polled the queued task.
//
// Found by the whole-runtime scenario (explore/scenarios:
// stranding/shutdown) at 3 preemptions: Shutdown named an extra worker
// that had not run its first load of closed, its state searching, as a
// poll still running, for as long as the runtime had run.
func TestExploreStillRunningPair(t *testing.T) {
	// The reduced search: exhaustive at 3 in 2,260 schedules (the plain
	// search: 97,493).
	explore.Check(t, "shutdown/pair-still-running", explore.Options{Reduce: true, Preemptions: 3, MaxSchedules: 1_000_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Second})
		w := rt.workers[0]
		var started, release explore.Event
		blocked := rt.newTask(Func(func() {
			started.Set()
			release.Wait()
		}))
		ranQueued := 0
		rt.spawned.Add(1) // the blocked task, counted as Spawn counts it
		worker := explore.Go("worker", func() {
			w.setState(workerRunning) // as run does: in a tick, from here on
			w.execute(&blocked.t)
			w.exit()
		})
		started.Wait()
		mon := explore.Go("monitor", func() {
			if !rt.extras.start() {
				explore.Failf("the monitor could not start an extra worker")
			}
			rt.exited() // its sweep at shutdown is not this scenario's (ShutdownPair's is)
		})
		queued, err := rt.spawnRemote(Func(func() { ranQueued++ }))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		ctx, cancel := explore.WithCancel(context.Background())
		cancel()
		err = rt.Shutdown(ctx)
		var sr *StillRunningError
		if !errors.As(err, &sr) || !errors.Is(err, context.Canceled) || len(sr.Polls) == 0 || sr.Polls[0].Worker != 0 || sr.Polls[0].Extra {
			explore.Failf("Shutdown with worker 0's poll blocked = %v, want a StillRunningError naming that poll alone, wrapping context.Canceled", err)
		}
		// In the weak-memory mode the extra worker may be named too,
		// after its poll of the queued task has ended: inPoll is
		// relaxed (a poll that has just begun or ended may be named or
		// not, as stillRunning says), and nothing orders the end of
		// that poll before Shutdown's look, which stops waiting at once
		// on the cancelled context. Never a worker that polled nothing:
		// that is checked below, once the queued task's run is known.
		extraNamed := len(sr.Polls) == 2 && sr.Polls[1].Worker == 1 && sr.Polls[1].Extra && explore.WeakMode()
		if len(sr.Polls) > 1 && !extraNamed {
			explore.Failf("Shutdown with worker 0's poll blocked = %v, want a StillRunningError naming that poll alone, wrapping context.Canceled", err)
		}
		release.Set()
		if err := rt.Shutdown(context.Background()); err != nil {
			explore.Failf("Shutdown after the poll returned = %v", err)
		}
		worker.Join()
		mon.Join()
		switch err := queued.Wait(context.Background()); {
		case err == nil && ranQueued == 1, errors.Is(err, ErrCancelled) && ranQueued == 0:
		default:
			explore.Failf("Wait of the queued task = %v after %d run(s), want nil and one or ErrCancelled and none", err, ranQueued)
		}
		if extraNamed && ranQueued != 1 {
			explore.Failf("Shutdown named the extra worker's poll, and the extra worker polled nothing")
		}
	})
}
