package treiber

import "github.com/wsched/wsched/explore/atomic"

// node is one element. Its value and link are written by the Push that
// owns it before the CAS that publishes it and read by Pops after a load
// of the head that acquires it: plain memory, in Cells so that the weak
// mode checks that claim.
type node[T any] struct {
	val  atomic.Cell[T]
	next atomic.Cell[node[T]]
}

// Stack is a lock-free LIFO stack. The zero Stack is empty and ready.
type Stack[T any] struct {
	head atomic.Pointer[node[T]]
}

// Push puts v on top.
func (s *Stack[T]) Push(v T) {
	n := &node[T]{}
	n.val.Store(&v)
	for {
		// Relaxed: the CAS below checks the value, and n's link is n's
		// own until the CAS publishes it.
		top := s.head.LoadRelaxed()
		n.next.Store(top)
		if publish(&s.head, top, n) {
			return
		}
	}
}

// Pop takes the top value; false if the stack is empty.
//
// The CAS succeeds only if the head is still top, and then top's link,
// read before it, is still the node below top: a node is never reused
// while a goroutine can hold a pointer to it, because the garbage
// collector frees it only once nobody can.
//
// Orderings: the LoadAcquire reads the head that some Push's release CAS
// wrote, or that a Pop's CAS wrote after it (a CAS continues the release
// sequence), so the node's link and value are visible; the CAS itself
// publishes nothing and can be Relaxed.
func (s *Stack[T]) Pop() (T, bool) {
	for {
		top := s.head.LoadAcquire()
		if top == nil {
			var zero T
			return zero, false
		}
		next := top.next.Load()
		if s.head.CompareAndSwapRelaxedRelaxed(top, next) {
			return *top.val.Load(), true
		}
	}
}
