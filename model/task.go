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

// The task state machine as one object, for checks of concurrent
// histories (the linearizability clients of explore/scenarios,
// lin_task_test.go). Each call is one of the transitions above, made by
// whom the runtime lets make it: a wake by anybody, start and the end of a
// poll by the worker that took the task from a queue, cancel by a drain or
// a Wait after the workers exited, a result read by a Wait.
//
// Besides the status it keeps what a wake promises (sched.Waker): what
// the waker wrote before the wake is visible to the next poll that starts
// after it. A waker's write is one message; Sent counts the wakes so far,
// and a poll that starts must see at least that many messages (it may see
// more: a waker writes before its wake, so a message may arrive before its
// wake is made).

// TaskOpKind names a call on the task object.
type TaskOpKind uint8

const (
	TaskOpWake       TaskOpKind = iota + 1 // a wake: Enqueue
	TaskOpStart                            // a worker starts a poll: Seen messages
	TaskOpEndPending                       // the poll ends Pending (Yield if yielded): Requeue
	TaskOpFinish                           // the poll ends Ready, or panicked (Panicked)
	TaskOpCancel                           // shutdown cancels: Cancelled
	TaskOpResult                           // a Wait reads the outcome: Outcome
)

// TaskOutcome is what a result read returns.
type TaskOutcome uint8

const (
	TaskNotFinal     TaskOutcome = iota // neither done nor cancelled
	TaskOutReady                        // done, Ready
	TaskOutPanicked                     // done, panicked
	TaskOutCancelled                    // cancelled
)

var taskOutcomeNames = [...]string{"not final", "ready", "panicked", "cancelled"}

func (o TaskOutcome) String() string {
	if int(o) < len(taskOutcomeNames) {
		return taskOutcomeNames[o]
	}
	return fmt.Sprintf("TaskOutcome(%d)", uint8(o))
}

// TaskOp is one call with its inputs (Yielded, Panicked) and its result
// (the rest; each kind sets only its own).
type TaskOp struct {
	Kind     TaskOpKind
	Yielded  bool // EndPending: the poll yielded
	Panicked bool // Finish: the poll panicked

	Enqueue   bool        // Wake: the caller must enqueue the task
	Seen      int         // Start: the messages the poll saw
	Requeue   bool        // EndPending: the worker must requeue the task
	Cancelled bool        // Cancel: it cancelled the task
	Outcome   TaskOutcome // Result
}

func (op TaskOp) String() string {
	switch op.Kind {
	case TaskOpWake:
		return fmt.Sprintf("Wake() -> enqueue %v", op.Enqueue)
	case TaskOpStart:
		return fmt.Sprintf("Start() -> sees %d messages", op.Seen)
	case TaskOpEndPending:
		return fmt.Sprintf("EndPending(yielded %v) -> requeue %v", op.Yielded, op.Requeue)
	case TaskOpFinish:
		return fmt.Sprintf("Finish(panicked %v)", op.Panicked)
	case TaskOpCancel:
		return fmt.Sprintf("Cancel() -> %v", op.Cancelled)
	case TaskOpResult:
		return fmt.Sprintf("Result() -> %v", op.Outcome)
	}
	return fmt.Sprintf("TaskOp(%d)", uint8(op.Kind))
}

// TaskObject is the object's state: the status, how the poll that
// finished it ended, and the wakes so far. A plain value.
type TaskObject struct {
	Status   TaskStatus
	Panicked bool // done by a poll that panicked
	Sent     int  // wakes so far: a poll that starts sees at least this many messages
}

func (o TaskObject) String() string {
	return fmt.Sprintf("%v panicked=%v sent=%d", o.Status, o.Panicked, o.Sent)
}

// Step reports whether op, with its result, is allowed in o, and the
// state after it. A start, an end of a poll or a finish that the status
// does not allow is refused: its caller broke the protocol, or the
// machine did. A refused call leaves o as it was.
func (o TaskObject) Step(op TaskOp) (bool, TaskObject) {
	if ok, next := o.step(op); ok {
		return true, next
	}
	return false, o
}

func (o TaskObject) step(op TaskOp) (bool, TaskObject) {
	next := o
	switch op.Kind {
	case TaskOpWake:
		var enqueue bool
		enqueue, next.Status = TaskWake(o.Status)
		next.Sent++
		return op.Enqueue == enqueue, next
	case TaskOpStart:
		var ok bool
		ok, next.Status = TaskStart(o.Status)
		return ok && op.Seen >= o.Sent, next
	case TaskOpEndPending:
		r := TaskPollPending
		if op.Yielded {
			r = TaskPollYield
		}
		ok, requeue, status := TaskFinish(o.Status, r)
		next.Status = status
		return ok && op.Requeue == requeue, next
	case TaskOpFinish:
		ok, _, status := TaskFinish(o.Status, TaskPollReady)
		next.Status, next.Panicked = status, op.Panicked
		return ok, next
	case TaskOpCancel:
		var cancelled bool
		cancelled, next.Status = TaskCancel(o.Status)
		return op.Cancelled == cancelled, next
	case TaskOpResult:
		want := TaskNotFinal
		switch {
		case o.Status == TaskCancelled:
			want = TaskOutCancelled
		case o.Status == TaskDone && o.Panicked:
			want = TaskOutPanicked
		case o.Status == TaskDone:
			want = TaskOutReady
		}
		return op.Outcome == want, o
	}
	return false, o
}
