package sched

import "time"

// Context is handed to Task.Poll. It is valid only during that poll and only
// on the goroutine running it.
type Context struct {
	rt     *Runtime
	t      *task // the task being polled
	worker int
}

// Waker returns the current task's waker.
func (cx *Context) Waker() Waker { return Waker{cx.t} }

// Yield reschedules the current task at the tail of the queue and returns
// Pending, so a poll can end with `return cx.Yield()`.
func (cx *Context) Yield() Poll {
	cx.rt.wake(cx.t)
	return Pending
}

// Wake wakes w's task. The production scheduler puts the task in this
// worker's LIFO slot; here there is only the one queue, so it is w.Wake().
func (cx *Context) Wake(w Waker) { w.Wake() }

// Sleep wakes the current task after d; the poll should then return
// Pending. d == 0 wakes it at once; d < 0 returns ErrNegativeDuration and
// arranges nothing.
func (cx *Context) Sleep(d time.Duration) error {
	switch {
	case d < 0:
		return ErrNegativeDuration
	case d == 0:
		cx.rt.wake(cx.t)
	default:
		cx.rt.sleep(cx.t, d)
	}
	return nil
}

// Spawn spawns t. There are no per-worker queues here, so it is rt.Spawn.
func (cx *Context) Spawn(t Task) (*JoinHandle, error) { return cx.rt.Spawn(t) }

// Go spawns f as a run-to-completion task with no handle, like Runtime.Go.
func (cx *Context) Go(f func()) error { return cx.rt.Go(f) }

// Worker returns the index of the worker running this poll: 0 to
// Workers-1, then Workers and up for extra workers.
func (cx *Context) Worker() int { return cx.worker }

// Waker wakes one task. It is a small value, safe to copy and to call from
// any goroutine, any number of times, before, during or after a poll. A wake
// after the task finished or after Shutdown does nothing, and so does the
// zero Waker's. What the caller wrote before a Wake is visible to the task's
// next poll that starts after it (here every wake takes the mutex).
type Waker struct{ t *task }

// Wake schedules the task if it is waiting, or marks it to run again if it
// is running; otherwise it does nothing.
func (w Waker) Wake() {
	if w.t != nil {
		w.t.rt.wake(w.t)
	}
}
