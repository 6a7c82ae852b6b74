package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/scenarioset"
)

// The audit of each impl/ package runs scenarios that exist: its pattern
// selects at least one TestExplore function of the packages the list says
// reach it, and every package the list names as reached has a pattern.
func TestScenariosExistWhereTheListSays(t *testing.T) {
	found, err := scenarioset.Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	for pkg, run := range scenarios {
		re := regexp.MustCompile(run)
		var n int
		for _, dir := range scenarioset.Reaching(pkg) {
			for _, name := range found[dir] {
				if re.MatchString(name) {
					n++
				}
			}
		}
		if n == 0 {
			t.Errorf("impl/%s: %s selects no TestExplore function of %v", pkg, run, scenarioset.Reaching(pkg))
		}
	}
	for _, p := range scenarioset.Packages {
		for _, pkg := range p.Orders {
			if _, ok := scenarios[pkg]; !ok {
				t.Errorf("%s reaches impl/%s, for which orderaudit has no scenarios", p.Dir, pkg)
			}
		}
	}
}

// A variant's failure comes from the run records: the first failed
// scenario of the first package, in the command's order, that has one,
// though the packages' records interleave in the file.
func TestFirstFailureFromTheRecordsFile(t *testing.T) {
	fail := func(kind string, schedule int) *explore.RecordFailure {
		return &explore.RecordFailure{Kind: kind, Message: "m", Schedule: schedule, Preemptions: 1}
	}
	recs := []explore.Record{
		{Version: 1, Scenario: "monitor/pair-park", Package: "./impl/sched", Failure: fail("deadlock", 9)},
		{Version: 1, Scenario: "park/futex", Package: "./impl/park"},
		{Version: 1, Scenario: "park/futex-wake", Package: "./impl/park", Failure: fail("assertion", 4)},
		{Version: 1, Scenario: "park/futex-late", Package: "./impl/park", Failure: fail("data race", 2)},
	}
	path := filepath.Join(t.TempDir(), "records.jsonl")
	var file []byte
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		file = append(append(file, b...), '\n')
	}
	file = append(file, "not a record\n"...)
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	read := readRecords(path)
	if len(read) != len(recs) {
		t.Fatalf("read %d records, want %d", len(read), len(recs))
	}
	got := firstFailure(read, []string{"./impl/park", "./impl/sched"})
	if got == nil || got.Scenario != "park/futex-wake" || got.Failure.Kind != "assertion" || got.Failure.Schedule != 4 {
		t.Errorf("first failure %+v, want park/futex-wake's assertion at schedule 4", got)
	}
	got = firstFailure(read, []string{"./impl/sched", "./impl/park"})
	if got == nil || got.Scenario != "monitor/pair-park" {
		t.Errorf("first failure %+v, want monitor/pair-park", got)
	}
	if got := firstFailure(read[1:2], nil); got != nil {
		t.Errorf("first failure of passing records: %+v", got)
	}
}

// A variant runs only the scenarios that reach its operation: their names
// once each, in a pattern that matches them whole, and their packages in
// the list's order (the order a failure is picked from).
func TestSelectionRunsTheReachingScenarios(t *testing.T) {
	run, pkgs := selection([]scenario{
		{"./impl/sched", "TestExploreTurnPair"},
		{"./explore/scenarios", "TestExploreRule2WakesForBatchMate"},
		{"./impl/sched", "TestExploreTurnPair"},
		{"./impl/park", "TestExploreFutexPair"},
	})
	if want := "^(TestExploreFutexPair|TestExploreRule2WakesForBatchMate|TestExploreTurnPair)$"; run != want {
		t.Errorf("run = %q, want %q", run, want)
	}
	if want := []string{"./explore/scenarios", "./impl/park", "./impl/sched"}; !slices.Equal(pkgs, want) {
		t.Errorf("packages = %v, want %v", pkgs, want)
	}
	re := regexp.MustCompile(run)
	if re.MatchString("TestExploreTurnPairX") || !re.MatchString("TestExploreTurnPair") {
		t.Errorf("%s does not match whole names", run)
	}
}

// A newer result replaces the older entry of the same occurrence (the one
// nearest it), and only while the code has more entries than occurrences:
// the other occurrence's older result stays.
func TestPruneDropsTheReplacedOccurrenceOnly(t *testing.T) {
	defer func(c map[string]bool, o map[string]int) { current, occurrences = c, o }(current, occurrences)
	const f, code = "impl/sched/worker.go", "w.rt.closed.LoadAcquire()"
	e := func(line int) Entry { return Entry{File: f, Line: line, Code: code} }
	current = map[string]bool{entryKey(e(483)): true, entryKey(e(496)): true}
	occurrences = map[string]int{f + "\x00" + code: 2}
	entries := map[string]Entry{}
	for _, l := range []int{433, 472, 496} {
		entries[entryKey(e(l))] = e(l)
	}
	prune(entries)
	var lines []int
	for _, x := range entries {
		lines = append(lines, x.Line)
	}
	slices.Sort(lines)
	if !slices.Equal(lines, []int{433, 496}) {
		t.Errorf("kept lines %v, want [433 496] (472 is 496's older result; 433 is the other occurrence's)", lines)
	}
	prune(entries)
	if len(entries) != 2 {
		t.Errorf("a second prune dropped a result: %d entries left", len(entries))
	}
}
