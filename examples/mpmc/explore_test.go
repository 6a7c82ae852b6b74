//go:build explore

package mpmc_test

import (
	"slices"
	"testing"

	"github.com/wsched/wsched/examples/mpmc"
	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/sync"
)

// check runs one scenario and insists that the search was exhaustive.
func check(t *testing.T, name string, body func()) {
	t.Helper()
	res := explore.Check(t, name, explore.Options{}, body)
	if !res.Exhaustive {
		t.Fatalf("%s: the search was cut after %d schedules: raise the budget", name, res.Schedules)
	}
}

// drain pops until the queue is empty.
func drain(q *mpmc.Queue[int], got []int) []int {
	for {
		v, ok := q.Pop()
		if !ok {
			return got
		}
		got = append(got, v)
	}
}

// One producer pushes 1 and 2 while one consumer pops twice; then main
// takes what is left. Everything comes out once, in the order pushed.
func TestExploreFIFO(t *testing.T) {
	check(t, "mpmc/fifo", func() {
		q := mpmc.New[int](2)
		var got []int
		p := explore.Go("P", func() {
			explore.Assert(q.Push(1) && q.Push(2), "a push refused with room for both")
		})
		c := explore.Go("C", func() {
			for range 2 {
				if v, ok := q.Pop(); ok {
					got = append(got, v) // one goroutine runs at a time
				}
			}
		})
		p.Join()
		c.Join()
		got = drain(q, got)
		explore.Assert(slices.Equal(got, []int{1, 2}), "popped %v, want [1 2]", got)
	})
}

// Two producers, one value each, and a consumer that pops once while
// they push: no value is lost or taken twice, and a slot claimed by one
// producer is never written by the other. (A second consumer multiplies
// the weak mode's schedules by ten: the CAS on the head between two
// consumers is the one between two producers on the tail.)
func TestExploreTwoProducers(t *testing.T) {
	check(t, "mpmc/two-producers", func() {
		q := mpmc.New[int](2)
		var got []int
		push := func(v int) func() {
			return func() { explore.Assert(q.Push(v), "push %d refused with room for it", v) }
		}
		a, b := explore.Go("A", push(1)), explore.Go("B", push(2))
		c := explore.Go("C", func() {
			if v, ok := q.Pop(); ok {
				got = append(got, v) // one goroutine runs at a time
			}
		})
		a.Join()
		b.Join()
		c.Join()
		got = drain(q, got)
		slices.Sort(got)
		explore.Assert(slices.Equal(got, []int{1, 2}), "popped %v, want each of 1, 2 once", got)
	})
}

// A queue of two slots, the first reused on the second lap: the producer
// pushes 1, 2 and 3, waiting while the queue is full; main pops three
// values, waiting while it is empty. The consumer's release store of the
// next lap's sequence is what orders its read of a value before the
// producer's next write of the slot.
func TestExploreWrap(t *testing.T) {
	check(t, "mpmc/wrap", func() {
		q := mpmc.New[int](2)
		var got []int
		p := explore.Go("P", func() {
			for v := 1; v <= 3; v++ {
				for !q.Push(v) {
					sync.Gosched()
				}
			}
		})
		for len(got) < 3 {
			if v, ok := q.Pop(); ok {
				got = append(got, v)
			} else {
				sync.Gosched()
			}
		}
		p.Join()
		explore.Assert(slices.Equal(got, []int{1, 2, 3}), "popped %v, want [1 2 3]", got)
	})
}
