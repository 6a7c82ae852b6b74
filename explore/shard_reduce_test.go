package explore

import (
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// The bounded reduced search splits: the parts' records, merged, are the
// whole search's (each subtree counted once). A scenario that asks for the
// unbounded reduced search, or the class comparison, neither of which
// splits, runs whole in part 0 (its record has no part, so the merge
// passes it through once) and the other parts leave it out; either set by
// the environment for a split search fails, as the user asked for what
// cannot be done. A
// scenario that chose the state cache keeps it in a part, as in the whole
// search, when the environment asks for the reduced search.
func TestCheckSplitsTheBoundedReducedSearch(t *testing.T) {
	for _, env := range []string{ReplayEnv, ReduceEnv, LongEnv, ClassesEnv, ClaimsEnv, RecordsEnv, DepsEnv, CacheEnv} {
		t.Setenv(env, "")
	}
	body := twoStoresTwoLoadsToy
	t.Setenv(ShardEnv, "")
	whole, _ := check("toy/reduced", "TestToyReduced", Options{Reduce: true}, body).record(t)
	if whole.Mode != "dpor" || !whole.Exhaustive || whole.Schedules < 10 {
		t.Fatalf("the whole reduced search: %+v", whole)
	}
	var parts []Record
	for _, sh := range []string{"0/2", "1/2"} {
		t.Setenv(ShardEnv, sh)
		tb := check("toy/reduced", "TestToyReduced", Options{Reduce: true}, body)
		rec, _ := tb.record(t)
		if tb.failed || tb.skipped || rec.Shard != sh || rec.Mode != "dpor" || !rec.Exhaustive || len(rec.Subtrees) == 0 || rec.Schedules >= whole.Schedules {
			t.Errorf("part %s: failed %v, skipped %v, record %+v; want a part of the reduced search", sh, tb.failed, tb.skipped, rec)
		}
		parts = append(parts, rec)
	}
	ms, err := MergeRecords(parts)
	if err != nil || len(ms) != 1 || ms[0].Schedules != whole.Schedules || ms[0].Steps != whole.Steps || !ms[0].Exhaustive || ms[0].Subtrees != nil {
		t.Errorf("merged: %+v, %v; the whole search: %d schedules, %d steps", ms, err, whole.Schedules, whole.Steps)
	}

	t.Setenv(ShardEnv, "1/2")
	tb := check("toy/unbounded", "TestToyUnbounded", Options{Reduce: true, Unbounded: true}, body)
	if tb.failed || !tb.skipped {
		t.Errorf("unbounded, part 1 of 2: failed %v, skipped %v; want skipped:\n%s", tb.failed, tb.skipped, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ShardEnv, "0/2")
	tb = check("toy/unbounded", "TestToyUnbounded", Options{Reduce: true, Unbounded: true}, body)
	rec, _ := tb.record(t)
	if tb.failed || tb.skipped || rec.Shard != "" || rec.Mode != "dpor" || !rec.Exhaustive {
		t.Errorf("unbounded, part 0 of 2: failed %v, skipped %v, record %+v; want the whole reduced search", tb.failed, tb.skipped, rec)
	}
	// The class comparison the scenario asks for itself: the same.
	tb = check("toy/classes", "TestToyClasses", Options{CompareClasses: true}, body)
	if tb.failed || tb.skipped || !strings.Contains(strings.Join(tb.logs, "\n"), "the class comparison does not split into parts: this part, 0 of 2, runs it whole") {
		t.Errorf("the class comparison, part 0 of 2: failed %v, skipped %v; want it whole:\n%s", tb.failed, tb.skipped, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ShardEnv, "1/2")
	tb = check("toy/classes", "TestToyClasses", Options{CompareClasses: true}, body)
	if tb.failed || !tb.skipped {
		t.Errorf("the class comparison, part 1 of 2: failed %v, skipped %v; want skipped:\n%s", tb.failed, tb.skipped, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ClassesEnv, "1")
	tb = check("toy/plain", "TestToyPlain", Options{}, body)
	if !tb.failed {
		t.Errorf("%s=1 with a split search: not failed:\n%s", ClassesEnv, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ClassesEnv, "")
	t.Setenv(ShardEnv, "0/2")
	t.Setenv(ReduceEnv, "unbounded")
	tb = check("toy/plain", "TestToyPlain", Options{}, body)
	if !tb.failed {
		t.Errorf("%s=unbounded with a split search: not failed:\n%s", ReduceEnv, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ReduceEnv, "1")
	tb = check("toy/cached", "TestToyCached", Options{StateCache: true}, body)
	if rec, _ := tb.record(t); tb.failed || rec.Mode != "dfs" || rec.Shard != "0/2" || !rec.Exhaustive || !strings.Contains(strings.Join(tb.logs, "\n"), "the plain search with the state cache, the scenario's own choice") {
		t.Errorf("a scenario that chose the state cache, %s=1, in a part: failed %v, record %+v; want the cached plain search's part, said:\n%s", ReduceEnv, tb.failed, rec, strings.Join(tb.logs, "\n"))
	}
}

// twoStoresTwoLoadsToy is two goroutines that each store to one location
// and load the other, beside main's load of both: enough branching for a
// reduced search of a few dozen schedules to split.
func twoStoresTwoLoadsToy() {
	var x, y tloc
	a := Go("A", func() { x.store(1, engine.SeqCst); y.load(engine.SeqCst) })
	b := Go("B", func() { y.store(1, engine.SeqCst); x.load(engine.SeqCst) })
	x.load(engine.SeqCst)
	y.load(engine.SeqCst)
	a.Join()
	b.Join()
}

// storeLoadToy is a goroutine's seq_cst store racing main's seq_cst load
// of the same location: a search of a few schedules in either mode.
func storeLoadToy() {
	var x tloc
	a := Go("A", func() { x.store(1, engine.SeqCst) })
	x.load(engine.SeqCst)
	a.Join()
}
