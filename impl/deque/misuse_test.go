package deque

import (
	"errors"
	"testing"
)

// New refuses a capacity above MaxCapacity with ErrCapacity (before: New
// with 1<<62 panicked in makeslice, and 1<<40 asked for terabytes).
func TestNewRejectsHugeCapacity(t *testing.T) {
	for _, c := range []int{MaxCapacity * 2, 1 << 40, 1 << 62} {
		d, err := New[int](c)
		if !errors.Is(err, ErrCapacity) || d != nil {
			t.Errorf("New(%d) = %v, %v; want nil, ErrCapacity", c, d, err)
		}
	}
}

// The zero Deque works: an empty deque whose first Push makes its ring
// (before: Push died on a nil dereference).
func TestZeroDequeWorks(t *testing.T) {
	var d Deque[int]
	if _, ok := d.Pop(); ok || d.Len() != 0 || d.Capacity() != DefaultCapacity {
		t.Fatalf("zero Deque: Pop ok=%v, Len %d, Capacity %d", ok, d.Len(), d.Capacity())
	}
	if _, res := d.Steal(); res != Empty {
		t.Fatalf("Steal on a zero Deque = %v, want Empty", res)
	}
	xs := make([]int, 3*DefaultCapacity)
	for i := range xs {
		xs[i] = i
		d.Push(&xs[i])
	}
	if v, res := d.Steal(); res != Success || *v != 0 {
		t.Fatalf("Steal = %v, %v; want 0, Success", v, res)
	}
	for i := len(xs) - 1; i >= 1; i-- {
		if v, ok := d.Pop(); !ok || *v != i {
			t.Fatalf("Pop = %v, %v; want %d", v, ok, i)
		}
	}
	if d.Len() != 0 {
		t.Fatalf("Len = %d after draining", d.Len())
	}
}
