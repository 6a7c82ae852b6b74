package queue

import (
	"sync"
	"sync/atomic"
)

// Capacity is how many tasks a Ring holds.
const Capacity = 256

// MaxSteal bounds one steal, and is how many tasks a full ring moves to the
// overflow queue at once: half the ring.
const MaxSteal = Capacity / 2

// Injector is where a full ring overflows. *Global[T] implements it.
// PushBatch must not retain ts (impl/queue reuses the array it passes);
// this ring passes a fresh slice, so here nothing depends on it.
type Injector[T any] interface {
	Push(t *T)
	PushBatch(ts []*T)
}

// Ring is a worker's local run queue: a FIFO of at most Capacity tasks.
// Push and Pop are for the owning worker only; StealInto is called by the
// owner of the destination ring; Len may be called by anyone.
type Ring[T any] struct {
	// order fixes the order in which two rings are locked by StealInto,
	// so that two workers stealing from each other cannot deadlock.
	order uint64

	mu    sync.Mutex
	tasks []*T // oldest first; len(tasks) <= Capacity
}

var ringOrder atomic.Uint64

// NewRing returns an empty ring.
func NewRing[T any]() *Ring[T] {
	return &Ring[T]{order: ringOrder.Add(1)}
}

// NewRingAt returns an empty ring. In impl/queue, start is the initial value
// of the head and tail indices, so that tests can cross the 2^32 wrap-around;
// a slice has no indices, so here start is accepted and ignored.
func NewRingAt[T any](start uint32) *Ring[T] {
	_ = start
	return NewRing[T]()
}

// Push appends t. It returns how many tasks went to overflow: 0 when the ring
// had room, MaxSteal when it was full (the oldest MaxSteal tasks moved to
// overflow, in order, in one PushBatch call, and t was then stored in the
// ring). Here no steal is ever in flight, so Push never returns 1. The
// overflow call is made with the ring locked, so no steal sees the ring
// between the move and the store of t. A nil t is a caller error and panics.
func (r *Ring[T]) Push(t *T, overflow Injector[T]) int {
	if t == nil {
		panic("queue: Push of a nil task")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	moved := 0
	if len(r.tasks) == Capacity {
		batch := make([]*T, MaxSteal)
		copy(batch, r.tasks[:MaxSteal])
		r.dropOldest(MaxSteal)
		overflow.PushBatch(batch)
		moved = MaxSteal
	}
	r.tasks = append(r.tasks, t)
	return moved
}

// Pop removes and returns the oldest task, or nil when the ring is empty.
func (r *Ring[T]) Pop() *T {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.tasks) == 0 {
		return nil
	}
	t := r.tasks[0]
	r.dropOldest(1)
	return t
}

// StealInto moves the oldest half of r (ceil(n/2) of its n tasks, at most
// MaxSteal) to dst: it returns the oldest of them and appends the others, in
// order, to dst. It returns (nil, 0) and changes nothing when r is empty or
// when dst has no room for the tasks it would append. r and dst must differ.
func (r *Ring[T]) StealInto(dst *Ring[T]) (first *T, n int) {
	if r == dst {
		panic("queue: StealInto its own ring")
	}
	unlock := lockPair(r, dst)
	defer unlock()

	n = len(r.tasks) - len(r.tasks)/2 // ceil(len/2)
	n = min(n, MaxSteal)
	if n == 0 || len(dst.tasks)+(n-1) > Capacity {
		return nil, 0
	}
	first = r.tasks[0]
	dst.tasks = append(dst.tasks, r.tasks[1:n]...)
	r.dropOldest(n)
	return first, n
}

// Len returns the number of tasks in the ring.
func (r *Ring[T]) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.tasks)
}

// dropOldest removes the k oldest tasks, clearing their slots so the
// garbage collector can reclaim tasks that have finished. r.mu is held.
func (r *Ring[T]) dropOldest(k int) {
	clear(r.tasks[:k])
	r.tasks = r.tasks[k:]
}

// lockPair locks a and b in a fixed global order and returns the unlock.
func lockPair[T any](a, b *Ring[T]) (unlock func()) {
	first, second := a, b
	if second.order < first.order {
		first, second = second, first
	}
	first.mu.Lock()
	second.mu.Lock()
	return func() {
		second.mu.Unlock()
		first.mu.Unlock()
	}
}
