package queue

import "sync"

// Slot is the reference twin of impl/queue.Slot: a worker's LIFO slot, one
// task behind a mutex. The owner puts and takes; any goroutine may steal.
//
// Every call holds the lock from start to end, so calls happen one after
// another, and each task put leaves the slot through exactly one call: the
// Put that displaced it, or the Take or Steal that emptied the slot while
// it was there. Whoever gets a task out of the slot owns it. Take and
// Steal are the same code; they differ only in who may call them.
type Slot[T any] struct {
	mu sync.Mutex
	t  *T // guarded by mu; nil when empty
}

// Put stores t and returns the task it displaced (nil if the slot was
// empty). Owner only. A nil t is a programming error and panics.
func (s *Slot[T]) Put(t *T) (prev *T) {
	if t == nil {
		panic("queue: Slot.Put of a nil task")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, s.t = s.t, t
	return prev
}

// Take empties the slot and returns its task, or nil if it was empty (or
// a thief took the task first). Owner only.
func (s *Slot[T]) Take() *T { return s.empty() }

// Steal empties the slot and returns its task, or nil if it was empty.
// Any goroutine.
func (s *Slot[T]) Steal() *T { return s.empty() }

func (s *Slot[T]) empty() *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.t
	s.t = nil
	return t
}

// Full reports whether the slot holds a task: a snapshot (another
// goroutine may steal it at once). Any goroutine.
func (s *Slot[T]) Full() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t != nil
}
