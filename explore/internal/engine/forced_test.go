package engine

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The depth-first search skips its forced points (run.goOn): once a
// schedule has made as many preemptions as the bound allows, a point at
// which the running goroutine can go on is no decision. These tests run
// each search twice, skipping them and deciding at every point as before,
// and want the same schedules in the same order, the same counts, and
// the same failure, token and trace included.

// loggedProgram is program(gs) with every operation's goroutine and what
// it observed appended to *log, and a schedule separator at each start:
// the log is the sequence of interleavings the search ran. With fail
// set, a schedule whose integers end as fail says fails.
func loggedProgram(gs [][]progOp, log *[]int, fail []int) func() {
	body := programEach(gs, func(i int, w *progWorld, o progOp) {
		var seen []int
		w.do(o, &seen)
		*log = append(*log, 100+i)
		*log = append(*log, seen...)
	}, func(w *progWorld) {
		if fail != nil {
			Assert(w.xs[0].v != fail[0] || w.xs[1].v != fail[1], "xs[0], xs[1] = %d, %d", w.xs[0].v, w.xs[1].v)
		}
	})
	return func() {
		*log = append(*log, -1)
		body()
	}
}

// sameWithAndWithoutSkipping runs the search of body(log) under opt both
// ways and fails t unless the two agree in everything. It returns how
// many forced points the second search skipped (the first skips none).
func sameWithAndWithoutSkipping(t interface{ Fatalf(string, ...any) }, what string, opt Options, body func(log *[]int) func()) (skipped int64) {
	var logs [2][]int
	var res [2]Result
	defer func() { skipForcedPoints = true }()
	for i, skip := range []bool{false, true} {
		skipForcedPoints = skip
		before := forcedSkipped.Load()
		res[i] = Explore(opt, body(&logs[i]))
		if n := forcedSkipped.Load() - before; skip {
			skipped = n
		} else if n != 0 {
			t.Fatalf("%s: %d forced points skipped with the skip off", what, n)
		}
	}
	sameResults(t, what, "deciding at every point", "skipping the forced ones", res[0], res[1])
	fb := res[1].Failure
	if segs := segments(logs[1]); fb != nil && !slices.Equal(logs[0], logs[1]) && len(segs) >= 3 {
		// Skipping, a failing schedule of the search (not of the
		// estimate's probes) is run once more before the traced replay
		// (withForced), the same interleaving.
		n := len(segs)
		if !slices.Equal(segs[n-3], segs[n-2]) {
			t.Fatalf("%s: the failing schedule's rerun ran another interleaving", what)
		}
		logs[1] = slices.Concat(append(segs[:n-2:n-2], segs[n-1])...)
	}
	if !slices.Equal(logs[0], logs[1]) {
		t.Fatalf("%s: the searches ran other schedules (%d and %d log entries)", what, len(logs[0]), len(logs[1]))
	}
	return skipped
}

// sameResults fails t unless the results a and b of two ways (one and
// other) of running one search agree in everything but their times: the
// counts, the verdict, and the failure with its token and trace.
func sameResults(t interface{ Fatalf(string, ...any) }, what, one, other string, a, b Result) {
	a.Elapsed, b.Elapsed = 0, 0
	fa, fb := a.Failure, b.Failure
	a.Failure, b.Failure = nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: %s %+v, %s %+v", what, one, a, other, b)
	}
	if (fa == nil) != (fb == nil) || fa != nil && (fa.Token != fb.Token || fa.Schedule != fb.Schedule || fa.Preemptions != fb.Preemptions || fa.Message != fb.Message || fa.Trace != fb.Trace) {
		t.Fatalf("%s: %s fails with %+v, %s with %+v", what, one, fa, other, fb)
	}
}

// segments splits a log at each schedule's start.
func segments(log []int) [][]int {
	var segs [][]int
	for i, v := range log {
		if v == -1 {
			segs = append(segs, nil)
		}
		segs[len(segs)-1] = append(segs[len(segs)-1], log[i])
	}
	return segs
}

func TestSkippedForcedPointsRunTheSameSchedules(t *testing.T) {
	fewerProgramsUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		gs := genProgramOf(t, true)
		var fail []int
		if rapid.Bool().Draw(t, "fails") {
			fail = []int{rapid.IntRange(0, 3).Draw(t, "x0"), rapid.IntRange(0, 3).Draw(t, "x1")}
		}
		for _, b := range []int{-1, 1, 2} {
			what := fmt.Sprintf("%v fail %v bound %d", gs, fail, b)
			skipped := sameWithAndWithoutSkipping(t, what, Options{Preemptions: b, MaxSchedules: 1_000_000},
				func(log *[]int) func() { return loggedProgram(gs, log, fail) })
			if b == -1 && skipped == 0 {
				// At bound 0 every point at which a goroutine can go
				// on is forced: a comparison that skipped none
				// compared nothing.
				t.Fatalf("%s: no forced point skipped", what)
			}
		}
		// A budget that ends the search in the middle of a round.
		sameWithAndWithoutSkipping(t, fmt.Sprintf("%v fail %v budget 7", gs, fail), Options{Preemptions: 2, MaxSchedules: 7},
			func(log *[]int) func() { return loggedProgram(gs, log, fail) })
	})
}

// The toys' failures: the same schedule, token and trace either way.
func TestSkippedForcedPointsFindTheSameFailures(t *testing.T) {
	for _, b := range []int{-1, 1, 2} {
		what := fmt.Sprintf("racy counter, bound %d", b)
		if sameWithAndWithoutSkipping(t, what, Options{Preemptions: b},
			func(log *[]int) func() { return racyCounter }) == 0 {
			t.Fatalf("%s: no forced point skipped", what)
		}
	}
}
