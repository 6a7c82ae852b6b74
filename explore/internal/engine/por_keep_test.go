package engine

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The reduced search keeps the analysis of a run's replayed steps from
// the run before (por_keep.go). These tests run each search twice,
// analysing every step of every run and keeping, and want the same
// schedules in the same order and the same result, and that the second
// kept something (a comparison that kept nothing compared nothing).

// keptStats is what the searches of the last sameKeptOrNot kept.
type keptStats struct{ kept, diverged int }

// sameKeptOrNot runs the search of body(log) under opt without keeping
// and with it, and fails t unless the two agree in everything. It
// returns what the second kept, over its rounds.
func sameKeptOrNot(t interface{ Fatalf(string, ...any) }, what string, opt Options, body func(log *[]int) func()) keptStats {
	var logs [2][]int
	var res [2]Result
	var st keptStats
	defer func() { keepPrefix, onPorRound = true, nil }()
	onPorRound = func(s porStats) { st.kept, st.diverged = st.kept+s.kept, st.diverged+s.diverged }
	for i, keep := range []bool{false, true} {
		keepPrefix = keep
		st = keptStats{}
		k0, d0 := cacheKept.Load(), cacheDiverged.Load()
		res[i] = Explore(opt, body(&logs[i]))
		st.kept += int(cacheKept.Load() - k0) // the state cache's search (no porStats)
		st.diverged += int(cacheDiverged.Load() - d0)
		if !keep && st != (keptStats{}) {
			t.Fatalf("%s: %+v with the keeping off", what, st)
		}
	}
	sameResults(t, what, "analysing every step", "keeping the replayed ones' analysis", res[0], res[1])
	if !slices.Equal(logs[0], logs[1]) {
		t.Fatalf("%s: the searches ran other schedules (%d and %d log entries)", what, len(logs[0]), len(logs[1]))
	}
	return st
}

// keptOptions are the reduced searches compared: unbounded (wakeup
// trees in the plain mode, source sets in the weak), bounds 0 to 2, and a
// budget that ends the search in the middle of a round; and the plain
// search with the state cache, which keeps the analysis the same way (its
// cuts, which hash each step's clock and, in the weak mode, its choices of
// store, must be the same).
func keptOptions(weak bool) map[string]Options {
	opts := map[string]Options{
		"no bound":  {Reduce: true, Unbounded: true, Weak: weak, MaxSchedules: 6000},
		"bound 0":   {Reduce: true, Preemptions: -1, Weak: weak, MaxSchedules: 40000},
		"bound 1":   {Reduce: true, Preemptions: 1, Weak: weak, MaxSchedules: 40000},
		"bound 2":   {Reduce: true, Preemptions: 2, Weak: weak, MaxSchedules: 40000},
		"budget 7":  {Reduce: true, Preemptions: 2, Weak: weak, MaxSchedules: 7},
		"budget 30": {Reduce: true, Unbounded: true, Weak: weak, MaxSchedules: 30},
	}
	opts["cached bound 1"] = Options{StateCache: true, Preemptions: 1, Weak: weak, MaxSchedules: 40000}
	opts["cached bound 2"] = Options{StateCache: true, Preemptions: 2, Weak: weak, MaxSchedules: 40000}
	opts["cached budget 7"] = Options{StateCache: true, Preemptions: 2, Weak: weak, MaxSchedules: 7}
	return opts
}

func TestKeptPrefixRunsTheSameSchedules(t *testing.T) {
	fewerProgramsUnderRace(t)
	kept := 0
	rapid.Check(t, func(t *rapid.T) {
		gs := genProgramOf(t, true)
		var fail []int
		if rapid.Bool().Draw(t, "fails") {
			fail = []int{rapid.IntRange(0, 3).Draw(t, "x0"), rapid.IntRange(0, 3).Draw(t, "x1")}
		}
		for name, opt := range keptOptions(false) {
			st := sameKeptOrNot(t, fmt.Sprintf("%v fail %v %s", gs, fail, name), opt,
				func(log *[]int) func() { return loggedProgram(gs, log, fail) })
			if st.diverged != 0 {
				t.Fatalf("%v %s: %d runs diverged from a deterministic program's", gs, name, st.diverged)
			}
			kept += st.kept
		}
	})
	if kept == 0 {
		t.Fatal("no replayed step's analysis kept: nothing compared")
	}
}

func TestKeptPrefixRunsTheSameSchedulesInTheWeakMode(t *testing.T) {
	fewerProgramsUnderRace(t)
	kept := 0
	rapid.Check(t, func(t *rapid.T) {
		gs := genWeakProgram(t)
		for name, opt := range keptOptions(true) {
			var seen [2]map[string]bool
			i := 0
			st := sameKeptOrNot(t, fmt.Sprintf("%v %s", gs, name), opt, func(log *[]int) func() {
				seen[i] = map[string]bool{}
				body := weakProgram(gs, seen[i])
				i++
				return func() {
					*log = append(*log, -1)
					body()
				}
			})
			if !reflect.DeepEqual(seen[0], seen[1]) {
				t.Fatalf("%v %s: outcomes %v analysing every step, %v keeping", gs, name, seen[0], seen[1])
			}
			kept += st.kept
		}
	})
	if kept == 0 {
		t.Fatal("no replayed step's analysis kept: nothing compared")
	}
}

// A program that does not replay as it ran: in every third run one step
// touches a location more, in another a location the step before touched
// under another name. The keeping stops at the step that differs, and
// the search is the one that analyses every step.
func TestKeptPrefixStopsWhereAReplayDiverges(t *testing.T) {
	for name, opt := range keptOptions(false) {
		if opt.MaxSchedules < 1000 {
			continue
		}
		var runs int
		st := sameKeptOrNot(t, name, opt, func(log *[]int) func() {
			runs = 0
			return func() {
				runs++
				*log = append(*log, -1)
				var xs [3]loc
				var ts []*Thread
				for g := range 3 {
					ts = append(ts, Go(fmt.Sprint("g", g), func() {
						for k := range 3 {
							x := &xs[(g+k)%3]
							switch {
							case k == 1 && g == 1 && runs%3 == 1:
								Touch(xs[2].at(), false) // one location more
							case k == 2 && g == 2 && runs%3 == 2:
								x = &xs[(g+k+1)%3] // another location
							}
							*log = append(*log, 10*g+x.Add(1))
						}
					}))
				}
				for _, t := range ts {
					t.Join()
				}
			}
		})
		if st.diverged == 0 || st.kept == 0 {
			t.Fatalf("%s: %+v: the comparison did not compare a replay that diverged", name, st)
		}
	}
}
