package schedtest

import (
	"sync"
	"sync/atomic"
	"time"
)

// A way to wake the polled task three times while its poll is running.
type wakeDuring func(e *env, cx Ctx)

func wakeSelf(_ *env, cx Ctx) {
	w := cx.Waker()
	for range 3 {
		w.Wake()
	}
}

func wakeSelfCtx(_ *env, cx Ctx) {
	w := cx.Waker()
	for range 3 {
		cx.Wake(w)
	}
}

// wakeFromGoroutine has another goroutine wake the task, and waits for it
// inside the poll.
func wakeFromGoroutine(_ *env, cx Ctx) {
	w := cx.Waker()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			w.Wake()
		}
	}()
	<-done
}

// checkWakeDuringPoll: wakes that arrive while a task is running re-run it
// exactly once after the poll returns Pending. The second poll returns
// Pending without asking for a wake, so a third poll can only be caused by a
// wake counted twice; after a settling pause the check counts, then wakes
// the task one last time.
func checkWakeDuringPoll(e *env, wake wakeDuring) {
	var polls atomic.Int32
	var released atomic.Bool
	second := make(chan Waker, 1)
	h := e.spawn(func(cx Ctx) Poll {
		switch polls.Add(1) {
		case 1:
			wake(e, cx)
			return Pending
		case 2:
			second <- cx.Waker()
			return Pending
		default:
			if released.Load() {
				return Ready
			}
			return Pending
		}
	})
	w := recv(e, second, "the re-run after wakes during the first poll")
	time.Sleep(settle)
	if n := polls.Load(); n != 2 {
		e.t.Errorf("three wakes during poll 1, none after: %d polls, want 2", n)
	}
	released.Store(true)
	w.Wake()
	e.waitOK(h, "the task")
	if n := polls.Load(); n != 3 {
		e.t.Errorf("after the final wake: %d polls, want 3", n)
	}
}

// checkWakeAfterCompletion: wakes of a finished task, from goroutines and
// from another task, change nothing. A task that wakes itself and then
// finishes is not polled again either.
func checkWakeAfterCompletion(e *env) {
	var polls atomic.Int32
	wch := make(chan Waker, 1)
	h := e.spawn(func(cx Ctx) Poll {
		polls.Add(1)
		cx.Waker().Wake() // notified, then Ready: the wake dies with the task
		wch <- cx.Waker()
		return Ready
	})
	w := recv(e, wch, "the task's waker")
	e.waitOK(h, "the task")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 250 {
				w.Wake()
			}
		})
	}
	wg.Wait()
	e.waitOK(e.spawn(func(cx Ctx) Poll {
		for range 10 {
			cx.Wake(w)
		}
		return Ready
	}), "the waking task")
	time.Sleep(settle)
	if n := polls.Load(); n != 1 {
		e.t.Errorf("finished task polled %d times, want 1", n)
	}
	e.shutdownClean()
	if m := e.rt.Metrics(); m.Spawned != 2 || m.Completed != 2 || m.Polls != 2 {
		e.t.Errorf("Metrics: Spawned %d Completed %d Polls %d, want 2 2 2\n%s",
			m.Spawned, m.Completed, m.Polls, m.Dump)
	}
}

// checkConcurrentWakes: one task waits for K events. Each event is
// recorded before its wake is sent, from goroutines outside the runtime and
// from other tasks (through Context.Wake), all at once and while the task
// is being polled. Wakes coalesce, so the exact poll count is up to the
// scheduler, but the task must reach Ready (no wake lost), must never be
// polled concurrently (the guard), and must not be polled more often than
// once plus once per wake.
func checkConcurrentWakes(e *env) {
	const goroutines, perGoroutine = 8, 250
	const pingers, perPinger = 8, 100
	const k = goroutines*perGoroutine + pingers*perPinger
	var events, polls atomic.Int32
	wch := make(chan Waker, 1)
	h := e.spawn(func(cx Ctx) Poll {
		if polls.Add(1) == 1 {
			wch <- cx.Waker()
		}
		if events.Load() == k {
			return Ready
		}
		return Pending
	})
	w := recv(e, wch, "the waiting task's waker")

	startLine := make(chan struct{})
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			<-startLine
			for range perGoroutine {
				events.Add(1)
				w.Wake()
			}
		})
	}
	pingerHs := make([]Handle, pingers)
	for i := range pingers {
		n := 0
		pingerHs[i] = e.spawn(func(cx Ctx) Poll {
			if n == 0 {
				<-startLine
			}
			n++
			events.Add(1)
			cx.Wake(w)
			if n == perPinger {
				return Ready
			}
			return cx.Yield()
		})
	}
	close(startLine)
	wg.Wait()
	for _, ph := range pingerHs {
		e.waitOK(ph, "a pinger")
	}
	e.waitOK(h, "the task waiting for all events")
	if n := polls.Load(); n < 1 || n > k+1 {
		e.t.Errorf("%d polls for %d wakes, want 1..%d", n, k, k+1)
	}
}
