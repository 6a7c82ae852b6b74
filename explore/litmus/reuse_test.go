package litmus

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wsched/wsched/internal/rapidcases"
	"pgregory.net/rapid"
)

// An execution in a Model made from the last one's (weak.NewFrom) sees
// what it would see in a new Model: on programs drawn by rapid, every
// execution, in the order each runs them, has the same outcome with the
// Models reused as with each made anew. The programs mix every kind of
// operation and ordering, seq_cst and fences among them, so that the
// reused blocks held store bookkeeping, seq_cst nodes and views before.
func TestReusedModelsSeeWhatNewOnesSee(t *testing.T) {
	rapidcases.FewerUnderRace(t)
	rapid.Check(t, func(rt *rapid.T) {
		test := drawTest(rt)
		reused, fresh := runsOf(test, false), runsOf(test, true)
		if !slices.Equal(reused, fresh) {
			rt.Fatalf("%s: %d executions with Models reused, %d with new ones; first difference at %d", test.Name, len(reused), len(fresh), firstDiff(reused, fresh))
		}
	})
}

// runsOf is the outcome of every execution of test, in the order each
// runs them, with freshModels set to fresh.
func runsOf(test Test, fresh bool) []string {
	defer func(was bool) { freshModels = was }(freshModels)
	freshModels = fresh
	var out []string
	test.each(false, func(e *Execution) bool {
		out = append(out, e.Outcome)
		return true
	})
	return out
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// drawTest draws 2 or 3 threads of 2 or 3 operations on the locations x
// and y and the plain cell d.
func drawTest(rt *rapid.T) Test {
	orders := []Ordering{Relaxed, Acquire, Release, AcqRel, SeqCst}
	order := func(label string, ok func(Ordering) bool) Ordering {
		var some []Ordering
		for _, o := range orders {
			if ok(o) {
				some = append(some, o)
			}
		}
		return rapid.SampledFrom(some).Draw(rt, label)
	}
	loads := func(o Ordering) bool { return o != Release && o != AcqRel }
	stores := func(o Ordering) bool { return o != Acquire && o != AcqRel }
	everyOrder := func(Ordering) bool { return true }
	fences := func(o Ordering) bool { return o != Relaxed }
	test := Test{Name: "drawn", Final: []string{"x", "y"}}
	regs, vals := 0, 0
	for range rapid.IntRange(2, 3).Draw(rt, "threads") {
		var ops []Op
		for range rapid.IntRange(2, 3).Draw(rt, "ops") {
			loc := rapid.SampledFrom([]string{"x", "y"}).Draw(rt, "loc")
			reg := fmt.Sprintf("r%d", regs)
			switch rapid.IntRange(0, 6).Draw(rt, "op") {
			case 0:
				ops, regs = append(ops, Load(reg, loc, order("load", loads))), regs+1
			case 1:
				vals++
				ops = append(ops, Store(loc, vals, order("store", stores)))
			case 2:
				ops, regs = append(ops, Add(reg, loc, 1, order("add", everyOrder))), regs+1
			case 3:
				vals++
				ops, regs = append(ops, CAS(reg, loc, rapid.IntRange(0, 2).Draw(rt, "expected"), vals, order("cas", everyOrder), order("cas failure", loads))), regs+1
			case 4:
				ops = append(ops, Fence(order("fence", fences)))
			case 5:
				ops = append(ops, Write("d"))
			case 6:
				ops = append(ops, Read("d"))
			}
		}
		test.Threads = append(test.Threads, ops)
	}
	return test
}
