package queuecheck

import "github.com/wsched/wsched/impl/queue"

// implTarget is impl/queue behind the Target interface.
type implTarget struct {
	rings  []*queue.Ring[Task]
	global *queue.Global[Task]
}

// NewImpl returns n impl/queue rings, each made with NewRingAt(start), and
// an impl/queue global queue.
func NewImpl(start uint32, n int) Target {
	x := &implTarget{global: queue.NewGlobal[Task]()}
	for range n {
		x.rings = append(x.rings, queue.NewRingAt[Task](start))
	}
	return x
}

// implInjector turns a ring's overflow back into ids.
type implInjector struct{ o Overflow }

func (s implInjector) Push(t *Task)         { s.o.Push(t.ID) }
func (s implInjector) PushBatch(ts []*Task) { s.o.PushBatch(taskIDs(ts)) }

func (x *implTarget) Rings() int { return len(x.rings) }
func (x *implTarget) Push(ring, task int, o Overflow) int {
	return x.rings[ring].Push(&Task{ID: task}, implInjector{o})
}
func (x *implTarget) Pop(ring int) int { return taskID(x.rings[ring].Pop()) }
func (x *implTarget) StealInto(src, dst int) (int, int) {
	t, n := x.rings[src].StealInto(x.rings[dst])
	return taskID(t), n
}
func (x *implTarget) Len(ring int) int            { return x.rings[ring].Len() }
func (x *implTarget) GlobalPush(task int)         { x.global.Push(&Task{ID: task}) }
func (x *implTarget) GlobalPushBatch(tasks []int) { x.global.PushBatch(newTasks(tasks)) }
func (x *implTarget) GlobalPopBatch(max int) []int {
	buf := make([]*Task, max)
	return taskIDs(buf[:x.global.PopBatch(buf)])
}
func (x *implTarget) GlobalLen() int { return x.global.Len() }
