package treiber_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wsched/wsched/examples/treiber"
	"github.com/wsched/wsched/explore"
)

// stack is what the scenario needs of either stack.
type stack interface {
	Push(int)
	Pop() (int, bool)
}

// scenario: the stack holds 1 and 2; goroutine A pops once; goroutine B
// pops once and pushes 3; then main empties the stack. Every value pushed
// must come out exactly once, whatever the interleaving. Each schedule is
// a fresh run, so it makes a fresh stack.
func scenario(newStack func() stack) func() {
	return func() {
		s := newStack()
		s.Push(1)
		s.Push(2)
		var got []int
		take := func() {
			if v, ok := s.Pop(); ok {
				got = append(got, v) // one goroutine runs at a time
			}
		}
		a := explore.Go("A", take)
		b := explore.Go("B", func() { take(); s.Push(3) })
		a.Join()
		b.Join()
		for {
			v, ok := s.Pop()
			if !ok {
				break
			}
			got = append(got, v)
		}
		slices.Sort(got)
		explore.Assert(slices.Equal(got, []int{1, 2, 3}), "popped %v, want each of 1, 2, 3 once", got)
	}
}

// Every interleaving with up to two preemptions: the Treiber stack loses
// and duplicates nothing.
func TestStackExplore(t *testing.T) {
	res := explore.Check(t, "treiber/stack", explore.Options{}, scenario(func() stack { return &treiber.Stack[int]{} }))
	if !res.Exhaustive {
		t.Fatalf("the search was cut after %d schedules: raise the budget", res.Schedules)
	}
}

// The recycling stack breaks in some interleaving, and the explorer finds
// it. (Fix the bug and this test fails: then make it TestStackExplore's
// twin.)
func TestRecyclingBugFound(t *testing.T) {
	res := explore.Explore(explore.Options{}, scenario(func() stack { return &treiber.Recycling[int]{} }))
	f := res.Failure
	if f == nil {
		t.Fatalf("no failure in %d schedules (exhaustive: %v)", res.Schedules, res.Exhaustive)
	}
	t.Logf("%s: %s\nfound at schedule %d, %d preemptions\n%s", f.Kind, f.Message, f.Schedule, f.Preemptions, f.Trace)
}

// Explore returns what it found; a test would call explore.Check, which
// fails the test with the trace and the command that replays it.
func Example() {
	res := explore.Explore(explore.Options{}, scenario(func() stack { return &treiber.Stack[int]{} }))
	fmt.Println("Stack:", res.Failure == nil, res.Exhaustive)
	res = explore.Explore(explore.Options{}, scenario(func() stack { return &treiber.Recycling[int]{} }))
	fmt.Printf("Recycling: %s at schedule %d, %d preemptions\n", res.Failure.Message, res.Failure.Schedule, res.Failure.Preemptions)
	// Output:
	// Stack: true true
	// Recycling: popped [1 2 2], want each of 1, 2, 3 once at schedule 15, 1 preemptions
}
