package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
)

// failedRecord is an explorer record of a failure, as explore.Check logs
// it, with a token long enough that test2json cuts its line in pieces.
func failedRecord(t *testing.T, page string) (explore.Record, string) {
	t.Helper()
	tok := "sc/" + strings.Repeat("17:g2,", 400) + "40:g1"
	rec := explore.Record{
		Version: 1, Scenario: "ring/basic", Test: "TestExploreRingBasic", Package: "./explore/scenarios",
		Mode: "dfs", Tags: "explore", Bound: 2, Schedules: 41, Steps: 900, ElapsedMS: 12,
		Failure: &explore.RecordFailure{
			Kind: "assertion", Message: "task ran twice", Schedule: 41, Preemptions: 2, Token: tok,
			Replay:   "WSCHED_EXPLORE_REPLAY='ring/basic=" + tok + "' go test -count=1 -tags explore -run '^TestExploreRingBasic$' ./explore/scenarios",
			Evidence: explore.Evidence{Page: page, Trace: strings.TrimSuffix(page, ".html") + ".json"},
		},
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec, "    check.go:126: " + explore.RecordPrefix + string(b)
}

// test2json turns a test binary's text output into go test -json events,
// as go test -json does, cutting long lines as it does.
func test2json(t *testing.T, pkg, text string) string {
	t.Helper()
	cmd := exec.Command("go", "tool", "test2json", "-p", pkg)
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go tool test2json: %v", err)
	}
	return string(out)
}

// A line test2json cut into several output events comes out whole, other
// tests' events and plain lines in between notwithstanding.
func TestReadTestJSONJoinsCutLines(t *testing.T) {
	long := strings.Repeat("x", 3000)
	stream := events(
		ev("output", pkgQ, "TestA", "    a_test.go:1: "+long[:1000]),
		ev("output", pkgQ, "TestB", "    b_test.go:1: short\n"),
		"# a build error",
		ev("output", pkgQ, "TestA", long[1000:2000]),
		ev("output", pkgQ, "TestA", long[2000:]+"\n"),
		ev("output", pkgQ, "TestC", "cut off"),
		ev("pass", pkgQ, "TestB", ""),
		ev("fail", pkgQ, "TestA", ""),
	)
	var got []string
	var log strings.Builder
	readTestJSON(strings.NewReader(stream), &log,
		func(line string) { got = append(got, "text "+line) },
		func(e testEvent) { got = append(got, e.Action+" "+e.Test+" "+e.Output) })
	want := []string{
		"output TestB     b_test.go:1: short\n",
		"text # a build error",
		"output TestA     a_test.go:1: " + long + "\n",
		"pass TestB ",
		"fail TestA ",
		"output TestC cut off",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if log.String() != stream {
		t.Errorf("the log is not the stream as read")
	}
}

// verify reads the fields it needs from what explore.Record writes.
func TestRunRecordReadsTheExplorers(t *testing.T) {
	if recordPrefix != explore.RecordPrefix {
		t.Fatalf("recordPrefix = %q, explore.RecordPrefix = %q", recordPrefix, explore.RecordPrefix)
	}
	want, line := failedRecord(t, "/tmp/p.html")
	got, ok := recordIn(line + "\n")
	if !ok {
		t.Fatalf("no record in %.200s", line)
	}
	f := got.Failure
	if got.Version != want.Version || got.Scenario != want.Scenario || got.Mode != want.Mode || got.Bound != want.Bound ||
		got.Schedules != want.Schedules || got.Steps != want.Steps || got.Exhaustive != want.Exhaustive ||
		got.EstimateLeft != want.EstimateLeft || got.ElapsedMS != want.ElapsedMS || f == nil ||
		f.Kind != want.Failure.Kind || f.Message != want.Failure.Message || f.Schedule != want.Failure.Schedule ||
		f.Preemptions != want.Failure.Preemptions || f.Replay != want.Failure.Replay ||
		f.Evidence.Page != want.Failure.Evidence.Page || f.Evidence.Trace != want.Failure.Evidence.Trace {
		t.Errorf("read %+v (failure %+v) from %+v", got, f, want)
	}
	for _, s := range []string{"a test mentions EXPLORE_RECORD in passing\n", "EXPLORE_RECORD {}\n", "EXPLORE_RECORD {\"v\":1,\n"} {
		if _, ok := recordIn(s); ok {
			t.Errorf("recordIn(%q) found a record", s)
		}
	}
}

func TestRecordOutcome(t *testing.T) {
	for _, c := range []struct {
		rec  runRecord
		want string
	}{
		{runRecord{Scenario: "ring/basic", Mode: "dfs", Bound: 2, Schedules: 1234, Steps: 5678, ElapsedMS: 1500, Exhaustive: true},
			"explore ring/basic: dfs, 1234 schedules, 5678 steps, 1.5s, exhaustive up to 2 preemptions"},
		{runRecord{Scenario: "s", Mode: "dfs", Bound: 2, Schedules: 10, EstimateLeft: 12345.4},
			"explore s: dfs, 10 schedules, 0 steps, 0s, exhaustive up to 1 preemption(s); NOT exhaustive at 2: the budget ran out (about 12,345 schedules left)"},
		{runRecord{Scenario: "s", Mode: "dfs", Bound: 0, Schedules: 10},
			"explore s: dfs, 10 schedules, 0 steps, 0s, NOT exhaustive even without preemptions: the budget ran out"},
		{runRecord{Scenario: "s", Mode: "dpor", Bound: -1, Schedules: 3, Exhaustive: true},
			"explore s: dpor, 3 schedules, 0 steps, 0s, exhaustive: every execution, whatever its preemptions"},
		{runRecord{Scenario: "s", Mode: "dpor", Bound: -1, Schedules: 3},
			"explore s: dpor, 3 schedules, 0 steps, 0s, NOT exhaustive: the budget ran out before every execution ran"},
		{runRecord{Scenario: "s", Mode: "replay", Schedules: 1, Steps: 40, ElapsedMS: 2},
			"explore s: replay, 1 schedules, 40 steps, 2ms"},
	} {
		if got := c.rec.outcome(); got != c.want {
			t.Errorf("outcome() = %q\nwant        %q", got, c.want)
		}
	}
}

// A failed scenario's page and replay command are the layer's evidence,
// taken from its run record, which go test -json delivers in pieces; the
// page is named for what it is, once, though the failure's text names it
// too.
func TestConsumeTakesTheFailedScenariosRecord(t *testing.T) {
	page := filepath.Join(t.TempDir(), "ring_basic.html")
	if err := os.WriteFile(page, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rec, line := failedRecord(t, page)
	const pkg = "github.com/wsched/wsched/explore/scenarios"
	stream := test2json(t, pkg, "=== RUN   TestExploreRingBasic\n"+line+"\n"+
		"    check.go:135: explore ring/basic: FAILED (dfs, 41 schedules): assertion\n        page: "+page+"\n"+
		"--- FAIL: TestExploreRingBasic (0.01s)\nFAIL\n")
	if strings.Count(stream, `"Action":"output"`) < 5 {
		t.Fatalf("test2json did not cut the record's line:\n%.2000s", stream)
	}
	r := consumeString(t, layer{name: "explore", cmds: [][]string{{"go", "test", "-json"}}}, stream)
	all := strings.Join(r.evidence, "\n")
	for _, want := range []string{
		"explorer counterexample page of ring/basic (open in a browser): " + page,
		"explorer replay of ring/basic (assertion at schedule 41, 2 preemptions): " + rec.Failure.Replay,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("evidence lacks %.300q; got:\n%.3000s", want, all)
		}
	}
	if strings.Contains(all, "porcupine") {
		t.Errorf("the explorer's page is named as porcupine's:\n%.3000s", all)
	}
	if len(r.failed) != 1 || r.failed[0] != "explore/scenarios.TestExploreRingBasic" {
		t.Errorf("failed = %v", r.failed)
	}
}

// A failed scenario's record is evidence only when the test that logged it
// failed. cmd/verify's own tests print the failures they feed consume,
// records included, and pass: under the unit layer those records named
// pages in their removed temporary directories as the evidence of an
// unrelated failure. A binary that crashed ends none of its tests: the
// records of the tests it left running are its package's evidence.
func TestFailedRecordsOfPassingTestsAreNoEvidence(t *testing.T) {
	dir := t.TempDir()
	printed, crashed := filepath.Join(dir, "printed.html"), filepath.Join(dir, "crashed.html")
	_, printedLine := failedRecord(t, printed)
	_, crashedLine := failedRecord(t, crashed)
	const verifyPkg, scenarios = "github.com/wsched/wsched/cmd/verify", "github.com/wsched/wsched/explore/scenarios"
	r := consumeString(t, jsonLayer(), events(
		ev("output", verifyPkg, "TestPrintsAFailure", "      --- FAIL explore/scenarios.TestExploreRingBasic\n"),
		ev("output", verifyPkg, "TestPrintsAFailure", "        "+printedLine+"\n"),
		ev("pass", verifyPkg, "TestPrintsAFailure", ""),
		ev("pass", verifyPkg, "", ""),
		ev("output", pkgQ, "TestBroken", "    broken_test.go:5: broken\n"),
		ev("fail", pkgQ, "TestBroken", ""),
		ev("fail", pkgQ, "", ""),
		ev("output", scenarios, "TestExploreRingBasic", crashedLine+"\n"),
		ev("output", scenarios, "", "fatal error: concurrent map writes\n"),
		ev("fail", scenarios, "", ""),
	))
	all := strings.Join(r.evidence, "\n")
	if strings.Contains(all, printed) {
		t.Errorf("evidence names the page of a record a passing test printed:\n%.3000s", all)
	}
	if !strings.Contains(all, "explorer counterexample page of ring/basic (open in a browser): "+crashed) {
		t.Errorf("evidence lacks the page of the crashed binary's record:\n%.3000s", all)
	}
	if n := strings.Count(all, "explorer replay of ring/basic"); n != 1 {
		t.Errorf("%d replays in the evidence, want the crashed binary's one:\n%.3000s", n, all)
	}
	if len(r.failed) != 1 || r.failed[0] != "impl/queue.TestBroken" {
		t.Errorf("failed = %v", r.failed)
	}
}
