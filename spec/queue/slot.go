package queue

import "sync"

// Slot is the reference twin of impl/queue.Slot: a worker's LIFO slot, one
// task behind a mutex. The owner puts and takes; any goroutine may steal.
// Whoever empties the slot owns the task it held.
type Slot[T any] struct {
	mu sync.Mutex
	t  *T
}

// Put stores t and returns the task it displaced (nil if the slot was
// empty). Owner only. A nil t panics.
func (s *Slot[T]) Put(t *T) (prev *T) {
	if t == nil {
		panic("queue: Slot.Put of a nil task")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, s.t = s.t, t
	return prev
}

// Take empties the slot and returns its task, or nil. Owner only.
func (s *Slot[T]) Take() *T { return s.empty() }

// Steal empties the slot and returns its task, or nil. Any goroutine.
func (s *Slot[T]) Steal() *T { return s.empty() }

func (s *Slot[T]) empty() *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.t
	s.t = nil
	return t
}

// Full reports whether the slot holds a task (a snapshot).
func (s *Slot[T]) Full() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t != nil
}
