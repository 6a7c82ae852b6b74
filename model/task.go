package model

import "fmt"

// TaskStatus is a state of the task state machine (impl/sched task.go).
type TaskStatus uint8

const (
	TaskIdle      TaskStatus = iota // not queued, waiting for a wake
	TaskScheduled                   // in exactly one queue
	TaskRunning                     // being polled
	TaskNotified                    // being polled, and woken during the poll
	TaskDone                        // finished (Ready or panicked)
	TaskCancelled                   // cancelled by shutdown
)

var taskStatusNames = [...]string{"idle", "scheduled", "running", "notified", "done", "cancelled"}

func (s TaskStatus) String() string {
	if int(s) < len(taskStatusNames) {
		return taskStatusNames[s]
	}
	return fmt.Sprintf("TaskStatus(%d)", uint8(s))
}

// Final reports whether no transition leaves s.
func (s TaskStatus) Final() bool { return s == TaskDone || s == TaskCancelled }

// TaskPollResult is what a poll ended with, as the state machine sees it.
type TaskPollResult uint8

const (
	TaskPollPending TaskPollResult = iota // returned Pending, no Yield
	TaskPollYield                         // returned Pending through Yield
	TaskPollReady                         // returned Ready, or panicked
)

// TaskWake is a wake: it returns whether the caller must enqueue the task
// (it went idle -> scheduled) and the next state. Scheduled and notified
// absorb the wake, running becomes notified, final states ignore it.
func TaskWake(s TaskStatus) (enqueue bool, next TaskStatus) {
	switch s {
	case TaskIdle:
		return true, TaskScheduled
	case TaskRunning:
		return false, TaskNotified
	}
	return false, s
}

// TaskStart is a worker taking the task out of a queue to poll it. Only a
// scheduled task may start; ok = false is a broken invariant (a task in
// two queues, or polled twice at once).
func TaskStart(s TaskStatus) (ok bool, next TaskStatus) {
	if s != TaskScheduled {
		return false, s
	}
	return true, TaskRunning
}

// TaskFinish is the end of a poll. It returns whether the worker must put
// the task back in a queue (a Yield, or a wake during the poll: the task
// runs exactly once more) and the next state. ok = false if the task was
// not being polled.
func TaskFinish(s TaskStatus, r TaskPollResult) (ok, requeue bool, next TaskStatus) {
	if s != TaskRunning && s != TaskNotified {
		return false, false, s
	}
	switch {
	case r == TaskPollReady:
		return true, false, TaskDone
	case r == TaskPollYield || s == TaskNotified:
		return true, true, TaskScheduled
	}
	return true, false, TaskIdle
}

// TaskCancel is shutdown cancelling a task that is not being polled. It
// returns whether the task became cancelled (false: already final, or
// being polled, which shutdown never cancels).
func TaskCancel(s TaskStatus) (cancelled bool, next TaskStatus) {
	switch s {
	case TaskIdle, TaskScheduled:
		return true, TaskCancelled
	}
	return false, s
}
