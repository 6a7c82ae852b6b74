package queuecheck

import "github.com/wsched/wsched/spec/queue"

// specTarget is spec/queue behind the Target interface.
type specTarget struct {
	rings  []*queue.Ring[Task]
	global *queue.Global[Task]
}

// NewSpec returns n spec/queue rings, each made with NewRingAt(start), and
// a spec/queue global queue.
func NewSpec(start uint32, n int) Target {
	x := &specTarget{global: queue.NewGlobal[Task]()}
	for range n {
		x.rings = append(x.rings, queue.NewRingAt[Task](start))
	}
	return x
}

// specInjector turns a ring's overflow back into ids.
type specInjector struct{ o Overflow }

func (s specInjector) Push(t *Task)         { s.o.Push(t.ID) }
func (s specInjector) PushBatch(ts []*Task) { s.o.PushBatch(taskIDs(ts)) }

func (x *specTarget) Rings() int { return len(x.rings) }
func (x *specTarget) Push(ring, task int, o Overflow) int {
	return x.rings[ring].Push(&Task{ID: task}, specInjector{o})
}
func (x *specTarget) Pop(ring int) int { return taskID(x.rings[ring].Pop()) }
func (x *specTarget) StealInto(src, dst int) (int, int) {
	t, n := x.rings[src].StealInto(x.rings[dst])
	return taskID(t), n
}
func (x *specTarget) Len(ring int) int            { return x.rings[ring].Len() }
func (x *specTarget) GlobalPush(task int)         { x.global.Push(&Task{ID: task}) }
func (x *specTarget) GlobalPushBatch(tasks []int) { x.global.PushBatch(newTasks(tasks)) }
func (x *specTarget) GlobalPopBatch(max int) []int {
	buf := make([]*Task, max)
	return taskIDs(buf[:x.global.PopBatch(buf)])
}
func (x *specTarget) GlobalLen() int { return x.global.Len() }
