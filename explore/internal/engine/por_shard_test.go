package engine

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// The parts of a sharded reduced search against the whole one: the
// schedules the parts run, as a set, are the whole search's; the subtrees
// two parts both ran, they ran alike; and each subtree counted once adds
// up to the whole search's counts.

// reducedRuns runs the bounded reduced search under opt and returns each
// schedule it ran (round and token) with how often, its probes left out,
// and its result.
func reducedRuns(opt Options, body func()) (map[string]int, Result) {
	opt = opt.WithDefaults()
	opt.Reduce = true
	runs := map[string]int{}
	e := &explorer{opt: opt, body: body}
	e.onRun = func(r *run) {
		if !e.probing {
			runs[fmt.Sprintf("%d %s", e.res.Bound, encodeToken(opt, r.decisions))]++
		}
	}
	return runs, e.reduced()
}

type subtreeKey struct{ bound, at, choice, at2, choice2 int }

// reducedShardStats is what checkReducedShards measured: the parts' runs
// in all, and those of the longest part, against the whole search's.
type reducedShardStats struct{ whole, parts, longest int }

// checkReducedShards compares the n parts of the reduced search of body
// under opt with the whole search.
func checkReducedShards(t interface {
	Helper()
	Fatalf(string, ...any)
}, what string, opt Options, body func(), n int) reducedShardStats {
	t.Helper()
	whole, wres := reducedRuns(opt, body)
	st := reducedShardStats{whole: wres.Schedules}
	union := map[string]int{}
	subs := map[subtreeKey]Subtree{}
	var failing []int
	exhaustive := true
	for k := range n {
		o := opt
		o.Shard = Shard{K: k, N: n}
		runs, res := reducedRuns(o, body)
		st.parts += res.Schedules
		st.longest = max(st.longest, res.Schedules)
		for r, c := range runs {
			union[r] += c
		}
		exhaustive = exhaustive && res.Exhaustive
		if res.Failure != nil {
			failing = append(failing, k)
			continue
		}
		sum := 0
		for _, s := range res.Subtrees {
			sum += s.Schedules
			key := subtreeKey{s.Bound, s.At, s.Choice, s.At2, s.Choice2}
			if old, ok := subs[key]; ok && (old.Schedules != s.Schedules || old.Steps != s.Steps) {
				t.Fatalf("%s, %d parts: subtree %v ran %d schedules, %d steps in one part and %d, %d in part %d", what, n, key, old.Schedules, old.Steps, s.Schedules, s.Steps, k)
			}
			subs[key] = s
		}
		if sum != res.Schedules {
			t.Fatalf("%s, part %d/%d: its subtrees hold %d schedules, it ran %d", what, k, n, sum, res.Schedules)
		}
	}
	if wres.Failure != nil || len(failing) > 0 {
		if wres.Failure == nil || len(failing) == 0 {
			t.Fatalf("%s, %d parts: the whole search fails: %v; the parts that fail: %v", what, n, wres.Failure != nil, failing)
		}
		return st // the searches stop at their failures: no counts to add up
	}
	var schedules int
	var steps int64
	for _, s := range subs {
		schedules += s.Schedules
		steps += s.Steps
	}
	if schedules != wres.Schedules || steps != wres.Steps || exhaustive != wres.Exhaustive {
		t.Fatalf("%s, %d parts: the subtrees once each hold %d schedules, %d steps, exhaustive %v; the whole search: %d, %d, %v",
			what, n, schedules, steps, exhaustive, wres.Schedules, wres.Steps, wres.Exhaustive)
	}
	for r := range whole {
		if union[r] == 0 {
			t.Fatalf("%s, %d parts: schedule %s of the whole search run by no part", what, n, r)
		}
	}
	for r := range union {
		if whole[r] == 0 {
			t.Fatalf("%s, %d parts: schedule %s run by a part, never by the whole search", what, n, r)
		}
	}
	return st
}

func TestReducedShardsAddUpToTheWholeSearchOnGeneratedPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	var st [4]reducedShardStats
	rapid.Check(t, func(t *rapid.T) {
		gs := genProgram(t)
		for i, b := range []int{-1, 1, 2} {
			for _, n := range []int{2, 3} {
				s := checkReducedShards(t, fmt.Sprintf("%v at %d", gs, b), Options{Preemptions: b, MaxSchedules: 1_000_000}, program(gs), n)
				if n == 2 {
					st[i].whole += s.whole
					st[i].parts += s.parts
					st[i].longest += s.longest
				}
			}
		}
	})
	for i, s := range st[:3] {
		t.Logf("bound %d, 2 parts: the whole searches %d schedules, the parts %d in all, the longer parts %d", i, s.whole, s.parts, s.longest)
	}
}

func TestReducedShardsAddUpToTheWholeSearchOnGeneratedWeakPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		gs := genWeakProgram(t)
		body := weakProgram(gs, map[string]bool{})
		for _, b := range []int{-1, 1} {
			for _, n := range []int{2, 3} {
				checkReducedShards(t, fmt.Sprintf("%v at %d", gs, b), Options{Weak: true, Preemptions: b, MaxSchedules: 1_000_000}, body, n)
			}
		}
	})
}

// A failing search: the lost update. The whole search fails, and so does
// a part.
func TestReducedShardsFindTheWholeSearchsFailure(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		checkReducedShards(t, "racy counter", Options{Preemptions: 2}, racyCounter, n)
	}
}
