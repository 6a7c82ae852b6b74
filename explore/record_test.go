package explore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	stdatomic "sync/atomic"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// recordingTB is a testing.TB that keeps what Check logs, and ends the
// goroutine at Fatal as testing does, without failing the real test.
type recordingTB struct {
	testing.TB
	name    string
	logs    []string
	failed  bool
	skipped bool
}

func (f *recordingTB) Helper()      {}
func (f *recordingTB) Name() string { return f.name }
func (f *recordingTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *recordingTB) Errorf(format string, args ...any) {
	f.Logf(format, args...)
	f.failed = true
}
func (f *recordingTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *recordingTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }
func (f *recordingTB) Skipf(format string, args ...any) {
	f.Logf(format, args...)
	f.skipped = true
	runtime.Goexit()
}

// check runs Check under a recordingTB.
func check(name, test string, opt Options, body func()) *recordingTB {
	tb := &recordingTB{name: test}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(tb, name, opt, body)
	}()
	<-done
	return tb
}

func (f *recordingTB) record(t *testing.T) (Record, string) {
	t.Helper()
	for _, l := range f.logs {
		if strings.HasPrefix(l, RecordPrefix) {
			r, ok, err := ParseRecord(l)
			if !ok || err != nil {
				t.Fatalf("record line %q: %v", l, err)
			}
			return r, strings.TrimPrefix(l, RecordPrefix)
		}
	}
	t.Fatalf("no %s line in the log:\n%s", RecordPrefix, strings.Join(f.logs, "\n"))
	return Record{}, ""
}

// The record's JSON names are the agreed ones (RECORD-FORMAT, and
// docs/explore.md, "The run record"), no more, no fewer.
var (
	recordKeys  = []string{"v", "scenario", "test", "package", "mode", "weak", "tags", "mutant", "shard", "bound", "max_stale", "history", "schedules", "steps", "exhaustive", "estimate_left", "forecast", "elapsed_ms", "failure"}
	failureKeys = []string{"kind", "message", "schedule", "preemptions", "token", "replay", "evidence"}
)

func keys(t *testing.T, js []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func TestRecordOfAFailureIsLoggedAndAppended(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "records.jsonl")
	t.Setenv(RecordsEnv, file)
	t.Setenv(MutantEnv, "toy-mutant")
	t.Setenv(EvidenceEnv, dir)
	t.Setenv(ReplayEnv, "")
	t.Setenv(LongEnv, "") // the record's bound below is the default one (verify -long sets it)
	racy := func() {
		var x toyInt
		inc := func() { v := x.Load(); x.Store(v + 1) }
		a, b := Go("A", inc), Go("B", inc)
		a.Join()
		b.Join()
		Assert(x.Load() == 2, "x = %d after two increments", x.v)
	}
	tb := check("toy/racy", "TestToyRacy", Options{}, racy)
	if !tb.failed {
		t.Fatal("the racy counter's Check did not fail")
	}
	rec, line := tb.record(t)
	if got := keys(t, []byte(line)); !slices.Equal(got, sorted(recordKeys)) {
		t.Errorf("record keys %v, want %v", got, sorted(recordKeys))
	}
	var raw struct{ Failure json.RawMessage }
	json.Unmarshal([]byte(line), &raw)
	if got := keys(t, raw.Failure); !slices.Equal(got, sorted(failureKeys)) {
		t.Errorf("failure keys %v, want %v", got, sorted(failureKeys))
	}
	want := Record{Version: 1, Scenario: "toy/racy", Test: "TestToyRacy", Package: "./explore", Mode: "dfs", Tags: "explore", Mutant: "toy-mutant", Bound: 1, Schedules: 7}
	// Under -tags explore,weak the same Check runs in the weak-memory
	// mode: its record says so, with the mode's default bounds, and the
	// replay names the weak token and tags.
	token, tags := "sc/1:g2", "explore"
	if weakTag {
		want.Weak, want.Tags, want.MaxStale, want.History = true, "explore,weak", 2, 7
		token, tags = "weak;stale=2;history=7/1:g2", "explore,weak"
	}
	got := rec
	if got.Forecast < 1 {
		t.Errorf("record forecast %v: none logged before the search", got.Forecast)
	}
	got.Steps, got.ElapsedMS, got.Failure, got.Forecast = 0, 0, nil, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("record %+v, want %+v", got, want)
	}
	f := rec.Failure
	replay := "go run ./cmd/mutant toy-mutant -- env WSCHED_EXPLORE_REPLAY='toy/racy=" + token + "' go test -count=1 -tags " + tags + " -run '^TestToyRacy$' ./explore"
	if f == nil || f.Kind != "assertion" || f.Message != "x = 1 after two increments" || f.Schedule != 7 || f.Preemptions != 1 || f.Token != token || f.Replay != replay {
		t.Fatalf("failure %+v, want an assertion at schedule 7 with replay %s", f, replay)
	}
	if !strings.Contains(strings.Join(tb.logs, "\n"), "replay: "+replay) {
		t.Errorf("the failure does not print the record's replay command")
	}
	// The page is self-contained: no link, no src, no URL but the SVG
	// namespace's name.
	page, err := os.ReadFile(f.Evidence.Page)
	p := strings.ReplaceAll(string(page), `xmlns="http://www.w3.org/2000/svg"`, "")
	if err != nil || !strings.Contains(p, `data-step="1"`) || strings.Contains(p, "http://") || strings.Contains(p, "https://") || strings.Contains(p, "<link") || strings.Contains(p, " src=") {
		t.Errorf("page %s: %v; want a self-contained page with its steps", f.Evidence.Page, err)
	}
	if _, err := os.Stat(f.Evidence.Trace); err != nil {
		t.Errorf("trace file: %v", err)
	}
	b, err := os.ReadFile(file)
	if err != nil || string(b) != line+"\n" {
		t.Errorf("the records file holds %q (%v), want the logged record as one line", b, err)
	}

	// A passing exploration: a record with no failure, appended after
	// the first. Its two goroutines touch a location of the weak-memory
	// mode, so that under -tags explore,weak (where every Check is weak)
	// it passes too rather than failing as "nothing weak".
	tb = check("toy/fine", "TestToyFine", Options{}, func() {
		var x tloc
		a := Go("A", func() { x.store(1, engine.SeqCst) })
		x.load(engine.SeqCst)
		a.Join()
	})
	rec, _ = tb.record(t)
	if tb.failed || rec.Failure != nil || !rec.Exhaustive || rec.Schedules == 0 || rec.Bound != 2 {
		t.Errorf("passing record %+v (failed %v)", rec, tb.failed)
	}
	b, _ = os.ReadFile(file)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("%d records in the file, want 2", n)
	}
}

func TestRecordOfAWeakFailure(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(RecordsEnv, "")
	t.Setenv(MutantEnv, "")
	t.Setenv(EvidenceEnv, dir)
	t.Setenv(ReplayEnv, "")
	tb := check("toy/mp", "TestToyMP", Options{Weak: true}, messagePassing(engine.Relaxed, engine.Relaxed))
	rec, _ := tb.record(t)
	if !rec.Weak || rec.Tags != "explore,weak" || rec.MaxStale != 2 || rec.History != 7 || rec.Failure == nil {
		t.Fatalf("weak record %+v", rec)
	}
	if r := rec.Failure.Replay; !strings.HasPrefix(r, "WSCHED_EXPLORE_REPLAY='toy/mp=weak;stale=2;history=7/") || !strings.Contains(r, "-tags explore,weak") {
		t.Errorf("replay %q: want the weak token and tags, no mutant", r)
	}
	// Replayed as printed, it fails the same way, and its record says so.
	t.Setenv(ReplayEnv, "toy/mp="+rec.Failure.Token)
	tb = check("toy/mp", "TestToyMP", Options{Weak: true}, messagePassing(engine.Relaxed, engine.Relaxed))
	again, _ := tb.record(t)
	if again.Mode != "replay" || again.Failure == nil || again.Failure.Message != rec.Failure.Message || again.Failure.Kind != rec.Failure.Kind {
		t.Errorf("the replay's record %+v, want the same failure as %+v", again.Failure, rec.Failure)
	}
}

// A weak-mode search of code whose shared memory the model cannot see
// (sync/atomic here) fails as "nothing weak" and says what to use; the
// same code in the plain mode passes and reports no shared operation.
func TestWeakModeOfInvisibleCodeFails(t *testing.T) {
	body := func() {
		var x stdatomic.Int64
		a := Go("A", func() { x.Store(1) })
		v := x.Load()
		a.Join()
		_ = v
	}
	res := Explore(Options{Weak: true}, body)
	if res.Failure == nil || res.Failure.Kind != "nothing weak" || !strings.Contains(res.Failure.Message, "explore/atomic") {
		t.Fatalf("weak run of sync/atomic code: failure %v, want nothing weak naming explore/atomic", res.Failure)
	}
	res = Explore(Options{}, body)
	if res.Failure != nil || res.SharedOps != 0 {
		t.Fatalf("plain run of sync/atomic code: failure %v, %d shared operations; want none and 0", res.Failure, res.SharedOps)
	}
}

// A replay names every build tag the run had, the module's own ones too,
// and the tags the mode needs when the environment set it.
func TestReplayTags(t *testing.T) {
	for _, c := range []struct {
		tags []string
		weak bool
		want string
	}{
		{nil, false, "explore"},
		{nil, true, "explore,weak"},
		{[]string{"explore"}, false, "explore"},
		{[]string{"explore", "weak"}, true, "explore,weak"},
		{[]string{"explore", "weak", "buggy"}, true, "explore,weak,buggy"},
		{[]string{"buggy", "explore"}, false, "buggy,explore"},
		{[]string{"explore", "buggy"}, true, "explore,weak,buggy"},
		{[]string{"chaos"}, false, "explore,chaos"},
	} {
		if got := joinTags(slices.Clone(c.tags), c.weak); got != c.want {
			t.Errorf("joinTags(%q, weak=%v) = %q, want %q", c.tags, c.weak, got, c.want)
		}
	}
}

// The replay's package is relative to the test's own module: the nearest
// go.mod above it, which for a module that imports wsched is not wsched's.
func TestReplayPackageIsRelativeToTheTestsModule(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "other", "queue")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module wsched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := relToModule(pkg); got != "./other/queue" {
		t.Errorf("without a go.mod of its own, %s is %q, want ./other/queue", pkg, got)
	}
	if err := os.WriteFile(filepath.Join(root, "other", "go.mod"), []byte("module other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := relToModule(pkg); got != "./queue" {
		t.Errorf("in module other, %s is %q, want ./queue", pkg, got)
	}
	if got := relToModule(filepath.Join(root, "other")); got != "." {
		t.Errorf("the module root is %q, want .", got)
	}
}
