package sched

import (
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"

	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/impl/internal/raceedge"
)

// Poll is what Task.Poll returns.
type Poll uint8

const (
	Pending Poll = iota // not finished; polled again after its waker is called (or after Yield)
	Ready               // finished
)

// Task is a unit of work the runtime polls until it returns Ready.
type Task interface{ Poll(cx *Context) Poll }

// TaskFunc adapts a function to Task.
type TaskFunc func(cx *Context) Poll

// Poll calls f(cx).
func (f TaskFunc) Poll(cx *Context) Poll { return f(cx) }

// The task state machine, one atomic word per task (model/task.go is its
// sequential model):
//
//	from        event                      to          side effect
//	idle        wake                       scheduled   caller enqueues
//	scheduled   worker takes it            running     poll
//	running     wake                       notified
//	running     poll returns Pending       idle
//	running     Yield                      scheduled   back of the ring
//	notified    poll returns Pending/Yield scheduled   back of the ring
//	running,    poll returns Ready, panics done        Wait returns
//	 notified
//	idle,       shutdown                   cancelled   Wait returns ErrCancelled
//	 scheduled
//
// A wake while scheduled or notified is absorbed (but still publishes the
// waker's writes to the poll that follows: see transitionToScheduled); a
// wake while done or cancelled does nothing. Only the idle -> scheduled transition enqueues, and only the
// worker that moved scheduled -> running polls, so a task is in at most one
// queue and never polled by two workers at once.
//
// scheduled is the zero value: a task is born scheduled (a spawn puts it
// straight into a queue), so making the record needs no store to state.
//
// A Go task (detached) takes none of these transitions: nothing can wake
// it or wait for it, so its record stays scheduled for good (recycle.go).
const (
	stateScheduled uint32 = iota // in exactly one queue (or a LIFO slot, or a worker's buffer)
	stateIdle                    // waiting for a wake, in no queue
	stateRunning                 // being polled
	stateNotified                // being polled and woken meanwhile: re-run once after the poll
	stateDone                    // returned Ready or panicked
	stateCancelled               // cancelled by shutdown
)

var stateNames = [...]string{"scheduled", "idle", "running", "notified", "done", "cancelled"}

// task is the runtime's record of one spawned Task, together with its join
// state. It is embedded in the JoinHandle so that a spawn allocates once.
type task struct {
	// state is the state machine above.
	//
	// The record is 48 bytes, one size class, and every word but state is
	// a pointer or an interface: the fields are chosen to keep it there.
	state atomic.Uint32
	// detached marks a task spawned by Go: it has no JoinHandle, and
	// its record is recycled once a worker took it (recycle.go).
	// Written before the queue push that publishes the record; fits in
	// state's padding.
	detached bool
	// slept is set by the first Context.Sleep of the task (owner-only:
	// only its polling worker writes or reads it): finish then removes
	// the task's timer. In state's padding.
	slept bool
	// worker is the index of the worker polling the task, written before
	// each transition to running: the task's Context finds its worker by
	// it (context.go). In state's padding.
	worker uint16
	rt     *Runtime
	poll   Task // the task; a func is a Func
	// panicked is the panic of a finished task, nil if it returned Ready,
	// goexitMark if its poll called runtime.Goexit. Written by the
	// polling worker before the state becomes done; read only after a
	// load that saw done.
	panicked *PanicError
	// wait is the join channel, made only when a Wait has to block.
	wait atomic.Pointer[waitChan]
}

// Func adapts a plain function to Task: it runs to completion on its
// first poll. Spawn(Func(f)) runs f with a JoinHandle; Go(f) runs it
// without one. A func value converts to Task without allocating.
type Func func()

// Poll runs f and reports Ready.
func (f Func) Poll(*Context) Poll {
	f()
	return Ready
}

// transitionToScheduled is a wake. It reports whether the caller must put
// the task in a queue (it was idle).
func (t *task) transitionToScheduled() bool {
	// Race build: the waker's writes before the wake happen before the
	// poll it causes (or the next one, when the task is running), for a
	// detector that does not see the state's atomics (raceedge).
	raceedge.ReleaseMerge(unsafe.Pointer(t))
	for {
		// Observes the state; acquire, pairs with the release CAS of
		// whoever set it.
		s := t.state.LoadAcquire()
		chaos.Point()
		switch s {
		case stateIdle:
			// Publishes "in a queue, do not enqueue again"; acq_rel.
			// The enqueue that follows publishes the task itself.
			if t.state.CompareAndSwapAcqRelRelaxed(stateIdle, stateScheduled) { // a failure loops
				return true
			}
		case stateRunning:
			// Tells the polling worker to run the task once more;
			// acq_rel: the waker's writes before Wake are visible to
			// the re-run poll (the worker's CAS/swap acquires).
			if t.state.CompareAndSwapAcqRelRelaxed(stateRunning, stateNotified) { // a failure loops
				return false
			}
		case stateScheduled, stateNotified:
			// Absorbed: the task runs (again) anyway. Still a CAS,
			// not just the load above, because a wake promises that
			// the poll after it sees what the waker wrote before it:
			// a load publishes nothing, and the poll could start
			// without the waker's writes and end Pending, the wake
			// lost. Rewriting the same state is a release the
			// worker's next CAS on the state acquires (scheduled ->
			// running, or its running -> idle that fails on
			// notified); acq_rel. Fails only if the state moved on
			// meanwhile: look again.
			if t.state.CompareAndSwapAcqRelRelaxed(s, s) {
				return false
			}
		default:
			// done or cancelled: nothing to do.
			return false
		}
	}
}

// transitionToRunning is a worker taking the task from a queue. A task
// reaching a worker in any state but scheduled means it was in two queues
// or polled twice: the scheduler is broken, and we stop rather than run a
// task concurrently with itself.
func (t *task) transitionToRunning() {
	chaos.Point()
	// acq_rel: acquires the wakes that scheduled it (and what the waker
	// wrote before waking); publishes "running" to later wakes.
	if !t.state.CompareAndSwapAcqRelRelaxed(stateScheduled, stateRunning) {
		panic("sched: internal error: task polled in state " + stateNames[t.state.LoadRelaxed()]) // diagnostics
	}
}

// transitionAfterPending ends a poll that returned Pending. It reports
// whether the worker must put the task back in a queue: after a Yield, or
// after a wake that arrived during the poll (the task then runs exactly
// once more).
func (t *task) transitionAfterPending(yielded bool) (requeue bool) {
	if yielded {
		// From running or notified: either way one more run. A swap,
		// not a store: when a wake moved running to notified during
		// the poll, the next poll must see what the waker wrote before
		// its wake, and only reading the waker's CAS (acquire) orders
		// that; a release store would overwrite notified unread, the
		// next poll could miss the message and return Pending, and the
		// wake would be lost (the explorer's weak-memory mode:
		// task/yield-and-wake). Release: the poll's writes are visible
		// to the next poll. (In Go a store is an exchange anyway.)
		t.state.SwapAcqRel(stateScheduled)
		return true
	}
	chaos.Point()
	// Publishes "idle, the next wake enqueues"; acq_rel. Fails only if a
	// wake moved running -> notified meanwhile. Relaxed on failure: the
	// swap below is what acquires the wakes.
	if t.state.CompareAndSwapAcqRelRelaxed(stateRunning, stateIdle) {
		return false
	}
	// notified -> scheduled. Only the polling worker leaves notified,
	// but a swap, not a store: the poll that runs again must see what
	// every waker wrote before its wake, and each wake absorbed while
	// we polled released with its CAS (running -> notified, or notified
	// rewritten). The swap reads the latest of them, so it acquires all
	// (the later ones continue the first one's release sequence). A
	// failed CAS is only a load and may read an older one, and a store
	// reads nothing: with either, a second wake's message could be
	// missed and its wake lost (the explorer's weak-memory mode:
	// task/two-wakes). Release as above.
	t.state.SwapAcqRel(stateScheduled)
	return true
}

// goexitMark is the panicked value of a task whose poll called
// runtime.Goexit (a sentinel, so the task record stays the size it was).
var goexitMark = &PanicError{Value: ErrGoexit}

// finish ends a poll that returned Ready (p == nil), panicked, or called
// runtime.Goexit (p == goexitMark).
func (t *task) finish(p *PanicError) {
	t.panicked = p
	if t.slept {
		t.rt.timers.remove(t) // a finished task keeps no timer (Context.Sleep)
	}
	// The task is never polled again: drop it, so that a handle kept
	// alive (and the slab around it, see slab.go) does not keep the
	// task's closure alive too.
	t.poll = nil
	// Publishes the result and makes later wakes no-ops. From running or
	// notified, whichever it is: a plain store, neither a CAS nor a swap,
	// since nothing depends on which (a wake racing it either moved
	// running to notified before, which done overwrites, or finds done and
	// does nothing). Seq_cst, not release: it is the store half of the
	// Dekker pair with Wait (join.go, signal): we store the state, then
	// load wait; Wait publishes its channel, then loads the state. With
	// release here and acquire in result, both loads may read the older
	// values and Wait sleeps for ever (the explorer's weak-memory mode
	// found it: protocol/extra-retire-local, schedule 7).
	t.state.StoreSeqCst(stateDone)
	t.signal()
}

// cancel moves a task that is not being polled to cancelled (shutdown). It
// reports whether it did; false if the task is final already.
func (t *task) cancel() bool {
	for {
		// Observes; acquire.
		s := t.state.LoadAcquire()
		if s != stateIdle && s != stateScheduled {
			return false
		}
		chaos.Point()
		// Exactly one canceller (drain or Wait) wins. Seq_cst: the final
		// state's store half of the Dekker pair with Wait, as in finish
		// (acq_rel here, the explorer's weak-memory mode finds Wait
		// asleep for ever: protocol/shutdown-sweep, schedule 3).
		if t.state.CompareAndSwapSeqCstRelaxed(s, stateCancelled) { // a failure loops
			t.poll = nil // never polled now; see finish
			t.signal()
			return true
		}
	}
}

// result returns the task's outcome if it is final.
func (t *task) result() (err error, final bool) {
	// Seq_cst: Wait's load half of the Dekker pair with finish (its
	// channel published, then the state read; see signal). Acquire would
	// do for reading what finish wrote, not for the pair.
	switch t.state.LoadSeqCst() {
	case stateDone:
		// Race build: the task's polls happen before this (raceedge).
		raceedge.Acquire(unsafe.Pointer(t))
		if t.panicked == goexitMark {
			return ErrGoexit, true
		}
		if t.panicked != nil {
			return t.panicked, true
		}
		return nil, true
	case stateCancelled:
		raceedge.Acquire(unsafe.Pointer(t)) // as for done
		return ErrCancelled, true
	}
	return nil, false
}
