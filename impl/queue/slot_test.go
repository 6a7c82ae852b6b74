package queue_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
	specqueue "github.com/wsched/wsched/spec/queue"
	"pgregory.net/rapid"
)

type slotTask struct{ id int }

// slotAPI is what impl/queue.Slot and its spec/queue twin have in common.
type slotAPI interface {
	Put(*slotTask) *slotTask
	Take() *slotTask
	Steal() *slotTask
	Full() bool
}

func slotID(t *slotTask) int {
	if t == nil {
		return 0
	}
	return t.id
}

// TestSlotMatchesModel runs random sequences of Put, Take, Steal and Full on
// the slot of impl/ and of spec/, one at a time, and compares every result
// with model.SlotStep.
func TestSlotMatchesModel(t *testing.T) {
	for name, newSlot := range map[string]func() slotAPI{
		"impl": func() slotAPI { return new(queue.Slot[slotTask]) },
		"spec": func() slotAPI { return new(specqueue.Slot[slotTask]) },
	} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				s, st, next := newSlot(), model.SlotState{}, 0
				ops := rapid.SliceOfN(rapid.SampledFrom([]model.SlotOpKind{model.SlotPut, model.SlotTake, model.SlotSteal, model.SlotFull}), 1, 60).Draw(rt, "ops")
				for i, k := range ops {
					in := model.SlotInput{Kind: k}
					var out model.SlotOutput
					switch k {
					case model.SlotPut:
						next++
						in.Task = next
						out.Task = slotID(s.Put(&slotTask{id: next}))
					case model.SlotTake:
						out.Task = slotID(s.Take())
					case model.SlotSteal:
						out.Task = slotID(s.Steal())
					case model.SlotFull:
						out.Full = s.Full()
					}
					ok, after := model.SlotStep(st, in, out)
					if !ok {
						rt.Fatalf("op %d: %s in state %+v: the model does not allow it", i, in.Describe(out), st)
					}
					st = after
				}
			})
		})
	}
}

// TestSlotExactlyOnce: the owner puts tasks and takes some back while
// thieves steal; every task put comes out exactly once, through the
// owner's Take, a thief's Steal, the displaced result of a later Put, or
// the slot itself at the end.
func TestSlotExactlyOnce(t *testing.T) {
	const tasks, thieves = 20000, 3
	s := new(queue.Slot[slotTask])
	got := make([]atomic.Int32, tasks+1)
	record := func(tk *slotTask) {
		if tk != nil {
			got[tk.id].Add(1)
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range thieves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if s.Full() {
					record(s.Steal())
				}
			}
		}()
	}
	for i := 1; i <= tasks; i++ {
		record(s.Put(&slotTask{id: i}))
		if i%3 == 0 {
			record(s.Take())
		}
	}
	stop.Store(true)
	wg.Wait()
	record(s.Take())
	for i := 1; i <= tasks; i++ {
		if n := got[i].Load(); n != 1 {
			t.Fatalf("task %d came out of the slot %d times, want exactly once", i, n)
		}
	}
}
