package explore

import (
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// A scenario that asks for the reduced search itself, in a layer run in
// parts: part 0 runs it whole (its record has no part, so the merge
// passes it through once), the other parts leave it out; the reduced
// search set by the environment for a split search still fails, as the
// user asked for what cannot be done.
func TestCheckRunsAScenariosReducedSearchWholeInPartZero(t *testing.T) {
	for _, env := range []string{ReplayEnv, ReduceEnv, LongEnv, ClassesEnv, ClaimsEnv, RecordsEnv, DepsEnv} {
		t.Setenv(env, "")
	}
	body := storeLoadToy
	t.Setenv(ShardEnv, "1/2")
	tb := check("toy/reduced", "TestToyReduced", Options{Reduce: true}, body)
	if tb.failed || !tb.skipped {
		t.Errorf("part 1 of 2: failed %v, skipped %v; want skipped:\n%s", tb.failed, tb.skipped, strings.Join(tb.logs, "\n"))
	}
	t.Setenv(ShardEnv, "0/2")
	tb = check("toy/reduced", "TestToyReduced", Options{Reduce: true}, body)
	rec, _ := tb.record(t)
	if tb.failed || tb.skipped || rec.Shard != "" || rec.Mode != "dpor" || !rec.Exhaustive {
		t.Errorf("part 0 of 2: failed %v, skipped %v, record %+v; want the whole reduced search", tb.failed, tb.skipped, rec)
	}
	t.Setenv(ReduceEnv, "1")
	tb = check("toy/plain", "TestToyPlain", Options{}, body)
	if !tb.failed {
		t.Errorf("%s with a split search: not failed:\n%s", ReduceEnv, strings.Join(tb.logs, "\n"))
	}
}

// storeLoadToy is a goroutine's seq_cst store racing main's seq_cst load
// of the same location: a search of a few schedules in either mode.
func storeLoadToy() {
	var x tloc
	a := Go("A", func() { x.store(1, engine.SeqCst) })
	x.load(engine.SeqCst)
	a.Join()
}
