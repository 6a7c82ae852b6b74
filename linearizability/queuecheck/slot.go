package queuecheck

import (
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
	specqueue "github.com/wsched/wsched/spec/queue"
	"pgregory.net/rapid"
)

// Slot is a worker's LIFO slot under test, impl/queue.Slot or
// spec/queue.Slot, with tasks by id (0 = none). Put and Take must come from
// one goroutine at a time, the slot's owner, as the slot's contract
// requires; Steal and Full may come from any goroutine.
type Slot interface {
	Put(task int) (displaced int)
	Take() int
	Steal() int
	Full() bool
}

// NewImplSlot returns an empty impl/queue.Slot behind the Slot interface.
func NewImplSlot() Slot { return &implSlot{} }

// NewSpecSlot returns an empty spec/queue.Slot behind the Slot interface.
func NewSpecSlot() Slot { return &specSlot{} }

// Each Put stores a new *Task: the slots compare pointers, never ids.

type implSlot struct{ s queue.Slot[Task] }

func (x *implSlot) Put(task int) int { return taskID(x.s.Put(&Task{ID: task})) }
func (x *implSlot) Take() int        { return taskID(x.s.Take()) }
func (x *implSlot) Steal() int       { return taskID(x.s.Steal()) }
func (x *implSlot) Full() bool       { return x.s.Full() }

type specSlot struct{ s specqueue.Slot[Task] }

func (x *specSlot) Put(task int) int { return taskID(x.s.Put(&Task{ID: task})) }
func (x *specSlot) Take() int        { return taskID(x.s.Take()) }
func (x *specSlot) Steal() int       { return taskID(x.s.Steal()) }
func (x *specSlot) Full() bool       { return x.s.Full() }

// SlotMachine returns a rapid property that runs a random sequence of Put,
// Take and Steal on a fresh slot from newSlot, one call at a time, and
// compares every result with the sequential model (model.SlotModel); after
// every call, Full must agree with the model's state.
//
// Puts come in runs of one to three, so that a put often displaces the
// task of the one before it, and tasks are numbered in order, so that a
// wrong result names the task it should not have returned.
func SlotMachine(newSlot func() Slot) func(*rapid.T) {
	return func(t *rapid.T) {
		m := &slotMachine{x: newSlot()}
		t.Repeat(map[string]func(*rapid.T){
			"put": func(t *rapid.T) {
				for range rapid.IntRange(1, 3).Draw(t, "puts") {
					m.next++
					m.step(t, model.SlotInput{Kind: model.SlotPut, Task: m.next})
				}
			},
			"take":  func(t *rapid.T) { m.step(t, model.SlotInput{Kind: model.SlotTake}) },
			"steal": func(t *rapid.T) { m.step(t, model.SlotInput{Kind: model.SlotSteal}) },
			"":      func(t *rapid.T) { m.step(t, model.SlotInput{Kind: model.SlotFull}) },
		})
	}
}

type slotMachine struct {
	x    Slot
	s    model.SlotState
	next int // last task id used
}

// step runs in on the slot and compares the result with the model's.
func (m *slotMachine) step(t *rapid.T, in model.SlotInput) {
	t.Helper()
	want, next, ok := model.SlotModel{}.Expect(m.s, in)
	if !ok {
		t.Fatalf("model cannot take %s in state %v", in.Describe(want), m.s)
	}
	var got model.SlotOutput
	switch in.Kind {
	case model.SlotPut:
		got.Task = m.x.Put(in.Task)
	case model.SlotTake:
		got.Task = m.x.Take()
	case model.SlotSteal:
		got.Task = m.x.Steal()
	case model.SlotFull:
		got.Full = m.x.Full()
	}
	if got != want {
		t.Fatalf("%s, want %s\nstate before: %v", in.Describe(got), in.Describe(want), m.s)
	}
	m.s = next
}
