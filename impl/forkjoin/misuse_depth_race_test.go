//go:build race

package forkjoin_test

import (
	"testing"
	"time"

	"github.com/wsched/wsched/impl/forkjoin"
)

// The goroutine check a build with the race detector makes on every Join,
// Scope and Spawn costs the same whatever the depth of the job's stack.
// The same sequence (Joins, and a Scope with spawns) is timed from a job
// at depth 10 and at depth 5,000, alternately, in short rounds, on a
// one-worker pool (no thief to vary the work), and the best round of each
// compared: a ratio within one run, with room for any load (flat, the
// ratio is about 1; the bound is 10). Reading the goroutine number from a
// stack trace on every call, as the check once did, made the deep
// sequence some fifty times slower, and a recursive fork-join program
// quadratic in its depth.
func TestMisuseCheckCostFlatInDepth(t *testing.T) {
	p := newPool(t, 1)
	const joins, spawns = 500, 100
	noop := func(*forkjoin.Worker) {}
	measure := func(depth int) time.Duration {
		var took time.Duration
		if err := runWithin(t, p, func(w *forkjoin.Worker) {
			atDepth(depth, func() {
				begin := time.Now()
				for range joins {
					_ = w.Join(noop, noop)
				}
				_ = w.Scope(func(s *forkjoin.Scope) {
					for range spawns {
						_ = s.Spawn(func(*forkjoin.Scope) {})
					}
				})
				took = time.Since(begin)
			})
		}); err != nil {
			t.Fatal(err)
		}
		return took
	}
	var shallow, deep time.Duration
	begin := time.Now()
	for r := 0; r < 15 && (r < 3 || time.Since(begin) < 3*time.Second); r++ {
		if d := measure(10); shallow == 0 || d < shallow {
			shallow = d
		}
		if d := measure(5000); deep == 0 || d < deep {
			deep = d
		}
	}
	ratio := float64(deep) / float64(shallow)
	t.Logf("depth 10: %v, depth 5000: %v, ratio %.2f", shallow, deep, ratio)
	if ratio > 10 {
		t.Fatalf("the sequence took %v at depth 5000, %v at depth 10: %.1f times (want under 10): the check's cost grows with the stack", deep, shallow, ratio)
	}
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
