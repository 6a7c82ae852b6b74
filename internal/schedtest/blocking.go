package schedtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Polls that block. Go is documented as "like a go statement", so a task
// may block inside its poll on a channel, a lock or a sleep. The contract:
// that holds up its own worker, never another queued task while a worker
// could run it (an implementation may start extra workers to make one
// available). If a task were stranded, the check's blocked poll would wait
// for it until the watchdog, which ends the poll (block) and fails the
// check.

// checkBlockedPollBatchMate: two tasks from outside, the first blocking on
// a channel until the second has run. One worker may take both from the
// global queue at once; the second must still run during the first's poll.
func checkBlockedPollBatchMate(e *env) {
	for round := range 20 {
		ran := make(chan struct{})
		first := e.spawnFunc(func() { block(e, ran, "its batch-mate") })
		second := e.spawnFunc(func() { close(ran) })
		e.waitOK(first, fmt.Sprintf("round %d: the task blocked until its batch-mate ran", round))
		e.waitOK(second, fmt.Sprintf("round %d: the batch-mate", round))
	}
	e.shutdownClean()
}

// checkBlockedPollChild: a task spawns a child from inside its poll (with
// Spawn and with Go) and blocks until the child has run. The child is in
// the blocked worker's own queues; another worker must take it.
func checkBlockedPollChild(e *env) {
	for round := range 20 {
		ran := make(chan struct{})
		h := e.spawn(func(cx Ctx) Poll {
			var err error
			if round%2 == 0 {
				_, err = cx.SpawnFunc(e.counted(func() { close(ran) }))
			} else {
				err = cx.Go(e.counted(func() { close(ran) }))
			}
			if err != nil {
				e.t.Errorf("spawn from inside a poll: %v", err)
				close(ran)
			}
			block(e, ran, "its child")
			return Ready
		})
		e.waitOK(h, fmt.Sprintf("round %d: the task blocked until its child ran", round))
	}
	e.shutdownClean()
}

// checkBlockedPollWake: a task wakes another from inside its poll (the
// production scheduler puts it in the worker's LIFO slot, which only its
// owner takes while the owner is healthy) and then blocks until that one
// has run.
func checkBlockedPollWake(e *env) {
	for round := range 20 {
		ran := make(chan struct{})
		var w Waker
		registered := make(chan struct{})
		other := e.spawn(func(cx Ctx) Poll {
			if w == nil {
				w = cx.Waker()
				close(registered)
				return Pending
			}
			close(ran)
			return Ready
		})
		recv(e, registered, fmt.Sprintf("round %d: the other task to register its waker", round))
		h := e.spawn(func(cx Ctx) Poll {
			cx.Wake(w)
			block(e, ran, "the task it woke")
			return Ready
		})
		e.waitOK(h, fmt.Sprintf("round %d: the task blocked until the task it woke ran", round))
		e.waitOK(other, fmt.Sprintf("round %d: the woken task", round))
	}
	e.shutdownClean()
}

// checkRendezvous: more tasks than workers, each blocking until all have
// arrived, spawned from outside and from inside a poll. They can only
// finish if all of them run at once.
func checkRendezvous(e *env) {
	n := e.workers + 3
	for round := range 4 {
		arrived := make(chan struct{}, n)
		all := make(chan struct{})
		body := func() {
			arrived <- struct{}{}
			block(e, all, "the others at the rendezvous")
		}
		var hs []Handle
		if round%2 == 0 {
			for range n {
				hs = append(hs, e.spawnFunc(body))
			}
		} else {
			hs = append(hs, e.spawn(func(cx Ctx) Poll {
				for range n {
					if err := cx.Go(e.counted(body)); err != nil {
						e.t.Errorf("Go from inside a poll: %v", err)
					}
				}
				return Ready
			}))
		}
		for i := range n {
			recv(e, arrived, fmt.Sprintf("round %d: task %d of %d at the rendezvous", round, i+1, n))
		}
		close(all)
		for _, h := range hs {
			e.waitOK(h, fmt.Sprintf("round %d: rendezvous task", round))
		}
	}
	e.shutdownClean()
}

// checkShutdownWithBlockedPoll, on one worker: Shutdown while a poll is
// blocked for good returns the context's error (an implementation says
// more, wrapped); the tasks queued behind the blocked poll are cancelled
// and their Waits return: one in the global queue (spawned from outside),
// one the poll woke (into its worker's LIFO slot, where the scheduler has
// one) and one the poll spawned (into its ring), which only a sweep of the
// stuck worker's queues can reach. Once the poll returns the runtime
// finishes cleanly. With the monitor's help on, a queued task may have run
// on a worker the monitor started before Shutdown began: then it ran
// exactly once.
func checkShutdownWithBlockedPoll(e *env) {
	// woken hands out its waker at its first poll and completes at its
	// second.
	var wokenPolls atomic.Int32
	wakers := make(chan Waker, 1)
	woken := e.spawn(func(cx Ctx) Poll {
		if wokenPolls.Add(1) == 1 {
			wakers <- cx.Waker()
			return Pending
		}
		return Ready
	})
	w := recv(e, wakers, "the woken task's first poll")
	started, release := make(chan struct{}), make(chan struct{})
	var childRuns atomic.Int32
	var child Handle
	blocked := e.spawn(func(cx Ctx) Poll {
		cx.Wake(w)
		var err error
		if child, err = cx.SpawnFunc(e.counted(func() { childRuns.Add(1) })); err != nil {
			e.t.Errorf("Context.Spawn: %v", err)
		}
		close(started)
		<-release
		return Ready
	})
	recv(e, started, "the blocking task to start")
	var queuedRuns atomic.Int32
	queued := e.spawnFunc(func() { queuedRuns.Add(1) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	err := e.rt.Shutdown(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "still running") {
		e.t.Errorf("Shutdown with a poll blocked for good = %v, want an error wrapping context.DeadlineExceeded that says what is still running", err)
	}
	e.cancelledOrRanOnce(queued, "the task queued behind the blocked poll", queuedRuns.Load)
	e.cancelledOrRanOnce(woken, "the task the blocked poll woke", func() int32 { return wokenPolls.Load() - 1 })
	e.cancelledOrRanOnce(child, "the task the blocked poll spawned", childRuns.Load)
	close(release)
	e.waitOK(blocked, "the blocked task, released")
	e.shutdownClean()
}
