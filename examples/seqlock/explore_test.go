//go:build explore

package seqlock_test

import (
	"testing"

	"github.com/wsched/wsched/examples/seqlock"
	"github.com/wsched/wsched/explore"
)

// The writer stores (1, 1) and then (2, 2) while a reader loads twice.
// Every load is a pair some Store wrote (or the initial one), never one
// word of each, and the reader never sees the pair go back; after both
// goroutines, main loads (2, 2).
func TestExploreNoTornRead(t *testing.T) {
	res := explore.Check(t, "seqlock/no-torn-read", explore.Options{}, func() {
		var p seqlock.Pair
		w := explore.Go("W", func() {
			p.Store(1, 1)
			p.Store(2, 2)
		})
		r := explore.Go("R", func() {
			var last uint64
			for range 2 {
				a, b := p.Load()
				explore.Assert(a == b, "torn read: (%d, %d)", a, b)
				explore.Assert(a >= last, "the pair went back from %d to %d", last, a)
				last = a
			}
		})
		w.Join()
		r.Join()
		a, b := p.Load()
		explore.Assert(a == 2 && b == 2, "after both stores main loads (%d, %d)", a, b)
	})
	if !res.Exhaustive {
		t.Fatalf("the search was cut after %d schedules: raise the budget", res.Schedules)
	}
}
