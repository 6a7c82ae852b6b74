package queue_test

import (
	"fmt"

	"github.com/wsched/wsched/spec/queue"
)

type task struct{ id int }

// A worker pushes into its own ring and pops the oldest task first.
func ExampleRing_Pop() {
	global := queue.NewGlobal[task]()
	r := queue.NewRing[task]()
	for i := 1; i <= 3; i++ {
		r.Push(&task{id: i}, global)
	}
	fmt.Println(r.Pop().id, r.Len())
	// Output: 1 2
}

// A thief takes the oldest half of a victim's ring into its own ring.
func ExampleRing_StealInto() {
	global := queue.NewGlobal[task]()
	victim, thief := queue.NewRing[task](), queue.NewRing[task]()
	for i := 1; i <= 5; i++ {
		victim.Push(&task{id: i}, global)
	}
	first, n := victim.StealInto(thief)
	fmt.Println(first.id, n, victim.Len(), thief.Len(), thief.Pop().id)
	// Output: 1 3 2 2 2
}

// A push into a full ring moves the oldest half to the global queue.
func ExampleRing_Push() {
	global := queue.NewGlobal[task]()
	r := queue.NewRing[task]()
	for i := 0; i < queue.Capacity; i++ {
		r.Push(&task{id: i}, global)
	}
	moved := r.Push(&task{id: queue.Capacity}, global)
	fmt.Println(moved, r.Len(), global.Len())
	// Output: 128 129 128
}

// The global queue hands out its oldest tasks in batches.
func ExampleGlobal_PopBatch() {
	g := queue.NewGlobal[task]()
	g.PushBatch([]*task{{id: 1}, {id: 2}, {id: 3}})
	buf := make([]*task, 2)
	k := g.PopBatch(buf)
	fmt.Println(k, buf[0].id, buf[1].id, g.Len())
	// Output: 2 1 2 1
}
