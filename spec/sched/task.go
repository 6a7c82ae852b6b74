package sched

import "runtime/debug"

// Poll is what a task's Poll returns.
type Poll uint8

const (
	// Pending: not finished. The task is polled again after its waker is
	// called, or after it called Context.Yield.
	Pending Poll = iota
	// Ready: finished. The task is never polled again.
	Ready
)

// Task is a unit of work driven by repeated polls.
type Task interface{ Poll(cx *Context) Poll }

// TaskFunc adapts a function to the Task interface.
type TaskFunc func(cx *Context) Poll

// Poll calls f(cx).
func (f TaskFunc) Poll(cx *Context) Poll { return f(cx) }

// Func adapts a plain function to the Task interface: it runs to
// completion in its first poll.
type Func func()

// Poll calls f() and reports Ready.
func (f Func) Poll(*Context) Poll { f(); return Ready }

// state is where a task is in its life. Every read and write of a task's
// state happens with Runtime.mu held.
//
//	idle      --wake-->          scheduled   (pushed on the queue)
//	scheduled --worker pops-->   running
//	running   --wake-->          notified
//	running   --Pending-->       idle
//	notified  --Pending-->       scheduled   (pushed on the queue again)
//	running, notified --Ready or panic--> done
//	idle, scheduled --Shutdown-->         cancelled
//	running, notified --Pending after Shutdown began--> cancelled
//
// A wake in any other state (scheduled, notified, done, cancelled) changes
// nothing: the task will run anyway, or never again.
type state uint8

const (
	idle state = iota
	scheduled
	running
	notified
	done
	cancelled
)

var stateNames = [...]string{"idle", "scheduled", "running", "notified", "done", "cancelled"}

func (s state) String() string { return stateNames[s] }

// task is the runtime's record of one spawned Task, shared with its
// JoinHandle and its Wakers.
type task struct {
	rt    *Runtime
	body  Task
	state state // guarded by rt.mu

	// finished is closed when the task reaches done or cancelled; err is
	// written before the close and read only after it.
	finished chan struct{}
	err      error
}

// poll runs one poll of t's body. A panic is recovered and returned as a
// *PanicError; it never reaches the worker.
func (t *task) poll(cx *Context) (res Poll, perr *PanicError) {
	defer func() {
		if v := recover(); v != nil {
			perr = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return t.body.Poll(cx), nil
}

// isNil reports whether t cannot be polled: a nil interface, or a nil
// TaskFunc or Func wrapped in one.
func isNil(t Task) bool {
	switch f := t.(type) {
	case TaskFunc:
		return f == nil
	case Func:
		return f == nil
	}
	return t == nil
}
