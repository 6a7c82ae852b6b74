package queue_test

import (
	"fmt"

	"github.com/wsched/wsched/impl/queue"
)

type job struct{ name string }

func ExampleRing() {
	global := queue.NewGlobal[job]()
	owner, thief := queue.NewRing[job](), queue.NewRing[job]()

	for _, name := range []string{"a", "b", "c", "d", "e"} {
		owner.Push(&job{name}, global) // the owner's goroutine only
	}

	// The thief's goroutine takes the oldest half: it runs the first task
	// at once and keeps the rest in its own ring.
	first, n := owner.StealInto(thief)
	fmt.Println("stole", n, "running", first.name, "kept", thief.Len())

	for j := owner.Pop(); j != nil; j = owner.Pop() {
		fmt.Println("owner runs", j.name)
	}
	// Output:
	// stole 3 running a kept 2
	// owner runs d
	// owner runs e
}

func ExampleGlobal() {
	g := queue.NewGlobal[job]()
	g.Push(&job{"x"})
	g.PushBatch([]*job{{"y"}, {"z"}})

	buf := make([]*job, 2)
	for k := g.PopBatch(buf); k > 0; k = g.PopBatch(buf) {
		for _, j := range buf[:k] {
			fmt.Print(j.name, " ")
		}
		fmt.Println("| left:", g.Len())
	}
	// Output:
	// x y | left: 1
	// z | left: 0
}
