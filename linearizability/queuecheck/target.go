package queuecheck

// Target is a set of rings and one global queue under test. Ring i's owner
// is whoever the caller says it is: Push and Pop on ring i, and StealInto
// with dst i, must come from one goroutine at a time, as the queue contract
// requires.
type Target interface {
	Rings() int
	// Push pushes task into ring, handing any overflow to overflow (not
	// straight to the global queue), and returns Ring.Push's result.
	Push(ring, task int, overflow Overflow) int
	Pop(ring int) int // 0 when empty
	StealInto(src, dst int) (first, n int)
	Len(ring int) int
	GlobalPush(task int)
	GlobalPushBatch(tasks []int)
	GlobalPopBatch(max int) []int
	GlobalLen() int
}

// Overflow receives what a full ring's Push passes to its Injector, as task
// ids. Implementations forward to Target.GlobalPush / GlobalPushBatch, and
// may record the calls.
type Overflow interface {
	Push(task int)
	PushBatch(tasks []int)
}

// Task is the element type the targets store: a heap object carrying its id.
type Task struct{ ID int }

func newTasks(ids []int) []*Task {
	ts := make([]*Task, len(ids))
	for i, id := range ids {
		ts[i] = &Task{ID: id}
	}
	return ts
}

func taskIDs(ts []*Task) []int {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]int, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

func taskID(t *Task) int {
	if t == nil {
		return 0
	}
	return t.ID
}
