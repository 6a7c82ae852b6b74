package linearizability

import (
	"slices"
	"sort"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/linearizability/queuecheck"
	"github.com/wsched/wsched/model"
)

// QueueModel is the porcupine form of model.QueueModel in its concurrent
// mode, for histories over `rings` rings and one global queue.
func QueueModel(rings int) porcupine.Model {
	m := model.QueueModel{Concurrent: true}
	return porcupine.Model{
		Init: func() any { return model.NewQueueState(rings) },
		Step: func(s, in, out any) (bool, any) {
			return m.Step(s.(model.QueueState), in.(model.QueueInput), out.(model.QueueOutput))
		},
		// The state holds slices: == would compare slice headers.
		Equal: func(a, b any) bool { return a.(model.QueueState).Equal(b.(model.QueueState)) },
		Hash:  func(s any) uint64 { return s.(model.QueueState).Hash() },
		DescribeOperation: func(in, out any) string {
			i := in.(model.QueueInput)
			d := i.Describe(out.(model.QueueOutput))
			if i.Contended {
				d += " [contended]"
			}
			return d
		},
		DescribeState: func(s any) string { return s.(model.QueueState).String() },
	}
}

// QueueClient records the operations one goroutine makes on a
// queuecheck.Target. Each QueueClient belongs to one goroutine; its Ops are
// read after that goroutine is done.
type QueueClient struct {
	ID    int
	Clock *Clock
	X     queuecheck.Target
	Ops   []porcupine.Operation
}

func (c *QueueClient) do(in model.QueueInput, f func() model.QueueOutput) model.QueueOutput {
	call := c.Clock.tick()
	out := f()
	ret := c.Clock.tick()
	c.Ops = append(c.Ops, porcupine.Operation{ClientId: c.ID, Input: in, Call: call, Output: out, Return: ret})
	return out
}

// Push pushes task into ring. The Injector calls the push makes on a full
// ring are recorded as operations of their own (GlobalPush or
// GlobalPushBatch with Overflow set), nested inside the push.
func (c *QueueClient) Push(ring, task int) int {
	in := model.QueueInput{Kind: model.OpPush, Ring: ring, Task: task}
	return c.do(in, func() model.QueueOutput {
		return model.QueueOutput{N: c.X.Push(ring, task, queueOverflow{c, ring})}
	}).N
}

func (c *QueueClient) Pop(ring int) int {
	in := model.QueueInput{Kind: model.OpPop, Ring: ring}
	return c.do(in, func() model.QueueOutput { return model.QueueOutput{Task: c.X.Pop(ring)} }).Task
}

func (c *QueueClient) StealInto(src, dst int) (first, n int) {
	in := model.QueueInput{Kind: model.OpSteal, Ring: src, Dst: dst}
	out := c.do(in, func() model.QueueOutput {
		t, n := c.X.StealInto(src, dst)
		return model.QueueOutput{Task: t, N: n}
	})
	return out.Task, out.N
}

func (c *QueueClient) Len(ring int) int {
	in := model.QueueInput{Kind: model.OpLen, Ring: ring}
	return c.do(in, func() model.QueueOutput { return model.QueueOutput{N: c.X.Len(ring)} }).N
}

func (c *QueueClient) GlobalPush(task int) {
	c.do(model.QueueInput{Kind: model.OpGlobalPush, Task: task}, func() model.QueueOutput {
		c.X.GlobalPush(task)
		return model.QueueOutput{}
	})
}

func (c *QueueClient) GlobalPushBatch(tasks []int) {
	c.do(model.QueueInput{Kind: model.OpGlobalPushBatch, Tasks: tasks}, func() model.QueueOutput {
		c.X.GlobalPushBatch(tasks)
		return model.QueueOutput{}
	})
}

func (c *QueueClient) GlobalPopBatch(max int) []int {
	in := model.QueueInput{Kind: model.OpGlobalPopBatch, Max: max}
	return c.do(in, func() model.QueueOutput { return model.QueueOutput{Tasks: c.X.GlobalPopBatch(max)} }).Tasks
}

func (c *QueueClient) GlobalLen() int {
	in := model.QueueInput{Kind: model.OpGlobalLen}
	return c.do(in, func() model.QueueOutput { return model.QueueOutput{N: c.X.GlobalLen()} }).N
}

// queueOverflow records a full ring's Injector calls and forwards them to the
// global queue.
type queueOverflow struct {
	c    *QueueClient
	ring int
}

func (o queueOverflow) Push(task int) {
	in := model.QueueInput{Kind: model.OpGlobalPush, Ring: o.ring, Task: task, Overflow: true}
	o.c.do(in, func() model.QueueOutput {
		o.c.X.GlobalPush(task)
		return model.QueueOutput{}
	})
}

func (o queueOverflow) PushBatch(tasks []int) {
	in := model.QueueInput{Kind: model.OpGlobalPushBatch, Ring: o.ring, Tasks: slices.Clone(tasks), Overflow: true}
	o.c.do(in, func() model.QueueOutput {
		o.c.X.GlobalPushBatch(tasks)
		return model.QueueOutput{}
	})
}

// QueueHistory merges the clients' operations and marks each Push and Steal
// that overlapped in time with another operation on a ring it touches
// (model.QueueInput.Contended): only those may show the outcomes of a race
// (a steal that fails although the victim has tasks, a push that sends
// only its own task to overflow).
func QueueHistory(clients ...*QueueClient) []porcupine.Operation {
	var ops []porcupine.Operation
	for _, c := range clients {
		ops = append(ops, c.Ops...)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].Call < ops[j].Call })
	contended := make([]bool, len(ops))
	for i := range ops {
		// ops is sorted by call, so the operations overlapping ops[i] that
		// were called after it are the ones that follow, up to its return.
		for j := i + 1; j < len(ops) && ops[j].Call <= ops[i].Return; j++ {
			a, b := ops[i].Input.(model.QueueInput), ops[j].Input.(model.QueueInput)
			if shareRing(a, b) {
				contended[i], contended[j] = true, true
			}
		}
	}
	for i := range ops {
		in := ops[i].Input.(model.QueueInput)
		if contended[i] && (in.Kind == model.OpPush || in.Kind == model.OpSteal) {
			in.Contended = true
			ops[i].Input = in
		}
	}
	return ops
}

// ringsOf lists the rings an operation reads or writes (none for the
// global queue's own operations).
func ringsOf(in model.QueueInput) []int {
	switch in.Kind {
	case model.OpPush, model.OpPop, model.OpLen:
		return []int{in.Ring}
	case model.OpSteal:
		return []int{in.Ring, in.Dst}
	}
	return nil
}

func shareRing(a, b model.QueueInput) bool {
	for _, r := range ringsOf(a) {
		if slices.Contains(ringsOf(b), r) {
			return true
		}
	}
	return false
}
