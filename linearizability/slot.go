package linearizability

import (
	"sort"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/linearizability/queuecheck"
	"github.com/wsched/wsched/model"
)

// SlotModel is the porcupine form of model.SlotModel, for histories of one
// LIFO slot. The state is a comparable value, so porcupine's default ==
// compares states; the hash is the task held.
func SlotModel() porcupine.Model {
	var m model.SlotModel
	return porcupine.Model{
		Init: func() any { return model.SlotState{} },
		Step: func(s, in, out any) (bool, any) {
			return m.Step(s.(model.SlotState), in.(model.SlotInput), out.(model.SlotOutput))
		},
		Hash: func(s any) uint64 { return uint64(s.(model.SlotState).Task) },
		DescribeOperation: func(in, out any) string {
			return in.(model.SlotInput).Describe(out.(model.SlotOutput))
		},
		DescribeState: func(s any) string { return s.(model.SlotState).String() },
	}
}

// SlotClient records the operations one goroutine makes on a
// queuecheck.Slot. Each SlotClient belongs to one goroutine; its Ops are
// read after that goroutine is done. Only the slot's owner may call Put and
// Take (the slot's contract, not something the client checks).
type SlotClient struct {
	ID    int
	Clock *Clock
	X     queuecheck.Slot
	Ops   []porcupine.Operation
}

func (c *SlotClient) do(in model.SlotInput, f func() model.SlotOutput) model.SlotOutput {
	call := c.Clock.tick()
	out := f()
	ret := c.Clock.tick()
	c.Ops = append(c.Ops, porcupine.Operation{ClientId: c.ID, Input: in, Call: call, Output: out, Return: ret})
	return out
}

// Put stores task and returns the task it displaced, 0 for none.
func (c *SlotClient) Put(task int) int {
	in := model.SlotInput{Kind: model.SlotPut, Task: task}
	return c.do(in, func() model.SlotOutput { return model.SlotOutput{Task: c.X.Put(task)} }).Task
}

// Take empties the slot as its owner and returns its task, 0 for none.
func (c *SlotClient) Take() int {
	in := model.SlotInput{Kind: model.SlotTake}
	return c.do(in, func() model.SlotOutput { return model.SlotOutput{Task: c.X.Take()} }).Task
}

// Steal empties the slot as a thief and returns its task, 0 for none.
func (c *SlotClient) Steal() int {
	in := model.SlotInput{Kind: model.SlotSteal}
	return c.do(in, func() model.SlotOutput { return model.SlotOutput{Task: c.X.Steal()} }).Task
}

// Full reports whether the slot held a task.
func (c *SlotClient) Full() bool {
	in := model.SlotInput{Kind: model.SlotFull}
	return c.do(in, func() model.SlotOutput { return model.SlotOutput{Full: c.X.Full()} }).Full
}

// SlotHistory merges the clients' operations, in the order of their calls.
// Unlike QueueHistory it marks nothing: no slot call has an outcome that
// only a race may show (see model.SlotModel).
func SlotHistory(clients ...*SlotClient) []porcupine.Operation {
	var ops []porcupine.Operation
	for _, c := range clients {
		ops = append(ops, c.Ops...)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].Call < ops[j].Call })
	return ops
}
