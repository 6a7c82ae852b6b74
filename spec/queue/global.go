package queue

import (
	"sync"
	"sync/atomic"
)

// Global is the global injection queue: an unbounded FIFO shared by all
// workers, guarded by one mutex. Tasks woken from outside a worker and the
// overflow of full rings go here.
type Global[T any] struct {
	mu    sync.Mutex
	tasks []*T // oldest first

	// n mirrors len(tasks), written under mu, so Len can read it without
	// the lock.
	n atomic.Int64
}

// NewGlobal returns an empty global queue.
func NewGlobal[T any]() *Global[T] {
	return &Global[T]{}
}

// Push appends t. A nil t is a caller error and panics.
func (g *Global[T]) Push(t *T) {
	if t == nil {
		panic("queue: Push of a nil task")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tasks = append(g.tasks, t)
	g.n.Store(int64(len(g.tasks)))
}

// PushBatch appends ts in order, under one lock: no other operation sees
// part of the batch. A nil task in ts is a caller error and panics.
func (g *Global[T]) PushBatch(ts []*T) {
	for _, t := range ts {
		if t == nil {
			panic("queue: PushBatch of a nil task")
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tasks = append(g.tasks, ts...)
	g.n.Store(int64(len(g.tasks)))
}

// PopBatch moves up to len(dst) of the oldest tasks into dst[:k], oldest
// first, and returns k.
func (g *Global[T]) PopBatch(dst []*T) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := copy(dst, g.tasks)
	clear(g.tasks[:k])
	g.tasks = g.tasks[k:]
	g.n.Store(int64(len(g.tasks)))
	return k
}

// Len returns the number of queued tasks without taking the lock: a
// snapshot that may be stale by the time the caller looks at it.
func (g *Global[T]) Len() int {
	return int(g.n.Load())
}
