package treiber_test

import (
	"fmt"

	"github.com/wsched/wsched/examples/treiber"
)

// Outside an exploration the stack is an ordinary lock-free stack: its
// scheduling points pass straight through.
func ExampleStack() {
	var s treiber.Stack[string]
	s.Push("a")
	s.Push("b")
	for {
		v, ok := s.Pop()
		if !ok {
			break
		}
		fmt.Println(v)
	}
	// Output:
	// b
	// a
}
