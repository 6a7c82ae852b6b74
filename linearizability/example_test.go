package linearizability_test

import (
	"fmt"
	"time"

	"github.com/wsched/wsched/linearizability"
	"github.com/wsched/wsched/linearizability/queuecheck"
)

// Record a history of two goroutines' calls on spec/queue (here made one
// after the other) and ask porcupine whether the model accepts it.
func ExampleCheck() {
	x := queuecheck.NewSpec(0, 2)
	clock := new(linearizability.Clock)
	owner := &linearizability.QueueClient{ID: 0, Clock: clock, X: x}
	thief := &linearizability.QueueClient{ID: 1, Clock: clock, X: x}
	for task := 1; task <= 4; task++ {
		owner.Push(0, task)
	}
	first, n := thief.StealInto(0, 1) // takes tasks 1 and 2
	next := owner.Pop(0)
	ops := linearizability.QueueHistory(owner, thief)
	err := linearizability.Check(linearizability.QueueModel(2), "example", ops, time.Second)
	fmt.Println(first, n, next, len(ops), err)
	// Output: 1 2 3 6 <nil>
}
