package explore

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The package comment's table of settings names every field of Options,
// and every environment variable FromEnv reads: a field added to the
// engine's type, or a variable read, is documented where go doc shows it.
func TestSettingsTableNamesEveryField(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	table := string(src)
	i := strings.Index(table, "// Settings.")
	j := strings.Index(table, "// Never silent.")
	if i < 0 || j < i {
		t.Fatal("doc.go has no Settings paragraph before Never silent")
	}
	table = table[i:j]
	rows := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		row, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		names, _, _ := strings.Cut(row, "  ")
		for _, n := range strings.Split(names, ", ") {
			rows[n] = true
		}
	}
	typ := reflect.TypeOf(Options{})
	for k := range typ.NumField() {
		name := typ.Field(k).Name
		if !rows[name] {
			t.Errorf("the Settings table of doc.go has no row for Options.%s", name)
		}
	}
	for _, env := range []string{ReplayEnv, WeakEnv, ReduceEnv, LongEnv, ClassesEnv, ClaimsEnv, RecordsEnv, EvidenceEnv, MutantEnv, PlayEnv, ShardEnv, EstimateEnv, DepsEnv, SymmetryEnv, CacheEnv} {
		if !strings.Contains(table, env) {
			t.Errorf("the Settings table of doc.go does not name %s", env)
		}
	}
}

// FromEnv sets each field from its variable, and only those.
func TestFromEnvSetsEachField(t *testing.T) {
	for _, env := range []string{ReplayEnv, WeakEnv, ReduceEnv, LongEnv, ClassesEnv, ClaimsEnv, RecordsEnv, EvidenceEnv, MutantEnv, PlayEnv, ShardEnv, EstimateEnv, DepsEnv, SymmetryEnv, CacheEnv} {
		t.Setenv(env, "")
	}
	base := Options{Preemptions: 3}
	if got, err := FromEnv(base); err != nil || got != base && !weakTag {
		t.Fatalf("FromEnv with nothing set = %+v, %v; want %+v", got, err, base)
	}
	t.Setenv(ReplayEnv, "ring/basic=sc/1:g2")
	t.Setenv(ReduceEnv, "unbounded")
	t.Setenv(LongEnv, "1")
	t.Setenv(ClassesEnv, "1")
	t.Setenv(ClaimsEnv, "/c")
	t.Setenv(RecordsEnv, "/r")
	t.Setenv(EvidenceEnv, "/e")
	t.Setenv(MutantEnv, "m")
	t.Setenv(WeakEnv, "1")
	t.Setenv(PlayEnv, "1")
	t.Setenv(ShardEnv, "1/3")
	t.Setenv(EstimateEnv, "40")
	t.Setenv(DepsEnv, "1")
	t.Setenv(SymmetryEnv, "off")
	t.Setenv(CacheEnv, "1")
	got, err := FromEnv(base)
	want := Options{Preemptions: 3, ReplayScenario: "ring/basic", Replay: "sc/1:g2", Reduce: true, Unbounded: true,
		Long: true, CompareClasses: true, Claims: "/c", Records: "/r", Evidence: "/e", Mutant: "m", Weak: true, Play: true, Shard: Shard{K: 1, N: 3}, EstimateProbes: 40, Dependencies: true, NoSymmetry: true, StateCache: true}
	if err != nil || got != want {
		t.Fatalf("FromEnv = %+v, %v\nwant %+v", got, err, want)
	}
	t.Setenv(ReplayEnv, "no-token")
	if _, err := FromEnv(base); err == nil {
		t.Fatalf("FromEnv with %s=no-token: no error", ReplayEnv)
	}
	t.Setenv(ReplayEnv, "")
	t.Setenv(ShardEnv, "3/3")
	if _, err := FromEnv(base); err == nil {
		t.Fatalf("FromEnv with %s=3/3: no error", ShardEnv)
	}
	t.Setenv(ShardEnv, "")
	t.Setenv(EstimateEnv, "off")
	if got, err := FromEnv(base); err != nil || got.EstimateProbes != -1 {
		t.Fatalf("FromEnv with %s=off: %d, %v", EstimateEnv, got.EstimateProbes, err)
	}
	t.Setenv(EstimateEnv, "0")
	if _, err := FromEnv(base); err == nil {
		t.Fatalf("FromEnv with %s=0: no error", EstimateEnv)
	}
}

// ReduceEnv leaves a scenario that chose the plain search with the state
// cache as it chose, unless CacheEnv=off takes the choice back; CacheEnv=1
// is no scenario's choice, and the reduced search runs.
func TestReduceEnvLeavesAChosenStateCache(t *testing.T) {
	t.Setenv(ReduceEnv, "1")
	t.Setenv(DepsEnv, "")
	for _, c := range []struct {
		cache      string
		chose      bool
		reduce, sc bool
	}{
		{"", false, true, false},
		{"", true, false, true},
		{"1", false, true, true},
		{"1", true, false, true},
		{"off", true, true, false},
		{"off", false, true, false},
	} {
		t.Setenv(CacheEnv, c.cache)
		got, err := FromEnv(Options{StateCache: c.chose})
		if err != nil || got.Reduce != c.reduce || got.StateCache != c.sc {
			t.Errorf("%s=1 %s=%q, the scenario's StateCache %v: Reduce %v, StateCache %v (%v); want %v, %v",
				ReduceEnv, CacheEnv, c.cache, c.chose, got.Reduce, got.StateCache, err, c.reduce, c.sc)
		}
	}
}

// Check says when WSCHED_EXPLORE_REDUCE left a scenario its own choice of
// the state cache, and runs that search; with WSCHED_EXPLORE_CACHE=off it
// runs the reduced one and says nothing of it.
func TestCheckSaysReduceEnvLeftTheStateCache(t *testing.T) {
	for _, env := range []string{ReplayEnv, LongEnv, ClassesEnv, ClaimsEnv, RecordsEnv, DepsEnv, ShardEnv, CacheEnv} {
		t.Setenv(env, "")
	}
	t.Setenv(ReduceEnv, "1")
	body := storeLoadToy
	for _, cache := range []string{"", "off"} {
		t.Setenv(CacheEnv, cache)
		tb := check("toy/cached", "TestToyCached", Options{StateCache: true}, body)
		rec, _ := tb.record(t)
		said := strings.Contains(strings.Join(tb.logs, "\n"), "which "+ReduceEnv+" leaves it")
		want := map[string]string{"": "dfs", "off": "dpor"}[cache]
		if tb.failed || rec.Mode != want || said != (cache == "") {
			t.Errorf("%s=%q: failed %v, mode %q (want %q), said %v:\n%s", CacheEnv, cache, tb.failed, rec.Mode, want, said, strings.Join(tb.logs, "\n"))
		}
	}
}
