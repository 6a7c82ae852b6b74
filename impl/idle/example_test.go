package idle_test

import (
	"fmt"

	"github.com/wsched/wsched/impl/idle"
)

// A worker parks; a publisher's Notify claims it and hands it a searching
// credit; the worker, on waking, learns from Unpark that it was claimed.
func ExampleState() {
	s := idle.New(4)
	s.Park(2, false) // worker 2 found no work (bit set, np++)
	// ... worker 2 re-checks the queues, finds nothing, sleeps ...

	w := s.Notify() // a task was published and nobody searches
	fmt.Println("claimed worker", w)

	claimed := s.Unpark(2) // worker 2 wakes
	fmt.Println("claimed:", claimed, s.Snapshot())

	last := s.TransitionFromSearching() // it found the task
	fmt.Println("was last searcher:", last)
	// Output:
	// claimed worker 2
	// claimed: true {1 0 0}
	// was last searcher: true
}
