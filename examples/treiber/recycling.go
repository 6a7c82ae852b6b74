package treiber

import "github.com/wsched/wsched/explore/atomic"

// Recycling is Stack with a free list: Pop puts the node it took on the
// free list and Push reuses one from there before it allocates. It has a
// bug (docs/learn/09-your-own-structure.md); the explorer finds it in
// both modes. (In the weak mode it shows a second face first: a Push that
// reuses a node writes its value while a Pop that loaded it may be
// reading it, a data race on the value's cell, which the race detector
// would report in a real run.)
type Recycling[T any] struct {
	head atomic.Pointer[node[T]]
	free Stack[*node[T]]
}

// Push puts v on top.
func (s *Recycling[T]) Push(v T) {
	n, ok := s.free.Pop()
	if !ok {
		n = &node[T]{}
	}
	n.val.Store(&v)
	for {
		top := s.head.LoadRelaxed()
		n.next.Store(top)
		if publish(&s.head, top, n) {
			return
		}
	}
}

// Pop takes the top value; false if the stack is empty. It reads the value
// before its CAS: once the CAS has taken the node, another Push may reuse
// it.
func (s *Recycling[T]) Pop() (T, bool) {
	for {
		top := s.head.LoadAcquire()
		if top == nil {
			var zero T
			return zero, false
		}
		next, v := top.next.Load(), *top.val.Load()
		if s.head.CompareAndSwapRelaxedRelaxed(top, next) {
			s.free.Push(top)
			return v, true
		}
	}
}
