package sched

import (
	"testing"

	"github.com/wsched/wsched/impl/queue"
)

// TestDrainHandsOnEveryTaskOnce fills a worker's LIFO slot and ring (a
// full ring: many batches of a small buffer) and drains them, as the
// owner and as a thief: every task is handed on once, the slot's first,
// then the ring's oldest first, in batches that are never empty and never
// larger than the buffer; the queues and the buffer are empty afterwards,
// and a second drain takes nothing.
func TestDrainHandsOnEveryTaskOnce(t *testing.T) {
	for _, by := range []string{"owner", "thief"} {
		t.Run(by, func(t *testing.T) {
			rt, w, want := fullWorker(t)
			var thief *taskRing
			if by == "thief" {
				thief = (*taskRing)(queue.NewRing[task]())
			}
			buf := make([]*task, 7)
			var got []*task
			to := func(b []*task) {
				if len(b) == 0 || len(b) > len(buf) {
					t.Fatalf("a batch of %d tasks, buffer %d", len(b), len(buf))
				}
				got = append(got, b...)
			}
			if !w.drain(thief, buf, to) {
				t.Fatal("drain took nothing")
			}
			if len(got) != len(want) {
				t.Fatalf("handed on %d tasks, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("task %d handed on out of order", i)
				}
			}
			for i, tk := range buf {
				if tk != nil {
					t.Fatalf("buf[%d] still holds a task", i)
				}
			}
			if w.ring.Len() != 0 || w.lifo.Full() || rt.global.Len() != 0 {
				t.Fatalf("left: ring %d, slot %v, global %d", w.ring.Len(), w.lifo.Full(), rt.global.Len())
			}
			if thief != nil && thief.Len() != 0 {
				t.Fatalf("the thief's ring keeps %d tasks", thief.Len())
			}
			if w.drain(thief, buf, to) {
				t.Fatal("a second drain took something")
			}
		})
	}
}

// TestHandOffMovesEveryTaskToTheGlobalQueue: an extra worker that is not
// needed any more moves its slot's task and its ring to the global queue,
// in the order it would have run them.
func TestHandOffMovesEveryTaskToTheGlobalQueue(t *testing.T) {
	rt, w, want := fullWorker(t)
	w.handOff()
	got := make([]*task, len(want)+1)
	if n := rt.global.PopBatch(got); n != len(want) {
		t.Fatalf("the global queue holds %d tasks, want %d", n, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("task %d out of order in the global queue", i)
		}
	}
}

// fullWorker builds a one-worker runtime whose worker holds a task in its
// LIFO slot and a full ring: want is those tasks in the order the worker
// would run them (the slot's first).
func fullWorker(t *testing.T) (*Runtime, *worker, []*task) {
	t.Helper()
	rt, err := build(Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := rt.workers[0]
	want := []*task{{}}
	for range queue.Capacity {
		tk := &task{}
		want = append(want, tk)
		if w.ring.Push(tk, rt.global) != 0 {
			t.Fatal("the ring overflowed")
		}
	}
	w.lifo.Put(want[0])
	return rt, w, want
}
