//go:build explore

package sched

import "fmt"

// TaskMachine is one task record's state machine alone (task.go), for the
// linearizability clients of explore/scenarios (lin_task_test.go): they
// make its transitions as the workers, wakers, drains and Waits do, and
// check every history against model/task.go's TaskObject. The explore
// build only: everywhere else the transitions are the runtime's own, and
// unexported. Each method is the runtime's code for that transition and
// nothing more.
type TaskMachine struct{ t task }

// NewTaskMachine returns a task as a spawn makes it (scheduled: in a
// queue), or, if idle, as a poll that returned Pending left it.
func NewTaskMachine(idle bool) *TaskMachine {
	m := &TaskMachine{}
	if idle {
		m.t.transitionToRunning()
		m.t.transitionAfterPending(false)
	}
	return m
}

// Wake is a wake (Waker.Wake without the runtime's queues): it reports
// whether the caller must enqueue the task.
func (m *TaskMachine) Wake() (enqueue bool) { return m.t.transitionToScheduled() }

// Start is a worker taking the task from a queue to poll it. The runtime
// panics when the task is not scheduled then; Start returns that panic
// as an error.
func (m *TaskMachine) Start() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	m.t.transitionToRunning()
	return nil
}

// EndPending ends a poll that returned Pending (yielded: through Yield);
// it reports whether the worker must requeue the task.
func (m *TaskMachine) EndPending(yielded bool) (requeue bool) {
	return m.t.transitionAfterPending(yielded)
}

// Finish ends a poll that returned Ready, or panicked.
func (m *TaskMachine) Finish(panicked bool) {
	var p *PanicError
	if panicked {
		p = &PanicError{Value: "the poll panicked"}
	}
	m.t.finish(p)
}

// Cancel is shutdown cancelling the task (a drain, or a Wait after the
// workers exited); it reports whether it did.
func (m *TaskMachine) Cancel() bool { return m.t.cancel() }

// Result is a Wait's read of the outcome: nil, a *PanicError or
// ErrCancelled, and whether the task is final.
func (m *TaskMachine) Result() (err error, final bool) { return m.t.result() }
