package model

import "testing"

// TestTaskObjectSteps walks TaskObject through sequential histories and
// checks each call's verdict: the status transitions are TaskWake,
// TaskStart, TaskFinish and TaskCancel's, a Start must see every wake
// before it, and a result read reports the outcome.
func TestTaskObjectSteps(t *testing.T) {
	wake := func(enq bool) TaskOp { return TaskOp{Kind: TaskOpWake, Enqueue: enq} }
	start := func(seen int) TaskOp { return TaskOp{Kind: TaskOpStart, Seen: seen} }
	pending := func(yielded, requeue bool) TaskOp {
		return TaskOp{Kind: TaskOpEndPending, Yielded: yielded, Requeue: requeue}
	}
	result := func(o TaskOutcome) TaskOp { return TaskOp{Kind: TaskOpResult, Outcome: o} }
	cases := []struct {
		name string
		from TaskStatus
		ops  []TaskOp
		ok   []bool // each call's verdict; the walk stops at the first false
	}{
		{"poll, wake during it, run once more", TaskScheduled,
			[]TaskOp{start(0), wake(false), pending(false, true), start(1), pending(false, false), result(TaskNotFinal)},
			[]bool{true, true, true, true, true, true}},
		{"a requeue is not reported", TaskScheduled,
			[]TaskOp{start(0), wake(false), pending(false, false)}, []bool{true, true, false}},
		{"the poll after a wake misses its message", TaskIdle,
			[]TaskOp{wake(true), start(0)}, []bool{true, false}},
		{"a message may come before its wake", TaskIdle,
			[]TaskOp{wake(true), start(2)}, []bool{true, true}},
		{"two wakes of an idle task both enqueue", TaskIdle,
			[]TaskOp{wake(true), wake(true)}, []bool{true, false}},
		{"a yield requeues", TaskScheduled,
			[]TaskOp{start(0), pending(true, true), start(0), {Kind: TaskOpFinish, Panicked: true}, result(TaskOutPanicked), wake(false)},
			[]bool{true, true, true, true, true, true}},
		{"a panicked task read as ready", TaskScheduled,
			[]TaskOp{start(0), {Kind: TaskOpFinish, Panicked: true}, result(TaskOutReady)}, []bool{true, true, false}},
		{"cancel, then a wake finds it final", TaskIdle,
			[]TaskOp{{Kind: TaskOpCancel, Cancelled: true}, wake(false), {Kind: TaskOpCancel}, result(TaskOutCancelled)},
			[]bool{true, true, true, true}},
		{"a cancelled task woken into a queue", TaskIdle,
			[]TaskOp{{Kind: TaskOpCancel, Cancelled: true}, wake(true)}, []bool{true, false}},
		{"shutdown does not cancel a poll", TaskScheduled,
			[]TaskOp{start(0), {Kind: TaskOpCancel, Cancelled: true}}, []bool{true, false}},
		{"a start of a task not scheduled", TaskIdle,
			[]TaskOp{start(0)}, []bool{false}},
	}
	for _, c := range cases {
		s := TaskObject{Status: c.from}
		for i, op := range c.ops {
			ok, next := s.Step(op)
			if ok != c.ok[i] {
				t.Errorf("%s: call %d %v in %v: accepted %v, want %v", c.name, i, op, s, ok, c.ok[i])
				break
			}
			if !ok {
				if next != s {
					t.Errorf("%s: refused call %d changed the state", c.name, i)
				}
				break
			}
			s = next
		}
	}
}
