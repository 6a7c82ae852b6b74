package sched

import (
	"time"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// Context is handed to Task.Poll. It is valid only during that poll and
// only on the goroutine running it, with one exception: Waker, which
// returns the task's waker wherever and whenever it is called.
//
// Every other method called after the poll returned panics with a
// message that names the mistake (the slip it catches: a goroutine
// started by the poll that keeps cx and calls it later). Called from
// another goroutine while the poll still runs, a method is caught only in
// a build with the race detector on (`go test -race`), where each call
// compares the calling goroutine with the worker's; without it the call
// would race on the worker's owner-only queues, which is why the rule
// exists. From other goroutines, use a Waker and Runtime.Go or
// Runtime.Spawn: they are safe anywhere.
//
// A Context is its task's record seen through another type (one Context
// per task, made with it), so Waker can never return another task's
// waker, and checking "is this poll still under way" is one load of the
// task's state.
type Context task

// context returns t's Context.
func (t *task) context() *Context { return (*Context)(t) }

// task returns the task cx belongs to.
func (cx *Context) task() *task { return (*task)(cx) }

// Waker returns the task's waker. Unlike the other methods, it may be
// called at any time from any goroutine: a Context belongs to one task,
// and a Waker may outlive every poll of it.
func (cx *Context) Waker() Waker { return Waker{t: cx.task()} }

// poller returns the worker running cx's poll, or panics naming op if
// the poll is not under way.
//
// The check is one load of the task's state: a poll is under way while
// the state is running or notified. A Context kept after its poll finds
// idle, scheduled, done or cancelled. (Kept until a later poll of the
// same task, it finds running again; the worker index it then reads was
// written by that poll's worker before the transition the load
// observes, so the read does not race, but the call does: a build with
// the race detector catches it by the goroutine check below.)
func (cx *Context) poller(op string) *worker {
	t := cx.task()
	// Observes that the poll is under way; acquire, pairs with the
	// worker's scheduled -> running CAS, after which worker is final
	// for the poll.
	if s := t.state.LoadAcquire(); s != stateRunning && s != stateNotified {
		panic("sched: Context." + op + " called after its poll returned (the task is " + stateNames[s] +
			"): a Context is valid only during Task.Poll, on the goroutine running it; from other goroutines use a Waker, Runtime.Go or Runtime.Spawn")
	}
	w := t.rt.workerAt(int(t.worker))
	checkPollGoroutine(w, op)
	return w
}

// Worker returns the index of the worker running this poll: 0 to
// Workers-1 for a worker, Workers and up for an extra worker that the
// monitor started while workers were stuck in long polls
// (Config.ExtraWorkers).
func (cx *Context) Worker() int { return cx.poller("Worker").index }

// Yield reschedules the current task at the back of this worker's ring
// (never the LIFO slot) and returns Pending: `return cx.Yield()`.
func (cx *Context) Yield() Poll {
	cx.poller("Yield").pollYielded = true
	return Pending
}

// Wake wakes w's task from inside a poll. If the task was waiting, it goes
// to this worker's LIFO slot (the slot's previous task moves to the back of
// the ring), so it runs next on this worker, with warm caches. A Waker of
// another runtime takes the remote path.
func (cx *Context) Wake(w Waker) {
	me := cx.poller("Wake")
	t := w.t
	if t == nil {
		return
	}
	if t.rt != me.rt {
		w.Wake()
		return
	}
	// Observes shutdown; acquire. See Waker.Wake.
	if t.rt.closed.LoadAcquire() {
		return
	}
	if t.transitionToScheduled() {
		me.pushLIFO(t)
	}
}

// Sleep wakes the current task after d; the task then returns Pending
// (`if err := cx.Sleep(d); err != nil {...}; return Pending`).
//
// A task has one timer: Sleep sets it to fire d from now, replacing a
// deadline an earlier Sleep set that has not fired yet, as
// time.Timer.Reset does. So the timeout pattern, a Sleep at every poll,
// keeps one timer per task, not one per poll; and a finished task's
// timer is removed as it finishes. d == 0 wakes the task now (it runs
// again right after this poll) and leaves its timer alone. A d so large
// that the deadline overflows (time.Duration(math.MaxInt64), Go's "for
// ever") sets no timer: only another wake will run the task.
//
// Timers are fired by whichever worker starts a tick, and by the monitor
// when none does (docs/scheduler.md, "Timers"). Like any wake, the timer
// may find the task already re-run by another wake: tasks must tolerate
// being polled before what they wait for is ready.
func (cx *Context) Sleep(d time.Duration) error {
	w := cx.poller("Sleep")
	if d < 0 {
		return ErrNegativeDuration
	}
	if d == 0 {
		cx.Wake(cx.Waker())
		return nil
	}
	t := cx.task()
	rt := w.rt
	// Observes shutdown; acquire.
	if rt.closed.LoadAcquire() {
		return nil // the task will be cancelled; nothing will wake it
	}
	t.slept = true
	rt.arm(t, d)
	return nil
}

// arm gives t the timer d from now (replacing any it had), and wakes the
// monitor if it sleeps past the new deadline.
func (rt *Runtime) arm(t *task, d time.Duration) {
	now := rt.now()
	if int64(d) > noDeadline-1-now {
		rt.timers.remove(t) // for ever: no deadline, and none left from before
		return
	}
	if rt.timers.set(now+int64(d), t) {
		chaos.Point()
		// The new deadline is earlier than the one the monitor sleeps
		// until (or it sleeps without one): wake it to re-arm.
		rt.mon.parker.Unpark()
	}
}

// Spawn spawns t onto this worker's ring, where idle workers can steal it.
func (cx *Context) Spawn(t Task) (*JoinHandle, error) {
	w := cx.poller("Spawn")
	if isNil(t) {
		return nil, ErrNilTask
	}
	return w.spawnLocal(t)
}

// Go runs f as a task, onto this worker's ring, like a go statement: no
// handle, and the record is recycled once f returned (see Runtime.Go).
func (cx *Context) Go(f func()) error {
	w := cx.poller("Go")
	if f == nil {
		return ErrNilTask
	}
	return w.goLocal(f)
}
