package sched

import (
	"testing"
	"unsafe"

	"github.com/wsched/wsched/internal/schedtest"
	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// TestTaskStateMachineMatchesModel drives the task's transitions one at a
// time (as the workers, wakers and shutdown would) and compares every
// result and the state after it with model/task.go.
func TestTaskStateMachineMatchesModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tk := &task{}
		tk.state.StoreRelaxed(stateScheduled) // born scheduled, like a spawn
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
			if s := tk.state.LoadRelaxed(); stateNames[s] != ms.String() {
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

// TestAbsorbedWakePublishes: a wake that finds its task already scheduled
// (or notified) is absorbed, yet what the waker wrote before it must be
// visible to the poll that follows, as it is for a wake that enqueues. The
// race detector is the judge: a goroutine writes a plain variable and
// wakes a scheduled task; once that goroutine has exited, this one takes
// the task as a worker does (scheduled -> running) and reads the variable.
// The only synchronisation between the two is the task's state word, so if
// the absorbed wake publishes nothing (a plain load), -race reports the
// read. The wait for the waker's exit must not synchronise (a channel or
// WaitGroup would order the write before the read by itself): it looks for
// the waker's frame in a dump of all goroutines, which the race detector
// does not see. Without -race the test still runs the steps, and checks
// only the states.
func TestAbsorbedWakePublishes(t *testing.T) {
	for _, s := range []uint32{stateScheduled, stateNotified} {
		tk := &task{}
		tk.state.StoreRelaxed(s)
		var x int
		go absorbedWaker(tk, &x)
		schedtest.WaitGoroutinesGone(t, "sched.absorbedWaker(", "sched.TestAbsorbedWakePublishes.gowrap")
		switch s {
		case stateScheduled:
			tk.transitionToRunning() // acquires what the wake published
		case stateNotified:
			if !tk.transitionAfterPending(false) { // the failing running -> idle CAS acquires
				t.Fatalf("notified task not requeued")
			}
		}
		if x != 1 {
			t.Fatalf("after an absorbed wake in %s, the poll reads %d, want 1", stateNames[s], x)
		}
	}
}

// absorbedWaker writes *x, then wakes tk.
func absorbedWaker(tk *task, x *int) {
	*x = 1
	if tk.transitionToScheduled() {
		panic("a wake of a scheduled or notified task enqueued it")
	}
}
