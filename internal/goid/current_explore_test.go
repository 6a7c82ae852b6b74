//go:build explore

package goid_test

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/goid"
)

// Under the explorer, the numbers come from it: one goroutine keeps its
// number, two goroutines never share one, and none is a runtime number
// (those are positive), so a worker recorded in one schedule is never
// taken for a goroutine of another. Outside a run, the runtime's number.
func TestExploreGoroutineNumbers(t *testing.T) {
	seen := map[int64]bool{}
	explore.Check(t, "goid/numbers", explore.Options{}, func() {
		main := goid.Current()
		var child int64
		explore.Go("child", func() {
			child = goid.Current()
			explore.Assert(goid.Current() == child, "a goroutine's number changed: %d then %d", child, goid.Current())
		}).Join()
		explore.Assert(main < 0 && child < 0, "explorer numbers %d and %d: want negative", main, child)
		explore.Assert(main != child, "two goroutines share the number %d", main)
		explore.Assert(goid.Current() == main, "main's number changed: %d then %d", main, goid.Current())
		explore.Assert(!seen[main] && !seen[child], "a number of an earlier schedule came back: %d or %d", main, child)
		seen[main], seen[child] = true, true
	})
	if id := goid.Current(); id <= 0 {
		t.Fatalf("outside a run goid.Current() = %d, want the runtime's (positive) number", id)
	}
}
