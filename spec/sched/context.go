package sched

import (
	"time"

	"github.com/wsched/wsched/internal/goid"
)

// Context is handed to Task.Poll. It is valid only during that poll and only
// on the goroutine running it: every method but Waker, called after the poll
// returned or from another goroutine, panics saying so. (Here each poll gets
// a Context of its own, and each method checks both under the lock; the
// production scheduler checks the first in every build and the second in a
// build with the race detector.)
type Context struct {
	rt        *Runtime
	t         *task // the task being polled
	worker    int
	goroutine uintptr // the worker goroutine's goid.Handle
	ended     bool    // the poll returned; guarded by rt.mu
}

// Waker returns the current task's waker. It may be called at any time,
// from any goroutine: the waker is the task's, and outlives the poll.
func (cx *Context) Waker() Waker { return Waker{cx.t} }

// check panics, naming op, if cx's poll has returned or the caller is not
// the goroutine running it. The second is a comparison of handles, which
// name a goroutine only while it lives: the poll has not returned, so the
// goroutine running it is alive, and no other has its handle.
func (cx *Context) check(op string) {
	cx.rt.mu.Lock()
	ended := cx.ended
	cx.rt.mu.Unlock()
	if ended {
		panic("sched: Context." + op + " called after its poll returned: a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
	if goid.Handle() != cx.goroutine {
		panic("sched: Context." + op + " called from a goroutine other than the one running its poll: a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
}

// Yield reschedules the current task at the tail of the queue and returns
// Pending, so a poll can end with `return cx.Yield()`.
func (cx *Context) Yield() Poll {
	cx.check("Yield")
	cx.rt.wake(cx.t)
	return Pending
}

// Wake wakes w's task. The production scheduler puts the task in this
// worker's LIFO slot; here there is only the one queue, so it is w.Wake().
func (cx *Context) Wake(w Waker) {
	cx.check("Wake")
	w.Wake()
}

// Sleep sets the current task's timer to wake it after d; the poll should
// then return Pending. A task has one timer: Sleep replaces the deadline of
// an earlier one that has not fired, and a finished task's timer is
// stopped. d == 0 wakes it at once (the timer is left alone); d < 0 returns
// ErrNegativeDuration and arranges nothing; a d whose deadline overflows
// (time.Duration(math.MaxInt64)) sets no timer, and removes the old one.
func (cx *Context) Sleep(d time.Duration) error {
	cx.check("Sleep")
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
func (cx *Context) Spawn(t Task) (*JoinHandle, error) {
	cx.check("Spawn")
	return cx.rt.Spawn(t)
}

// Go spawns f as a run-to-completion task with no handle, like Runtime.Go.
func (cx *Context) Go(f func()) error {
	cx.check("Go")
	return cx.rt.Go(f)
}

// Worker returns the index of the worker running this poll: 0 to
// Workers-1, then Workers and up for extra workers.
func (cx *Context) Worker() int {
	cx.check("Worker")
	return cx.worker
}

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
