//go:build explore

package sched

import (
	"testing"
	"unsafe"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// The task state machine under the explorer (go test -tags explore -run
// TestExplore ./impl/sched): one goroutine plays the worker, taking the
// record from a stand-in queue, polling and ending the poll; others wake
// it. Every transition is the real code's; only the queue is a counter.

// stateMachine is one task record and what the scenario knows about it.
type stateMachine struct {
	tk     *task
	queued int // how many times the record is in the stand-in queue
	// msgs counts the messages the wakers sent, each before its wake,
	// with relaxed atomics: what makes a message visible to the poll
	// the wake causes is the state machine's own orderings (the
	// waker's CAS releases, the worker's CAS acquires), which the
	// weak-memory mode then checks. A poll that misses a message waits
	// for a wake that already came: a deadlock.
	msgs  atomic.Int32
	polls int
}

// messages is what the poll sees of msgs: in the weak-memory mode a
// relaxed load, whose value the model chooses; under sequential
// consistency a peek, which is no scheduling point (the scenario's
// schedules stay those it always had).
func (m *stateMachine) messages() int {
	if sync.WeakMemory() {
		return int(m.msgs.LoadRelaxed())
	}
	return int(m.msgs.Peek())
}

func newStateMachine() *stateMachine {
	return &stateMachine{tk: &task{}, queued: 1} // born scheduled, in a queue
}

// wake sends a message, then wakes the task as a Waker does: enqueue it if
// the transition says so.
func (m *stateMachine) wake() {
	// The message is sent at a scheduling point (the add is one), as a
	// channel send would be: a waker started with explore.Go runs at
	// once up to its first point, and a message sent before it would
	// reach every poll.
	m.msgs.AddRelaxed(1)
	if m.tk.transitionToScheduled() {
		m.enqueue()
		if m.queued > 1 {
			explore.Failf("the task is in the queue twice (state %s)", stateNames[m.tk.state.Peek()])
		}
	}
}

// enqueue and dequeue are the stand-in queue's push and pop. A real run
// queue hands the task over with a release and an acquire (the ring's
// tail, the global queue's lock), so what the pusher did happens before
// what the popper does; in the weak-memory mode they say so, or the
// worker's transition could read a state older than the wake that
// queued the task, which no queue of the runtime allows.
func (m *stateMachine) enqueue() {
	m.queued++
	sync.Released(unsafe.Pointer(&m.queued))
}

func (m *stateMachine) dequeue() {
	m.queued--
	sync.Acquired(unsafe.Pointer(&m.queued))
}

// work is the worker: take the task when it is queued, poll it (it is
// Ready once it has seen want messages; it yields when yield says so),
// end the poll, requeue if told to, until the task is done. A lost wake
// leaves it waiting for a queued task for ever: a deadlock.
func (m *stateMachine) work(want int, yield func(poll int) bool) {
	for {
		explore.Block(func() bool { return m.queued > 0 }, "the task in the queue")
		m.dequeue()
		m.tk.transitionToRunning()
		m.polls++
		if m.messages() >= want {
			m.tk.finish(nil)
			return
		}
		if m.tk.transitionAfterPending(yield(m.polls)) {
			if m.enqueue(); m.queued > 1 {
				explore.Failf("requeued while queued")
			}
		}
	}
}

// Two wakes race the polls: each finds the task idle (and queues it),
// running (notified: one more poll), scheduled or notified (absorbed), or
// done. The task sees both messages and finishes; it is never in the
// queue twice.
func TestExploreTaskTwoWakes(t *testing.T) {
	explore.Check(t, "task/two-wakes", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		m := newStateMachine()
		a, b := explore.Go("waker 1", m.wake), explore.Go("waker 2", m.wake)
		m.work(2, func(int) bool { return false })
		a.Join()
		b.Join()
		if s := m.tk.state.Peek(); s != stateDone || m.queued != 0 {
			explore.Failf("after the last poll: state %s, queued %d", stateNames[s], m.queued)
		}
	})
}

// A task that yields on its first poll while a wake races it: the yield
// requeues it whatever the wake did, and the wake is not lost either.
func TestExploreTaskYieldAndWake(t *testing.T) {
	explore.Check(t, "task/yield-and-wake", explore.Options{Preemptions: 3}, func() {
		m := newStateMachine()
		w := explore.Go("waker", m.wake)
		m.work(1, func(poll int) bool { return poll == 1 })
		w.Join()
		if s := m.tk.state.Peek(); s != stateDone || m.queued != 0 {
			explore.Failf("after the last poll: state %s, queued %d", stateNames[s], m.queued)
		}
	})
}
