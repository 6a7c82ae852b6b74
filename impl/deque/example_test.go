package deque_test

import (
	"fmt"
	"sync"

	"github.com/wsched/wsched/impl/deque"
)

// The owner pushes and pops at the bottom (newest first); thieves steal
// from the top (oldest first) and retry when they lose a race.
func ExampleDeque() {
	d, err := deque.New[string](2) // tiny ring: it grows as needed
	if err != nil {
		panic(err)
	}
	for _, s := range []string{"a", "b", "c", "d"} {
		d.Push(&s)
	}

	// A thief on another goroutine takes the oldest element.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			v, res := d.Steal()
			switch res {
			case deque.Success:
				fmt.Println("stolen:", *v)
				return
			case deque.Empty:
				return
			case deque.Retry:
				// Lost a race: look again.
			}
		}
	}()
	wg.Wait()

	for {
		v, ok := d.Pop()
		if !ok {
			break
		}
		fmt.Println("popped:", *v)
	}
	// Output:
	// stolen: a
	// popped: d
	// popped: c
	// popped: b
}
