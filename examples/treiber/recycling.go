package treiber

// Recycling is Stack with a free list: Pop puts the node it took on the
// free list and Push reuses one from there before it allocates. It has a
// bug (docs/learn/09-your-own-structure.md); the explorer finds it. (The
// same bug has a second face the explorer does not show, since it runs one
// goroutine at a time: a Push that reuses a node writes its plain fields
// while a Pop that loaded it may be reading them, a data race the race
// detector reports in a real run.)
type Recycling[T any] struct {
	head Pointer[node[T]]
	free Stack[*node[T]]
}

// Push puts v on top.
func (s *Recycling[T]) Push(v T) {
	n, ok := s.free.Pop()
	if !ok {
		n = &node[T]{}
	}
	n.val = v
	for {
		top := s.head.Load()
		n.next = top
		if s.head.CompareAndSwap(top, n) {
			return
		}
	}
}

// Pop takes the top value; false if the stack is empty. It reads the value
// before its CAS: once the CAS has taken the node, another Push may reuse
// it.
func (s *Recycling[T]) Pop() (T, bool) {
	for {
		top := s.head.Load()
		if top == nil {
			var zero T
			return zero, false
		}
		next, v := top.next, top.val
		if s.head.CompareAndSwap(top, next) {
			s.free.Push(top)
			return v, true
		}
	}
}
