package treiber

import "fmt"

type node[T any] struct {
	val  T
	next *node[T]
}

func (n *node[T]) String() string { return fmt.Sprintf("node(%v)", n.val) }

// Stack is a lock-free LIFO stack. The zero Stack is empty and ready.
type Stack[T any] struct {
	head Pointer[node[T]]
}

// Push puts v on top.
func (s *Stack[T]) Push(v T) {
	n := &node[T]{val: v}
	for {
		top := s.head.Load()
		n.next = top // n is not shared yet: a plain write
		if s.head.CompareAndSwap(top, n) {
			return
		}
	}
}

// Pop takes the top value; false if the stack is empty.
//
// The CAS succeeds only if the head is still top, and then top.next,
// read before it, is still the node below top: a node is never reused
// while a goroutine can hold a pointer to it, because the garbage
// collector frees it only once nobody can.
func (s *Stack[T]) Pop() (T, bool) {
	for {
		top := s.head.Load()
		if top == nil {
			var zero T
			return zero, false
		}
		next := top.next
		if s.head.CompareAndSwap(top, next) {
			return top.val, true
		}
	}
}
