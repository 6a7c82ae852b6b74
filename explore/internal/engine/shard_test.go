package engine

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The parts of a sharded search against the whole one: every schedule the
// whole search runs (by round and token) is run by exactly one part, no
// part runs one the whole search does not, and the counts add up.

// shardRuns runs the depth-first search under opt and returns what it
// counted: each schedule (round and token) the search ran as its own.
func shardRuns(opt Options, body func()) (map[string]int, Result) {
	opt = opt.WithDefaults()
	runs := map[string]int{}
	e := &explorer{opt: opt, body: body}
	e.onRun = func(r *run) {
		if opt.Shard.mine(r.decisions, e.res.Bound) {
			runs[fmt.Sprintf("%d %s", e.res.Bound, encodeToken(opt, r.decisions))]++
		}
	}
	return runs, e.dfs()
}

// checkShards compares the n parts of the search of body under opt with
// the whole search.
func checkShards(t interface {
	Helper()
	Fatalf(string, ...any)
}, what string, opt Options, body func(), n int) {
	t.Helper()
	whole, wres := shardRuns(opt, body)
	union := map[string]int{}
	var schedules int
	var steps int64
	exhaustive := true
	var tokens []string
	for k := range n {
		o := opt
		o.Shard = Shard{K: k, N: n}
		runs, res := shardRuns(o, body)
		for r, c := range runs {
			union[r] += c
		}
		schedules += res.Schedules
		steps += res.Steps
		exhaustive = exhaustive && res.Exhaustive
		if res.Failure != nil {
			tokens = append(tokens, res.Failure.Token)
		}
	}
	if wres.Failure != nil {
		if !slices.Contains(tokens, wres.Failure.Token) {
			t.Fatalf("%s, %d parts: the whole search fails with %s, the parts with %v", what, n, wres.Failure.Token, tokens)
		}
		return // the searches stop at their failures: no counts to add up
	}
	if len(tokens) > 0 {
		t.Fatalf("%s, %d parts: the whole search passes, parts fail with %v", what, n, tokens)
	}
	if schedules != wres.Schedules || steps != wres.Steps || exhaustive != wres.Exhaustive {
		t.Fatalf("%s, %d parts: %d schedules, %d steps, exhaustive %v; the whole search: %d, %d, %v",
			what, n, schedules, steps, exhaustive, wres.Schedules, wres.Steps, wres.Exhaustive)
	}
	if !maps.Equal(union, whole) {
		for r, c := range whole {
			if union[r] != c {
				t.Fatalf("%s, %d parts: schedule %s run %d times by the parts, %d by the whole search", what, n, r, union[r], c)
			}
		}
		for r, c := range union {
			if whole[r] == 0 {
				t.Fatalf("%s, %d parts: schedule %s run %d times by the parts, never by the whole search", what, n, r, c)
			}
		}
	}
}

func TestShardsAddUpToTheWholeSearchOnGeneratedPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		gs := genProgram(t)
		for _, n := range []int{2, 3, 5} {
			checkShards(t, fmt.Sprint(gs), Options{MaxSchedules: 1_000_000}, program(gs), n)
		}
	})
}

func TestShardsAddUpToTheWholeSearchOnGeneratedWeakPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		gs := genWeakProgram(t)
		body := weakProgram(gs, map[string]bool{})
		for _, n := range []int{2, 3} {
			checkShards(t, fmt.Sprint(gs), Options{Weak: true, Preemptions: 1, MaxSchedules: 1_000_000}, body, n)
		}
	})
}

// A failing search: the lost update. Each part that holds a failing
// schedule finds one, and the whole search's is among them.
func TestShardsFindTheWholeSearchsFailure(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		checkShards(t, "racy counter", Options{}, racyCounter, n)
	}
}

func TestParseShard(t *testing.T) {
	for s, want := range map[string]Shard{"0/2": {0, 2}, "2/3": {2, 3}, "0/1": {0, 1}} {
		if got, err := ParseShard(s); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "1", "2/2", "-1/2", "0/0", "a/b", "1/2/3"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q): no error", s)
		}
	}
}

// PCT's random schedules split by index: the parts run them all once.
func TestShardsSplitPCT(t *testing.T) {
	body := func() {
		var x toyInt
		a, b := Go("A", func() { x.Add(1) }), Go("B", func() { x.Add(1) })
		a.Join()
		b.Join()
	}
	whole := Explore(Options{PCT: 50, Seed: 3}, body)
	sum := 0
	var steps int64
	for k := range 3 {
		res := Explore(Options{PCT: 50, Seed: 3, Shard: Shard{K: k, N: 3}}, body)
		sum += res.Schedules
		steps += res.Steps
	}
	if whole.Failure != nil || sum != whole.Schedules || steps != whole.Steps {
		t.Fatalf("PCT in 3 parts: %d schedules, %d steps; whole: %d, %d (%v)", sum, steps, whole.Schedules, whole.Steps, whole.Failure)
	}
}
