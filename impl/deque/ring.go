package deque

import "github.com/wsched/wsched/explore/atomic"

// ring is one circular buffer of a Deque. Index i (a logical position that
// only grows) lives in slot i & mask. A ring is never reused once replaced:
// a thief still holding an old ring reads the values it had when it was
// replaced, which is all the algorithm needs (its CAS on top decides whether
// what it read counts).
type ring[T any] struct {
	mask  int64
	slots []atomic.Pointer[T]
}

func newRing[T any](capacity int64) *ring[T] {
	return &ring[T]{mask: capacity - 1, slots: make([]atomic.Pointer[T], capacity)}
}

func (r *ring[T]) capacity() int64 { return r.mask + 1 }

// put writes index i, relaxed: the slot is published by the release store of bottom
// (Push) or of the ring pointer (grow) that follows it.
func (r *ring[T]) put(i int64, v *T) { r.slots[i&r.mask].StoreRelaxed(v) }

// get reads index i, relaxed: the reader has already acquired bottom (thief) or wrote
// the slot itself (owner); a thief's value only counts if its CAS on top
// succeeds afterwards.
func (r *ring[T]) get(i int64) *T { return r.slots[i&r.mask].LoadRelaxed() }

// grown returns a ring of twice the capacity holding indices [t, b) of r.
// Only the owner calls it; r itself is left untouched for thieves that
// still read it.
func (r *ring[T]) grown(t, b int64) *ring[T] {
	n := newRing[T](2 * r.capacity())
	for i := t; i < b; i++ {
		n.put(i, r.get(i))
	}
	return n
}
