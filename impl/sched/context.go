package sched

import (
	"time"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// Context is handed to Task.Poll. It is valid only during that poll and
// only on the goroutine running it; each worker reuses one Context.
type Context struct {
	w       *worker
	t       *task
	yielded bool
}

// Waker returns the current task's waker.
func (cx *Context) Waker() Waker { return Waker{t: cx.t} }

// Worker returns the index of the worker running this poll: 0 to
// Workers-1 for a worker, Workers and up for an extra worker that the
// monitor started while workers were stuck in long polls
// (Config.ExtraWorkers).
func (cx *Context) Worker() int { return cx.w.index }

// Yield reschedules the current task at the back of this worker's ring
// (never the LIFO slot) and returns Pending: `return cx.Yield()`.
func (cx *Context) Yield() Poll {
	cx.yielded = true
	return Pending
}

// Wake wakes w's task from inside a poll. If the task was waiting, it goes
// to this worker's LIFO slot (the slot's previous task moves to the back of
// the ring), so it runs next on this worker, with warm caches. A Waker of
// another runtime takes the remote path.
func (cx *Context) Wake(w Waker) {
	t := w.t
	if t == nil {
		return
	}
	if t.rt != cx.w.rt {
		w.Wake()
		return
	}
	// Observes shutdown; acquire. See Waker.Wake.
	if t.rt.closed.Load() {
		return
	}
	if t.transitionToScheduled() {
		cx.w.pushLIFO(t)
	}
}

// Sleep wakes the current task after d; the task then returns Pending
// (`if err := cx.Sleep(d); err != nil {...}; return Pending`). d == 0 is
// the same as waking it now: it runs again right after this poll. Timers
// are fired by whichever worker starts a tick, and by the monitor when
// none does (docs/scheduler.md, "Timers"). Like any wake, the timer may
// find the task already re-run by another wake: tasks must tolerate being
// polled before what they wait for is ready.
func (cx *Context) Sleep(d time.Duration) error {
	if d < 0 {
		return ErrNegativeDuration
	}
	if d == 0 {
		cx.Wake(cx.Waker())
		return nil
	}
	rt := cx.w.rt
	// Observes shutdown; acquire.
	if rt.closed.Load() {
		return nil // the task will be cancelled; nothing will wake it
	}
	if rt.timers.add(rt.now()+int64(d), cx.t) {
		chaos.Point()
		// The new deadline is earlier than the one the monitor sleeps
		// until (or it sleeps without one): wake it to re-arm.
		rt.mon.parker.Unpark()
	}
	return nil
}

// Spawn spawns t onto this worker's ring, where idle workers can steal it.
func (cx *Context) Spawn(t Task) (*JoinHandle, error) {
	if isNil(t) {
		return nil, ErrNilTask
	}
	return cx.w.spawnLocal(t)
}

// Go runs f as a task, onto this worker's ring, like a go statement: no
// handle, and the record is recycled once f returned (see Runtime.Go).
func (cx *Context) Go(f func()) error {
	if f == nil {
		return ErrNilTask
	}
	return cx.w.goLocal(f)
}
