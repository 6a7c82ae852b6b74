package sched

import "github.com/wsched/wsched/impl/internal/chaos"

// Waker wakes one task. It is a small value, safe to copy and to call from
// any goroutine, any number of times, before, during or after a poll. Wake
// after the task finished, or after Shutdown, does nothing; the zero Waker's
// Wake does nothing. What the caller wrote before a Wake is visible to the
// task's next poll that starts after it, whether that wake queued the task
// or found it queued (or running) already.
type Waker struct {
	t *task
}

// Wake schedules the task if it is waiting for a wake. Called from outside
// a poll (or on a Waker of another runtime), the task goes to the global
// queue and a parked worker is notified; remote wakes never touch a LIFO
// slot (only a worker's own goroutine does, through Context.Wake).
func (w Waker) Wake() {
	t := w.t
	if t == nil {
		return
	}
	rt := t.rt
	// After Shutdown began a wake does nothing; one admitted before
	// finishes its push before the last worker drains the global queue.
	if !rt.enterRemote() {
		return
	}
	if t.transitionToScheduled() {
		rt.global.Push(t)
		chaos.Point()
		// Notify after publish (the push above happens before the
		// idle-state load inside notify).
		rt.notify()
	}
	rt.exitRemote()
}
