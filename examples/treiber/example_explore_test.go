//go:build explore && !weak

package treiber_test

import (
	"fmt"

	"github.com/wsched/wsched/examples/treiber"
	"github.com/wsched/wsched/explore"
)

// Explore returns what it found; a test would call explore.Check, which
// fails the test with the trace and the command that replays it.
func Example() {
	res := explore.Explore(explore.Options{}, scenario(func() stack { return &treiber.Stack[int]{} }))
	fmt.Println("Stack:", res.Failure == nil, res.Exhaustive)
	res = explore.Explore(explore.Options{}, scenario(func() stack { return &treiber.Recycling[int]{} }))
	fmt.Printf("Recycling: %s at schedule %d, %d preemptions\n", res.Failure.Message, res.Failure.Schedule, res.Failure.Preemptions)
	// Output:
	// Stack: true true
	// Recycling: popped [1 2 2], want each of 1, 2, 3 once at schedule 25, 1 preemptions
}
