package deque

import (
	"errors"
	"sync"
)

// StealResult is the outcome of Steal.
type StealResult uint8

const (
	// Empty: the deque held no element.
	Empty StealResult = iota
	// Success: the top element was taken.
	Success
	// Retry is never returned by this implementation.
	Retry
)

func (r StealResult) String() string {
	switch r {
	case Empty:
		return "Empty"
	case Success:
		return "Success"
	case Retry:
		return "Retry"
	}
	return "StealResult(?)"
}

// DefaultCapacity is the initial capacity New uses when given 0.
const DefaultCapacity = 64

// ErrCapacity is returned by New for a capacity that is negative or not a
// power of two.
var ErrCapacity = errors.New("deque: capacity must be a power of two (or 0 for the default)")

// Deque is a mutex-protected deque of *T: items[0] is the top (oldest),
// items[len-1] the bottom (newest).
type Deque[T any] struct {
	mu       sync.Mutex
	items    []*T
	capacity int // mirrors the lock-free ring: doubles when full
}

// New returns an empty deque. The capacity rules match impl/deque.
func New[T any](capacity int) (*Deque[T], error) {
	if capacity == 0 {
		capacity = DefaultCapacity
	}
	if capacity < 0 || capacity&(capacity-1) != 0 {
		return nil, ErrCapacity
	}
	return &Deque[T]{capacity: capacity}, nil
}

// Push adds v at the bottom.
func (d *Deque[T]) Push(v *T) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.items) == d.capacity {
		d.capacity *= 2
	}
	d.items = append(d.items, v)
}

// Pop removes and returns the bottom (newest) element.
func (d *Deque[T]) Pop() (*T, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.items)
	if n == 0 {
		return nil, false
	}
	v := d.items[n-1]
	d.items[n-1] = nil
	d.items = d.items[:n-1]
	return v, true
}

// Steal removes and returns the top (oldest) element.
func (d *Deque[T]) Steal() (*T, StealResult) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.items) == 0 {
		return nil, Empty
	}
	v := d.items[0]
	d.items[0] = nil
	d.items = d.items[1:]
	return v, Success
}

// Len returns the number of elements.
func (d *Deque[T]) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.items)
}

// Capacity returns the capacity the lock-free deque's ring would have after
// the same sequence of pushes: it doubles whenever a push finds it full.
func (d *Deque[T]) Capacity() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.capacity
}
