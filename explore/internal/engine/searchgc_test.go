package engine

import (
	"runtime/debug"
	"testing"
)

// A search runs at searchGCPercent, or at the process's own GOGC if that
// is higher or off, and puts the process's back when it ends.
func TestSearchSetsAndRestoresGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, own := range []int{100, 1000, -1} {
		debug.SetGCPercent(own)
		var inside int
		Explore(Options{}, func() {
			inside = debug.SetGCPercent(-1)
			debug.SetGCPercent(inside)
		})
		want := searchGCPercent
		if own < 0 || own > searchGCPercent {
			want = own
		}
		if inside != want {
			t.Errorf("GOGC %d: the search ran at %d, want %d", own, inside, want)
		}
		if after := debug.SetGCPercent(own); after != own {
			t.Errorf("GOGC %d: %d after the search", own, after)
		}
	}
}

// Result.SharedOps counts every Point and PointAt of every run: two
// goroutines of two operations each and main's one, in every schedule.
func TestSharedOpsCountsEveryRunsPoints(t *testing.T) {
	res := Explore(Options{}, func() {
		Go("g", func() {
			PointAt(1, true)
			PointAt(1, true)
		})
		Go("h", func() {
			Point()
			Point()
		})
		PointAt(1, false)
	})
	if res.Schedules < 2 || res.SharedOps != 5*int64(res.Schedules) {
		t.Fatalf("%d shared operations in %d schedules: want 5 a schedule", res.SharedOps, res.Schedules)
	}
}
