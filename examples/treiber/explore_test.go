//go:build explore

package treiber_test

import (
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
		// The trace names the stack's locations by it: stack.head (and
		// the recycling stack's free list, stack.free.head).
		explore.Object("stack", s)
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

// Every interleaving with up to two preemptions (and, with -tags
// explore,weak, every stale read the orderings allow): the Treiber stack
// loses and duplicates nothing, and no Pop reads a node's value before
// the Push that wrote it published it. Built with the buggy tag it fails
// in the weak mode only (order_buggy.go).
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
	opt, err := explore.FromEnv(explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := explore.Explore(opt, scenario(func() stack { return &treiber.Recycling[int]{} }))
	f := res.Failure
	if f == nil {
		t.Fatalf("no failure in %d schedules (exhaustive: %v)", res.Schedules, res.Exhaustive)
	}
	t.Logf("%s: %s\nfound at schedule %d, %d preemptions\n%s", f.Kind, f.Message, f.Schedule, f.Preemptions, f.Trace)
}
