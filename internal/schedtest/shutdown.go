package schedtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// checkShutdownCancels builds every kind of unfinished task, then shuts
// down:
//   - tasks waiting for a wake (polled once, Pending, never woken),
//   - a task waiting for a one-hour Sleep,
//   - one blocker per worker, each holding its worker inside a poll,
//   - tasks queued behind the blockers (never polled).
//
// While the blockers hold their workers Shutdown cannot finish, so a
// Shutdown with a short context returns its error. Once released, a blocker
// that returns Ready completes and one that returns Pending is cancelled;
// every other task is cancelled without another poll. With the monitor's
// help on (e.helped), a queued task may instead have run, exactly once, on a
// worker the monitor started while the blockers held theirs: the queue's
// fate is then "cancelled unpolled or run once", and the counts add up.
func checkShutdownCancels(e *env, blockerReady bool) {
	const waiting, queued = 20, 100
	waitPolls := make(counters, waiting)
	var waitingPolled atomic.Int32
	hWaiting := make([]Handle, waiting)
	for i := range waiting {
		hWaiting[i] = e.spawn(func(Ctx) Poll {
			if waitPolls[i].Add(1) == 1 {
				waitingPolled.Add(1)
			}
			return Pending
		})
	}
	var sleeperPolls atomic.Int32
	hSleeper := e.spawn(func(cx Ctx) Poll {
		sleeperPolls.Add(1)
		if err := cx.Sleep(time.Hour); err != nil {
			e.t.Errorf("Sleep: %v", err)
		}
		return Pending
	})
	e.until(func() bool { return waitingPolled.Load() == waiting && sleeperPolls.Load() == 1 },
		"every waiting task has been polled once")

	// One blocker at a time, so each lands on a worker of its own.
	entered := make(chan struct{})
	release := make(chan struct{})
	hBlockers := make([]Handle, e.workers)
	for i := range e.workers {
		hBlockers[i] = e.spawn(func(Ctx) Poll {
			entered <- struct{}{}
			<-release
			if blockerReady {
				return Ready
			}
			return Pending
		})
		recv(e, entered, fmt.Sprintf("blocker %d to start", i))
	}

	queuedPolls := make(counters, queued)
	hQueued := make([]Handle, queued)
	for i := range queued {
		hQueued[i] = e.spawn(func(Ctx) Poll { queuedPolls[i].Add(1); return Ready })
	}

	shutdownErr := make(chan error, 1)
	go func() { shutdownErr <- e.rt.Shutdown(e.ctx) }()
	// Shutdown has begun once spawning fails; the probes that got in before
	// that are queued tasks like the others.
	var probes []Handle
	var probePolls []*atomic.Int32
	for {
		polls := new(atomic.Int32)
		h, err := e.rt.Spawn(e.guard(func(Ctx) Poll { polls.Add(1); return Ready }))
		if errors.Is(err, e.impl.ErrShutdown) {
			break
		}
		if err != nil {
			e.t.Fatalf("Spawn during Shutdown: %v", err)
		}
		probes = append(probes, h)
		probePolls = append(probePolls, polls)
		if e.ctx.Err() != nil {
			e.hang("waiting for Shutdown to refuse spawns")
		}
		time.Sleep(100 * time.Microsecond)
	}

	short, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	if err := e.rt.Shutdown(short); !errors.Is(err, context.DeadlineExceeded) {
		e.t.Errorf("Shutdown while polls are blocked = %v, want context.DeadlineExceeded", err)
	}
	cancel()

	close(release)
	if err := recv(e, shutdownErr, "Shutdown after releasing the blockers"); err != nil {
		e.hang("Shutdown = %v", err)
	}
	e.shutdown = true
	e.checkAccounting()

	expect := func(h Handle, what string, want error) {
		e.t.Helper()
		if err := e.wait(h, what); !errors.Is(err, want) || (want == nil && err != nil) {
			e.t.Errorf("%s: Wait = %v, want %v", what, err, want)
		}
	}
	for i, h := range hWaiting {
		expect(h, fmt.Sprintf("waiting task %d", i), e.impl.ErrCancelled)
	}
	expect(hSleeper, "sleeping task", e.impl.ErrCancelled)
	wantBlocker := e.impl.ErrCancelled
	if blockerReady {
		wantBlocker = nil
	}
	for i, h := range hBlockers {
		expect(h, fmt.Sprintf("blocker %d", i), wantBlocker)
	}
	ran := 0
	for i, h := range hQueued {
		if e.cancelledOrRanOnce(h, fmt.Sprintf("queued task %d", i), queuedPolls[i].Load) {
			ran++
		}
	}
	for i, h := range probes {
		if e.cancelledOrRanOnce(h, fmt.Sprintf("probe %d", i), probePolls[i].Load) {
			ran++
		}
	}
	if ran > 0 {
		e.t.Logf("%d of %d queued tasks ran on a worker the monitor woke or started before Shutdown began", ran, queued+len(probes))
	}
	waitPolls.check(e.t, "polls of waiting tasks", 1)
	if n := sleeperPolls.Load(); n != 1 {
		e.t.Errorf("sleeping task polled %d times, want 1", n)
	}

	m := e.rt.Metrics()
	wantCancelled := uint64(waiting + 1 + queued + len(probes) - ran)
	wantCompleted := uint64(ran)
	if blockerReady {
		wantCompleted += uint64(e.workers)
	} else {
		wantCancelled += uint64(e.workers)
	}
	if m.Cancelled != wantCancelled || m.Completed != wantCompleted {
		e.t.Errorf("Metrics: Cancelled %d Completed %d, want %d %d\n%s",
			m.Cancelled, m.Completed, wantCancelled, wantCompleted, m.Dump)
	}
}

// checkShutdownConcurrent shuts a busy runtime down from eight goroutines at
// once, then once more: every call returns nil, and afterwards every handle
// answers at once (nil for tasks that finished, ErrCancelled for the rest).
func checkShutdownConcurrent(e *env) {
	const each = 50
	var hs []Handle
	for range each {
		hs = append(hs,
			e.spawn(func(cx Ctx) Poll { return cx.Yield() }), // runs until cancelled
			e.spawn(func(Ctx) Poll { return Pending }),       // waits for a wake that never comes
			e.spawn(func(cx Ctx) Poll {
				if err := cx.Sleep(time.Hour); err != nil {
					e.t.Errorf("Sleep: %v", err)
				}
				return Pending
			}),
			e.spawn(func(cx Ctx) Poll { // spawns as long as it is allowed to
				if _, err := cx.Spawn(e.guard(func(Ctx) Poll { return Ready })); err != nil {
					if !errors.Is(err, e.impl.ErrShutdown) {
						e.t.Errorf("Context.Spawn during Shutdown: %v", err)
					}
					return Ready
				}
				return cx.Yield()
			}),
			e.spawnFunc(func() {}),
		)
	}
	startLine := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			<-startLine
			if err := e.rt.Shutdown(e.ctx); err != nil {
				e.t.Errorf("concurrent Shutdown = %v", err)
			}
		})
	}
	close(startLine)
	wg.Wait()
	if e.t.Failed() {
		e.hang("concurrent Shutdown failed")
	}
	if err := e.rt.Shutdown(e.ctx); err != nil {
		e.t.Errorf("Shutdown again = %v", err)
	}
	e.shutdown = true
	e.checkAccounting()
	for i, h := range hs {
		err := e.wait(h, fmt.Sprintf("task %d", i))
		if err != nil && !errors.Is(err, e.impl.ErrCancelled) {
			e.t.Errorf("task %d after Shutdown: Wait = %v, want nil or ErrCancelled", i, err)
		}
		if i%5 < 3 && !errors.Is(err, e.impl.ErrCancelled) {
			e.t.Errorf("never-ending task %d after Shutdown: Wait = %v, want ErrCancelled", i, err)
		}
	}
}

// checkShutdownCancelledIdle: Shutdown with a context already cancelled, on
// a runtime with nothing to run, returns nil: its context bounds the wait
// for polls still running, and there are none (the workers exit without
// running a task). It used to name parked workers as polls still running.
func checkShutdownCancelledIdle(t *testing.T, impl Impl) {
	for round := 0; round < 20; round++ {
		e := start(t, impl, 1+round%3)
		h := e.spawnFunc(func() {})
		e.waitOK(h, "a task before Shutdown")
		// Idle: every worker parked (one still searching after the
		// task is in a tick, and may be named), and no extra worker
		// running (the monitor starts one when a poll looks long, as
		// any may on a loaded machine; it polls, or retires, while
		// the workers park).
		e.until(func() bool {
			m := e.rt.Metrics()
			return m.Parked == e.workers && m.ExtraRunning == 0
		}, "every worker parked and no extra worker running")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := e.rt.Shutdown(ctx); err != nil {
			t.Fatalf("round %d: Shutdown with a cancelled context on an idle runtime: %v\n%s", round, err, e.rt.Metrics().Dump)
		}
		e.shutdown = true
		e.checkAccounting()
	}
}
