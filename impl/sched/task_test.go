package sched

import (
	"testing"
	"unsafe"

	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// TestTaskStateMachineMatchesModel drives the task's transitions one at a
// time (as the workers, wakers and shutdown would) and compares every
// result and the state after it with model/task.go.
func TestTaskStateMachineMatchesModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tk := &task{}
		tk.state.Store(stateScheduled) // born scheduled, like a spawn
		ms := model.TaskScheduled
		steps := rapid.IntRange(1, 100).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			switch op := rapid.IntRange(0, 3).Draw(rt, "op"); op {
			case 0: // wake
				enq := tk.transitionToScheduled()
				wantEnq, next := model.TaskWake(ms)
				if enq != wantEnq {
					rt.Fatalf("wake in %v: enqueue=%v, model %v", ms, enq, wantEnq)
				}
				ms = next
			case 1: // a worker takes it; only valid when scheduled
				ok, next := model.TaskStart(ms)
				if !ok {
					panicked := func() (p bool) {
						defer func() { p = recover() != nil }()
						tk.transitionToRunning()
						return false
					}()
					if !panicked {
						rt.Fatalf("start in %v did not report the broken invariant", ms)
					}
					continue
				}
				tk.transitionToRunning()
				ms = next
			case 2: // end of poll
				r := model.TaskPollResult(rapid.IntRange(0, 2).Draw(rt, "result"))
				ok, requeue, next := model.TaskFinish(ms, r)
				if !ok {
					continue // not being polled: not a valid call
				}
				switch r {
				case model.TaskPollReady:
					tk.finish(nil)
					if requeue {
						rt.Fatalf("model requeues a finished task")
					}
				default:
					if got := tk.transitionAfterPending(r == model.TaskPollYield); got != requeue {
						rt.Fatalf("finish(%v) in %v: requeue=%v, model %v", r, ms, got, requeue)
					}
				}
				ms = next
			case 3: // shutdown cancels a task that is not being polled
				if ms == model.TaskRunning || ms == model.TaskNotified {
					continue // shutdown never cancels a running poll
				}
				got := tk.cancel()
				want, next := model.TaskCancel(ms)
				if got != want {
					rt.Fatalf("cancel in %v: %v, model %v", ms, got, want)
				}
				ms = next
			}
			if s := tk.state.Load(); stateNames[s] != ms.String() {
				rt.Fatalf("state %s, model %v", stateNames[s], ms)
			}
			_, final := tk.result()
			if final != ms.Final() {
				rt.Fatalf("result final=%v in %v", final, ms)
			}
		}
	})
}

// The task record is a spawn's one allocation; its size class is part of
// the cost of every spawn (see the comment on task).
func TestTaskRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(JoinHandle{}); n > 48 {
		t.Fatalf("JoinHandle is %d bytes, want at most 48", n)
	}
}
