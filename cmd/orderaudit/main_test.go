package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/orderings"
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

// notAudited are the weak layer's scenarios (scenarioset.WeakScenarios)
// that no list of the audit (scenarios) selects, and why: none now (a
// scenario added to the weak layer joins a list, and -add audits it).
var notAudited = map[string]string{}

// Every scenario of the weak layer is in the audit's list of a package
// its package reaches, or in notAudited with the reason; and notAudited
// names only weak-layer scenarios that no list selects (a scenario added
// to a list leaves it).
func TestWeakScenariosAreAudited(t *testing.T) {
	found, err := scenarioset.Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	weak := regexp.MustCompile(scenarioset.WeakScenarios)
	seen := map[string]bool{}
	for _, p := range scenarioset.Packages {
		if len(p.Orders) == 0 || !slices.Contains(p.Layers, "weak") {
			continue
		}
		for _, name := range found[p.Dir] {
			if !weak.MatchString(name) {
				continue
			}
			var in []string
			for _, pkg := range p.Orders {
				if regexp.MustCompile(scenarios[pkg]).MatchString(name) {
					in = append(in, pkg)
				}
			}
			_, excused := notAudited[name]
			switch {
			case len(in) == 0 && !excused:
				t.Errorf("%s (%s) is in the weak layer and in no audit list of %v: add it (-add runs it alone), or say why not in notAudited", name, p.Dir, p.Orders)
			case len(in) > 0 && excused:
				t.Errorf("%s is in the audit's list of %v and in notAudited", name, in)
			}
			seen[name] = true
		}
	}
	for name := range notAudited {
		if !seen[name] {
			t.Errorf("notAudited names %s, which is no weak-layer scenario of a package the audit runs", name)
		}
	}
	// The whole-runtime scenarios of the weak layer are in the lists of
	// each package they reach: the ring and the global queue, the idle
	// state and the scheduler (none of impl/park's operations: see
	// oneWorker).
	for _, name := range []string{"TestExploreRemoteSpawnOneWorkerTimedPark", "TestExploreWakeRacesPoll", "TestExploreSleep",
		"TestExploreGoRecycling", "TestExplorePanicReachesHandle", "TestExploreShutdownSweepsSlotAndRing", "TestExploreShutdownRacesGo",
		"TestExploreShutdownRacesSpawn", "TestExploreGoexitRacesWake", "TestExploreShutdownWithBlockedPoll", "TestExploreExtraWorkerForStuckWorker"} {
		for _, pkg := range []string{"queue", "idle", "sched"} {
			if !regexp.MustCompile(scenarios[pkg]).MatchString(name) {
				t.Errorf("%s is not in impl/%s's list", name, pkg)
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

// A variant's limit grows with the scenarios it runs: three times their
// unweakened runs together when that passes the flag's limit, counting
// the scenarios its pattern selects in the packages it runs (go test
// runs them all), not those of other packages.
func TestLimitScalesWithTheUnweakenedRuns(t *testing.T) {
	took := map[scenario]time.Duration{
		{"./explore/scenarios", "TestExploreRemoteSpawn"}:          4*time.Minute + 30*time.Second,
		{"./explore/scenarios", "TestExploreRemoteSpawnOneWorker"}: 10 * time.Second,
		{"./impl/sched", "TestExploreTurnPair"}:                    time.Minute,
		{"./impl/park", "TestExploreTurnPair"}:                     time.Hour, // a package it does not run
	}
	run, pkgs := selection([]scenario{{"./explore/scenarios", "TestExploreRemoteSpawn"}, {"./impl/sched", "TestExploreTurnPair"}})
	if got, want := scaledLimit(4*time.Minute, run, pkgs, took), 3*(5*time.Minute+30*time.Second); got != want {
		t.Errorf("limit for %s in %v = %v, want %v (three times the two runs)", run, pkgs, got, want)
	}
	run, pkgs = selection([]scenario{{"./explore/scenarios", "TestExploreRemoteSpawnOneWorker"}})
	if got, want := scaledLimit(4*time.Minute, run, pkgs, took), 4*time.Minute; got != want {
		t.Errorf("limit for %s = %v, want the flag's %v", run, got, want)
	}
	if got, want := scaledLimit(4*time.Minute, run, pkgs, nil), 4*time.Minute; got != want {
		t.Errorf("limit with no coverage pass = %v, want the flag's %v", got, want)
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

// -add merges the added scenarios' results with the file's: a killed
// weakening stays as it was and is not tried again, a survivor the added
// scenarios kill turns killed with their scenario and schedule, a survivor
// they do not kill survives with both sets of scenarios named, an operation
// unreached before is tried whole, a timeout stays one unless killed, and
// an operation the added scenarios do not reach keeps its entry as it was.
func TestAddMergesWithTheEarlierResults(t *testing.T) {
	defer func(c map[string]bool, o map[string]int) { current, occurrences = c, o }(current, occurrences)
	const f = "impl/sched/worker.go"
	op := func(line int, code, o, ord, fail string) orderings.Op {
		return orderings.Op{File: f, Line: line, Code: code, Op: o, Ordering: ord, Failure: fail}
	}
	ops := []orderings.Op{
		op(10, "a.LoadSeqCst()", "Load", "SeqCst", ""),                                       // killed kept
		op(20, "b.CompareAndSwapAcqRelAcquire(x, y)", "CompareAndSwap", "AcqRel", "Acquire"), // one killed kept, survivors tried
		op(30, "c.StoreRelease(1)", "Store", "Release", ""),                                  // unreached before
		op(40, "d.LoadAcquire()", "Load", "Acquire", ""),                                     // not reached by the added scenarios
		op(50, "e.FenceSeqCst()", "Fence", "SeqCst", ""),                                     // timeout, survives again
		op(60, "g.LoadRelaxed()", "Load", "Relaxed", ""),                                     // unreached before, nothing weaker
	}
	setCurrent(ops)
	red := func(name, result, sc string, sched int) Variant {
		return Variant{Name: name, Result: result, Scenario: sc, Schedule: sched, Search: "reduced", Seconds: 1}
	}
	earlier := []Entry{
		// The file's lines are older than the code's (each 2 less): the
		// entries are matched by code and occurrence.
		{File: f, Line: 8, Code: ops[0].Code, Method: "LoadSeqCst", Reached: true, Run: "^(TestExploreA)$",
			Variants: []Variant{red("LoadAcquire", "killed", "a/pair", 3)}},
		{File: f, Line: 18, Code: ops[1].Code, Method: "CompareAndSwapAcqRelAcquire", Reached: true, Run: "^(TestExploreA|TestExploreB)$",
			Variants: []Variant{
				red("CompareAndSwapAcquireAcquire", "killed", "b/pair", 7),
				red("CompareAndSwapReleaseAcquire", "survived", "", 0),
				red("CompareAndSwapAcqRelRelaxed", "survived", "", 0),
			}},
		{File: f, Line: 28, Code: ops[2].Code, Method: "StoreRelease", Run: "^(TestExploreA)$"},
		{File: f, Line: 38, Code: ops[3].Code, Method: "LoadAcquire", Reached: true, Run: "^(TestExploreB)$",
			Variants: []Variant{red("LoadRelaxed", "survived", "", 0)}},
		{File: f, Line: 48, Code: ops[4].Code, Method: "FenceSeqCst", Reached: true, Run: "^(TestExploreB)$",
			Variants: []Variant{red("FenceAcqRel", "timeout", "", 0), red("(removed)", "killed", "b/pair", 2)}},
		{File: f, Line: 58, Code: ops[5].Code, Method: "LoadRelaxed", Run: "^(TestExploreA)$"},
	}
	path := filepath.Join(t.TempDir(), "audit.json")
	save(path, earlier, false)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	prevList := readEntries(path)
	prev := map[string]*Entry{}
	for i, k := range codeKeys(prevList) {
		prev[k] = &prevList[i]
	}
	added := []scenario{{"./explore/scenarios", "TestExploreSleep"}}
	reaching := map[string][]scenario{}
	for _, o := range ops {
		if o.Line != 40 {
			reaching[fmt.Sprintf("%s:%d", f, o.Line)] = added
		}
	}
	// The added scenarios kill the release CAS and survive every other
	// weakening they are given.
	var tried []string
	try := func(o orderings.Op, name, run string, pkgs []string) Variant {
		tried = append(tried, fmt.Sprintf("%d %s", o.Line, name))
		if run != "^(TestExploreSleep)$" || !slices.Equal(pkgs, []string{"./explore/scenarios"}) {
			t.Errorf("%d %s run with %s in %v, want the added scenario only", o.Line, name, run, pkgs)
		}
		if name == "CompareAndSwapReleaseAcquire" {
			return Variant{Name: name, Result: "killed", Scenario: "runtime/sleep-1", Schedule: 5, Kind: "assertion", Search: "reduced", Seconds: 2}
		}
		return Variant{Name: name, Result: "survived", Search: "reduced", Seconds: 2}
	}
	var entries []Entry
	changes := addOps(ops, codeKeys(opEntries(ops)), prev, reaching, try, func(e Entry) {
		entries = append(entries, e)
		save(path, entries, false)
	})

	wantTried := []string{"20 CompareAndSwapReleaseAcquire", "20 CompareAndSwapAcqRelRelaxed", "30 StoreRelaxed", "50 FenceAcqRel"}
	if !slices.Equal(tried, wantTried) {
		t.Errorf("tried %v, want %v (killed weakenings are not tried again)", tried, wantTried)
	}
	got := map[int]Entry{}
	for _, e := range readEntries(path) {
		got[e.Line] = e
	}
	if len(got) != 6 {
		t.Fatalf("%d entries after the merge, want 6: %v", len(got), got)
	}
	for _, line := range []int{18, 28, 48, 58} {
		if _, ok := got[line]; ok {
			t.Errorf("the earlier entry at line %d is still there beside its operation's new one", line)
		}
	}
	verdicts := func(e Entry) string {
		var s []string
		for _, v := range e.Variants {
			s = append(s, fmt.Sprintf("%s %s %s %d", v.Name, v.Result, v.Scenario, v.Schedule))
		}
		return strings.Join(s, "; ")
	}
	const both = "^(TestExploreA|TestExploreB)$; added: ^(TestExploreSleep)$"
	for _, c := range []struct {
		line          int
		run, verdicts string
		reached       bool
	}{
		{10, "^(TestExploreA)$", "LoadAcquire killed a/pair 3", true},
		{20, both, "CompareAndSwapAcquireAcquire killed b/pair 7; CompareAndSwapReleaseAcquire killed runtime/sleep-1 5; CompareAndSwapAcqRelRelaxed survived  0", true},
		{30, "^(TestExploreSleep)$", "StoreRelaxed survived  0", true},
		{50, "^(TestExploreB)$; added: ^(TestExploreSleep)$", "FenceAcqRel timeout  0; (removed) killed b/pair 2", true},
		{60, "^(TestExploreSleep)$", "", true},
	} {
		e, ok := got[c.line]
		if !ok {
			t.Errorf("no entry at line %d", c.line)
			continue
		}
		if e.Run != c.run || verdicts(e) != c.verdicts || e.Reached != c.reached {
			t.Errorf("line %d: run %q, %q, reached %v; want run %q, %q, reached %v", c.line, e.Run, verdicts(e), e.Reached, c.run, c.verdicts, c.reached)
		}
	}
	if v := got[20].Variants[2]; v.Seconds != 3 {
		t.Errorf("the survivor's seconds %v, want 3 (both runs)", v.Seconds)
	}
	// The operation the added scenarios do not reach: its entry as it was,
	// byte for byte.
	var old Entry
	var beforeList []Entry
	if err := json.Unmarshal(before, &beforeList); err != nil {
		t.Fatal(err)
	}
	for _, e := range beforeList {
		if e.Line == 38 {
			old = e
		}
	}
	a, _ := json.Marshal(old)
	b, _ := json.Marshal(got[38])
	if string(a) != string(b) {
		t.Errorf("the unreached operation's entry changed:\n%s\nwant\n%s", b, a)
	}
	var cs []string
	for _, c := range changes {
		cs = append(cs, c.String())
	}
	wantChanges := []string{
		"impl/sched/worker.go:20 CompareAndSwapAcqRelAcquire -> CompareAndSwapReleaseAcquire: survived -> killed (runtime/sleep-1, schedule 5)",
		"impl/sched/worker.go:30 StoreRelease -> StoreRelaxed: unreached -> survived",
		"impl/sched/worker.go:60 LoadRelaxed: unreached -> reached (nothing weaker to try)",
	}
	if !slices.Equal(cs, wantChanges) {
		t.Errorf("changes:\n%s\nwant\n%s", strings.Join(cs, "\n"), strings.Join(wantChanges, "\n"))
	}
}

// -add refuses to merge results of one search with the other's.
func TestAddFindsMixedSearches(t *testing.T) {
	ops := []orderings.Op{{File: "impl/idle/idle.go", Line: 5, Code: "x.LoadAcquire()", Op: "Load", Ordering: "Acquire"}}
	keys := codeKeys(opEntries(ops))
	prev := map[string]*Entry{keys[0]: {File: "impl/idle/idle.go", Line: 5, Code: "x.LoadAcquire()", Reached: true,
		Variants: []Variant{{Name: "LoadRelaxed", Result: "survived", Search: "reduced"}}}}
	if m := mixedSearch(ops, keys, prev, "reduced"); len(m) != 0 {
		t.Errorf("reduced against reduced: %v", m)
	}
	if m := mixedSearch(ops, keys, prev, ""); len(m) != 1 {
		t.Errorf("plain against reduced: %v, want the operation named", m)
	}
}

// -add -long takes -long's weak-layer scenarios into the runtime's lists
// and the ring's, and only then: without it no list selects the ones the
// weak layer leaves to -long.
func TestLongAddsTheLongWeakScenarios(t *testing.T) {
	defer func(was bool) { long = was }(long)
	for _, pkg := range []string{"queue", "idle", "sched"} {
		for _, name := range []string{"TestExploreTimerMirror", "TestExploreMonitorIdleAgainstWake", "TestExploreGoTree", "TestExploreBatchMateOfBlockedPoll"} {
			long = false
			if regexp.MustCompile(listFor(pkg)).MatchString(name) {
				t.Errorf("impl/%s's list selects %s without -long", pkg, name)
			}
			long = true
			if !regexp.MustCompile(listFor(pkg)).MatchString(name) {
				t.Errorf("impl/%s's list under -long misses %s", pkg, name)
			}
		}
		long = true
		if !regexp.MustCompile(listFor(pkg)).MatchString("TestExploreSleep") {
			t.Errorf("impl/%s's list under -long misses its own TestExploreSleep", pkg)
		}
	}
	long = true
	if listFor("park") != scenarios["park"] || listFor("deque") != scenarios["deque"] {
		t.Errorf("-long changed the list of impl/park or impl/deque")
	}
}
