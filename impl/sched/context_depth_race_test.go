//go:build race

package sched

import (
	"testing"
	"time"
)

// The goroutine check a build with the race detector makes on every
// Context call costs the same whatever the depth of the poll's stack. The
// same sequence of calls (Worker and Sleep, the loop of a task that sets
// its timeout at every step) is timed from a poll at depth 10 and at
// depth 5,000, alternately, in short rounds, and the best round of each
// compared: a ratio within one run, with room for any load (flat, the
// ratio is about 1; the bound is 10). Reading the goroutine number from a
// stack trace on every call, as the check once did, made the deep
// sequence a hundred times slower and more than the shallow one.
func TestContextCheckCostFlatInDepth(t *testing.T) {
	rt := start(t, testConfig(1))
	const calls = 1000
	measure := func(depth int) time.Duration {
		var took time.Duration
		h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			atDepth(depth, func() {
				begin := time.Now()
				for range calls {
					cx.Worker()
					if err := cx.Sleep(time.Hour); err != nil {
						t.Error(err)
					}
				}
				took = time.Since(begin)
			})
			return Ready
		}))
		mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		return took
	}
	shallow, deep := bestOf(15, measure, 10, 5000)
	ratio := float64(deep) / float64(shallow)
	t.Logf("depth 10: %v, depth 5000: %v, ratio %.2f", shallow, deep, ratio)
	if ratio > 10 {
		t.Fatalf("%d Context calls took %v at depth 5000, %v at depth 10: %.1f times (want under 10): the check's cost grows with the stack", 2*calls, deep, shallow, ratio)
	}
}

// bestOf runs measure at the two depths, alternately, rounds times each
// (fewer, but at least 3, once 3 s have gone by), and returns the
// shortest time at each.
func bestOf(rounds int, measure func(depth int) time.Duration, shallowDepth, deepDepth int) (shallow, deep time.Duration) {
	begin := time.Now()
	for r := 0; r < rounds && (r < 3 || time.Since(begin) < 3*time.Second); r++ {
		if d := measure(shallowDepth); shallow == 0 || d < shallow {
			shallow = d
		}
		if d := measure(deepDepth); deep == 0 || d < deep {
			deep = d
		}
	}
	return shallow, deep
}

// atDepth calls f from depth nested calls of its own.
//
//go:noinline
func atDepth(depth int, f func()) {
	if depth == 0 {
		f()
		return
	}
	atDepth(depth-1, f)
}
