package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// events builds a go test -json stream.
func events(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func ev(action, pkg, test, output string) string {
	return fmt.Sprintf(`{"Action":%q,"Package":%q,"Test":%q,"Output":%q}`, action, pkg, test, output)
}

const pkgQ = "github.com/wsched/wsched/impl/queue"

func consumeString(t *testing.T, l layer, stream string) result {
	t.Helper()
	r := result{layer: l, status: statusPass, logDir: t.TempDir()}
	consume(strings.NewReader(stream), &strings.Builder{}, &r, "go", true)
	return r
}

func jsonLayer() layer {
	return layer{name: "unit", title: "unit", cmds: [][]string{{"go", "test", "-json", "./x"}}}
}

func TestMetricsSumMETRICLinesAndRapid(t *testing.T) {
	var m metrics
	m.scan("    queue_test.go:315: METRIC histories=40 operations=12000\n")
	m.scan("METRIC histories=2 operations=500 junk not=a-number\n")
	m.scan("    ring_rapid_test.go:15: [rapid] OK, passed 100 tests (1.2s)\n")
	m.scan("    state_test.go:15: [rapid] OK, passed 2000 tests (9s)\n")
	m.scan("no metric here=5\n")
	want := metrics{"histories": 42, "operations": 12500, "rapid_cases": 2100, "rapid_properties": 2}
	if len(m) != len(want) {
		t.Fatalf("got %v, want %v", m, want)
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %d, want %d", k, m[k], v)
		}
	}
	if s := m.String(); !strings.Contains(s, "12,500 operations") || !strings.Contains(s, "2,100 rapid_cases") {
		t.Errorf("String() = %q", s)
	}
}

func TestConsumeCountsAndMetrics(t *testing.T) {
	r := consumeString(t, jsonLayer(), events(
		ev("run", pkgQ, "TestA", ""),
		ev("output", pkgQ, "TestA", "    a_test.go:1: METRIC tasks=10\n"),
		ev("pass", pkgQ, "TestA", ""),
		ev("output", pkgQ, "TestB/sub", "    b_test.go:1: METRIC tasks=5\n"),
		ev("pass", pkgQ, "TestB/sub", ""),
		ev("pass", pkgQ, "TestB", ""),
		ev("output", pkgQ, "TestC", "    c_test.go:1: needs WSCHED_X\n"),
		ev("skip", pkgQ, "TestC", ""),
		ev("pass", pkgQ, "", ""),
	))
	r.classify()
	if r.status != statusPass || len(r.packages) != 1 || r.passed != 2 || len(r.skipped) != 1 {
		t.Fatalf("status %s, packages %d, passed %d, skipped %v", r.status, len(r.packages), r.passed, r.skipped)
	}
	if r.metrics["tasks"] != 15 {
		t.Errorf("tasks = %d, want 15 (subtests count too)", r.metrics["tasks"])
	}
}

func TestEverySkippedIsSkippedNotPassed(t *testing.T) {
	r := consumeString(t, jsonLayer(), events(
		ev("output", "github.com/wsched/wsched/tla", "TestTLC", "    tla_test.go:118: TLA2TOOLS_JAR is not set\n"),
		ev("skip", "github.com/wsched/wsched/tla", "TestTLC", ""),
		ev("pass", "github.com/wsched/wsched/tla", "", ""),
	))
	r.classify()
	if r.status != statusSkip {
		t.Fatalf("status %s, want %s", r.status, statusSkip)
	}
	if !strings.Contains(r.summary(), "TestTLC") {
		t.Errorf("summary %q does not name the skipped test", r.summary())
	}
	// No test at all (a -run that matches nothing) is not a pass either.
	r = consumeString(t, jsonLayer(), events(
		ev("output", pkgQ, "", "testing: warning: no tests to run\n"),
		ev("pass", pkgQ, "", ""),
	))
	r.classify()
	if r.status != statusSkip {
		t.Fatalf("no tests ran: status %s, want %s", r.status, statusSkip)
	}
	// A failure stays a failure.
	r = consumeString(t, jsonLayer(), events(ev("skip", pkgQ, "TestA", ""), ev("fail", pkgQ, "", "")))
	r.status = statusFail
	r.classify()
	if r.status != statusFail {
		t.Fatalf("status %s, want FAIL", r.status)
	}
}

func TestEvidenceFromFailures(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "wsched-lin-queue-123.html")
	tlcOut := filepath.Join(dir, "tlc-NoFinalCheck-77.out")
	passingHTML := filepath.Join(dir, "wsched-lin-passing-1.html")
	for _, p := range []string{html, tlcOut, passingHTML} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const rapidLine = "    ring_rapid_test.go:15: [rapid] failed after 3 tests: boom\n" +
		"        To reproduce, specify -run=\"TestRingRapid\" -rapid.failfile=\"testdata/rapid/TestRingRapid/TestRingRapid-20261121-1.fail\" (or -rapid.seed=4242)\n"
	r := consumeString(t, jsonLayer(), events(
		ev("output", pkgQ, "TestRingRapid", rapidLine),
		ev("fail", pkgQ, "TestRingRapid", ""),
		ev("output", "github.com/wsched/wsched/linearizability", "TestQ", "porcupine says Illegal.\nHTML view: "+html+"\n"),
		ev("fail", "github.com/wsched/wsched/linearizability", "TestQ", ""),
		ev("output", "github.com/wsched/wsched/tla", "TestTLC/NoFinalCheck", "full TLC output: "+tlcOut+"\n"),
		ev("fail", "github.com/wsched/wsched/tla", "TestTLC/NoFinalCheck", ""),
		// A passing test that logs the path of an existing file (as
		// cmd/verify's own tests do) is no evidence.
		ev("output", "github.com/wsched/wsched/cmd/verify", "TestPasses", "HTML view: "+passingHTML+"\n"),
		ev("pass", "github.com/wsched/wsched/cmd/verify", "TestPasses", ""),
		ev("output", "github.com/wsched/wsched/stress", "TestSchedIdleChurn", "waiting (watchdog 1m0s)\nmetrics:\nruntime: spawned=10 completed=9 cancelled=0 polls=9 global=1 timers=0\n"),
		ev("fail", "github.com/wsched/wsched/stress", "TestSchedIdleChurn", ""),
		ev("fail", pkgQ, "", ""),
	))
	all := strings.Join(r.evidence, "\n")
	for _, want := range []string{
		"rapid fail file: impl/queue/testdata/rapid/TestRingRapid/TestRingRapid-20261121-1.fail (seed 4242)",
		"-run='TestRingRapid' ./impl/queue -rapid.failfile=testdata/rapid/TestRingRapid/TestRingRapid-20261121-1.fail",
		"porcupine HTML view (open in a browser): " + html,
		"TLC output with the counterexample: " + tlcOut,
		"stress dump (Metrics and goroutine stacks) of stress.TestSchedIdleChurn",
		"failing test output of impl/queue.TestRingRapid",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("evidence lacks %q; got:\n%s", want, all)
		}
	}
	if strings.Contains(all, passingHTML) {
		t.Errorf("evidence names a file from a passing test's log:\n%s", all)
	}
	if len(r.failed) != 3 {
		t.Errorf("failed = %v", r.failed)
	}
}

// A failing subtest's output is its top-level test's evidence: go test
// -json gives the parent only its own lines ("--- FAIL: TestLessons"), so
// the failure's file would say it failed and not why. A passing
// subtest's output is not kept.
func TestFailingSubtestOutputIsItsParents(t *testing.T) {
	const pkg = "github.com/wsched/wsched/docs/learn"
	r := consumeString(t, jsonLayer(), events(
		ev("output", pkg, "TestLessons/01-ring", "    learn_test.go:90: fine\n"),
		ev("pass", pkg, "TestLessons/01-ring", ""),
		ev("output", pkg, "TestLessons/03-seq-cst", "    learn_test.go:186: 03-seq-cst.md:110: the text names task.go:262\n"),
		ev("output", pkg, "TestLessons/03-seq-cst", "--- FAIL: TestLessons/03-seq-cst (3.80s)\n"),
		ev("fail", pkg, "TestLessons/03-seq-cst", ""),
		ev("output", pkg, "TestLessons", "--- FAIL: TestLessons (34.09s)\n"),
		ev("fail", pkg, "TestLessons", ""),
		ev("fail", pkg, "", ""),
	))
	if len(r.failed) != 1 || r.failed[0] != "docs/learn.TestLessons" {
		t.Fatalf("failed = %v, want docs/learn.TestLessons", r.failed)
	}
	var file string
	for _, e := range r.evidence {
		if _, p, ok := strings.Cut(e, "failing test output of docs/learn.TestLessons: "); ok {
			file = p
		}
	}
	if file == "" {
		t.Fatalf("no failing test output in the evidence: %q", r.evidence)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "the text names task.go:262") || !strings.Contains(string(b), "--- FAIL: TestLessons (34.09s)") {
		t.Errorf("the parent's failure file lacks the subtest's reason or its own line:\n%s", b)
	}
	if strings.Contains(string(b), "fine") {
		t.Errorf("the parent's failure file holds a passing subtest's output:\n%s", b)
	}
}

// A failing check may print the path of a file an earlier run left in
// /tmp under the same kind of name: it is listed as older than this run,
// with its time, not as this run's evidence, and not dropped. Here the
// failing command names a porcupine view made an hour before the run
// (os.Chtimes) and one made now.
func TestEvidenceOlderThanTheRunIsSaidSo(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "wsched-lin-queue-1.html")
	fresh := filepath.Join(dir, "wsched-lin-queue-2.html")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	then := runStart.Add(-time.Hour)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	l := layer{name: "porcupine", title: "porcupine", limit: time.Minute,
		cmds: [][]string{{"sh", "-c", `echo "HTML view: $0"; echo "HTML view: $1"; exit 1`, old, fresh}}}
	r := run(l, false, t.TempDir())
	if r.status != statusFail {
		t.Fatalf("status %s, want FAIL", r.status)
	}
	want := []string{
		"older than this run (modified " + then.UTC().Format(time.DateTime) + " UTC, the run started " +
			runStart.UTC().Format(time.DateTime) + " UTC): porcupine HTML view (open in a browser): " + old,
		"porcupine HTML view (open in a browser): " + fresh,
	}
	if strings.Join(r.evidence, "\n") != strings.Join(want, "\n") {
		t.Errorf("evidence:\n%s\nwant:\n%s", strings.Join(r.evidence, "\n"), strings.Join(want, "\n"))
	}
	var b strings.Builder
	report(&b, []result{r}, time.Second)
	if !strings.Contains(b.String(), "\n  evidence: "+want[0]+"\n") {
		t.Errorf("the report does not say the old file is older than the run:\n%s", b.String())
	}
}

func TestCellClassification(t *testing.T) {
	run := func(stream string, exitErr, cellTimedOut bool) cellStatus {
		s := summarize(strings.NewReader(stream), &strings.Builder{})
		return s.classify(exitErr, cellTimedOut)
	}
	pass := events(ev("pass", pkgQ, "TestA", ""), ev("pass", pkgQ, "", ""))
	fail := events(ev("output", pkgQ, "TestA", "watchdog: no progress\n"), ev("fail", pkgQ, "TestA", ""), ev("fail", pkgQ, "", ""))
	alarm := events(ev("output", pkgQ, "TestA", "panic: test timed out after 2m0s\n"), ev("fail", pkgQ, "TestA", ""), ev("fail", pkgQ, "", ""))
	build := "# github.com/wsched/wsched/impl/queue\nimpl/queue/ring.go:1: undefined: x\n" +
		events(ev("output", pkgQ, "", "FAIL\tgithub.com/wsched/wsched/impl/queue [build failed]\n"), ev("fail", pkgQ, "", ""))
	crash := events(ev("output", pkgQ, "", "fatal error: concurrent map writes\n"), ev("fail", pkgQ, "", ""))
	none := events(ev("output", pkgQ, "", "testing: warning: no tests to run\n"), ev("pass", pkgQ, "", ""))
	for _, c := range []struct {
		name         string
		stream       string
		exit, cellTO bool
		want         cellStatus
	}{
		{"pass", pass, false, false, cellSurvived},
		{"test failed (its watchdog fired)", fail, true, false, cellKilled},
		{"go test -timeout alarm", alarm, true, false, cellTimeout},
		{"cell limit", pass, true, true, cellTimeout},
		{"build failure", build, true, false, cellBuild},
		{"binary crashed outside a test", crash, true, false, cellKilled},
		{"no test matched", none, false, false, cellNoTests},
	} {
		if got := run(c.stream, c.exit, c.cellTO); got != c.want {
			t.Errorf("%s: %c (%s), want %c (%s)", c.name, got, got.word(), c.want, c.want.word())
		}
	}
}

func TestDepGraphAffected(t *testing.T) {
	const m = modulePath
	if got := basePackage(m + "/impl/queue_test [" + m + "/impl/queue.test]"); got != m+"/impl/queue" {
		t.Errorf("basePackage = %q", got)
	}
	if got := basePackage("sync/atomic"); got != "" {
		t.Errorf("basePackage(std) = %q", got)
	}
	g := depGraph{
		m + "/impl/queue":        {},
		m + "/impl/sched":        {m + "/impl/queue": true},
		m + "/linearizability":   {m + "/impl/queue": true, m + "/model": true},
		m + "/stress":            {m + "/impl/sched": true, m + "/impl/queue": true},
		m + "/spec/queue":        {m + "/linearizability/queuecheck": true},
		m + "/internal/mutant":   {},
		m + "/impl/deque":        {},
		m + "/linearizability/x": {m + "/impl/queue": true},
	}
	got := strings.Join(g.affected(m+"/impl/queue", layerPackages("unit")), " ")
	if got != "./impl/queue ./impl/sched" {
		t.Errorf("unit packages seeing impl/queue: %q", got)
	}
	got = strings.Join(g.affected(m+"/impl/queue", layerPackages("chaos")), " ")
	if got != "./linearizability ./stress" {
		t.Errorf("chaos packages seeing impl/queue: %q", got)
	}
	if got := g.affected(m+"/impl/deque", layerPackages("porcupine")); len(got) != 0 {
		t.Errorf("porcupine packages seeing impl/deque: %q", got)
	}
}

// verify names the explorer's claims and shard variables without
// importing it.
func TestClaimsEnvIsTheExplorers(t *testing.T) {
	if claimsEnv != explore.ClaimsEnv {
		t.Fatalf("claimsEnv = %q, explore.ClaimsEnv = %q", claimsEnv, explore.ClaimsEnv)
	}
	if shardEnv != explore.ShardEnv {
		t.Fatalf("shardEnv = %q, explore.ShardEnv = %q", shardEnv, explore.ShardEnv)
	}
}

// -shard takes what the explorer's ParseShard takes, with the explore or
// the weak layer only.
func TestShardFlag(t *testing.T) {
	t.Setenv(shardEnv, "")
	for _, v := range []string{"0/2", "1/2", "4/5", "0/1", "2/2", "-1/2", "1", "1/2x", "01/2", "a/b"} {
		_, perr := explore.ParseShard(v)
		err := setShard(v, "explore", false)
		if (err == nil) != (perr == nil) && v != "01/2" {
			t.Errorf("-shard %s: %v; the explorer: %v", v, err, perr)
		}
		if err == nil && os.Getenv(shardEnv) != v {
			t.Errorf("-shard %s: %s=%q", v, shardEnv, os.Getenv(shardEnv))
		}
	}
	if setShard("0/2", "weak", false) != nil {
		t.Error("-shard refused with -only weak")
	}
	if setShard("0/2", "unit", false) == nil || setShard("0/2", "", false) == nil || setShard("0/2", "explore", true) == nil {
		t.Error("-shard accepted without -only explore or weak, or with -mutants")
	}
}

// A layer of several processes: each scenario runs in whichever process
// claims it first (here a mkdir, as explore.claim's exclusive create);
// the merged result counts each test once, as passed, with its metrics
// once, and a claim skip is no skip.
func TestSharedProcessesMergeIntoOneResult(t *testing.T) {
	var script strings.Builder
	for _, test := range []string{"TestA", "TestB", "TestC"} {
		fmt.Fprintf(&script, `if mkdir "$%s/%s" 2>/dev/null; then printf '%%s\n' '%s' '%s'; else printf '%%s\n' '%s' '%s'; fi; `,
			claimsEnv, test,
			ev("output", pkgQ, test, "    x_test.go:1: METRIC explore_scenarios=1 explore_schedules=7\n"),
			ev("pass", pkgQ, test, ""),
			ev("output", pkgQ, test, "    x_test.go:1: explore x: "+claimedElsewhere+"\n"),
			ev("skip", pkgQ, test, ""))
	}
	script.WriteString(`printf '%s\n' '` + ev("skip", pkgQ, "TestD", "") + `' '` + ev("pass", pkgQ, "", "") + `'`)
	l := layer{name: "explore", processes: 3}
	r := result{layer: l, status: statusPass}
	ok, why := runShared(l, 0, []string{"sh", "-c", script.String(), "-json"}, nil, os.Environ(), time.Minute, t.TempDir(), &r)
	if !ok {
		t.Fatalf("runShared failed: %s", why)
	}
	if r.passed != 3 || len(r.failed) != 0 || len(r.packages) != 1 {
		t.Errorf("passed %d, failed %v, packages %d: want 3, none, 1", r.passed, r.failed, len(r.packages))
	}
	if len(r.skipped) != 1 || r.skipped[0] != "impl/queue.TestD" {
		t.Errorf("skipped %v: want only TestD, which no process ran", r.skipped)
	}
	if r.metrics["explore_scenarios"] != 3 || r.metrics["explore_schedules"] != 21 {
		t.Errorf("metrics %v: want each scenario's once", r.metrics)
	}
	if len(r.logs) != 3 {
		t.Errorf("logs %v: want one per process", r.logs)
	}
}

// With first patterns (layer.longFirst) each process runs the command
// with each -run in turn before the command itself. Here TestLong and
// TestB come last in the command's order, and the patterns take TestLong
// then TestB: every process tries them with its first commands before
// its own command starts, so they are always claimed by those, never by
// a process that reached them in order; the merge counts each test once,
// a test skipped by one command and run by another as passed, and the
// packages of one command.
func TestSharedProcessesRunTheFirstPatternsFirst(t *testing.T) {
	// sh -c script sh -run PATTERN -json: $2 is the pattern.
	var script strings.Builder
	for _, test := range []string{"TestA", "TestB", "TestLong"} {
		switch test {
		case "TestA":
			script.WriteString(`[ "$2" = All ] && `)
		case "TestB":
			script.WriteString(`[ "$2" != First ] && `)
		case "TestLong":
			script.WriteString(`[ "$2" != Second ] && `)
		}
		fmt.Fprintf(&script, `if mkdir "$%[1]s/%[2]s" 2>/dev/null; then echo "$2 %[2]s" >> "$%[1]s/order"; printf '%%s\n' '%[3]s' '%[4]s'; else printf '%%s\n' '%[5]s'; fi; `,
			claimsEnv, test,
			ev("output", pkgQ, test, "    x_test.go:1: METRIC explore_scenarios=1\n"),
			ev("pass", pkgQ, test, ""),
			ev("skip", pkgQ, test, ""))
	}
	script.WriteString(`printf '%s\n' '` + ev("pass", pkgQ, "", "") + `'`)
	for _, processes := range []int{1, 2, 3} {
		l := layer{name: "weak", processes: processes}
		r := result{layer: l, status: statusPass}
		logDir := t.TempDir()
		ok, why := runShared(l, 0, []string{"sh", "-c", script.String(), "sh", "-run", "All", "-json"}, []string{"First", "Second"}, os.Environ(), time.Minute, logDir, &r)
		if !ok {
			t.Fatalf("%d processes: runShared failed: %s", processes, why)
		}
		if r.passed != 3 || len(r.failed) != 0 || len(r.skipped) != 0 || len(r.packages) != 1 || r.metrics["explore_scenarios"] != 3 {
			t.Errorf("%d processes: passed %d, failed %v, skipped %v, packages %d, scenarios %d: want 3, none, none, 1, 3",
				processes, r.passed, r.failed, r.skipped, len(r.packages), r.metrics["explore_scenarios"])
		}
		if len(r.logs) != 3*processes {
			t.Errorf("%d processes: logs %v: want three a process", processes, r.logs)
		}
		order, err := os.ReadFile(filepath.Join(logDir, "weak-0-claims", "order"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(strings.ReplaceAll(string(order), " ", "/"))
		slices.Sort(lines)
		if want := []string{"All/TestA", "First/TestLong", "Second/TestB"}; !slices.Equal(lines, want) {
			t.Errorf("%d processes: claims by command: %v, want %v", processes, lines, want)
		}
	}
	if got := withRun([]string{"go", "test", "-run", "A", "./x"}, "B"); strings.Join(got, " ") != "go test -run B ./x" {
		t.Errorf("withRun replacing: %v", got)
	}
	if got := withRun([]string{"go", "test", "./x"}, "B"); strings.Join(got, " ") != "go test -run B ./x" {
		t.Errorf("withRun adding: %v", got)
	}
}

// Under -long a layer with longLanes runs its commands that many at a
// time: here each of the two first commands waits for a file the other
// writes, which in turn would time out. The result adds every command's
// up as run would: each pass, failure and skip, the metrics, a log per
// command, and fails with the failing command.
func TestLanesRunTheCommandsAtOnceAndAddUp(t *testing.T) {
	dir := t.TempDir()
	wait := func(mine, other, test string, extra ...string) []string {
		lines := append([]string{ev("output", pkgQ, test, "    x_test.go:1: METRIC tasks=5\n"), ev("pass", pkgQ, test, "")}, extra...)
		lines = append(lines, ev("pass", pkgQ, "", ""))
		script := fmt.Sprintf(`touch %q; i=0; while [ ! -e %q ]; do i=$((i+1)); [ $i -gt 200 ] && exit 3; sleep 0.05; done; printf '%%s\n' '%s'`,
			filepath.Join(dir, mine), filepath.Join(dir, other), strings.Join(lines, "' '"))
		return []string{"sh", "-c", script, "-json"}
	}
	l := layer{name: "unit", longLanes: 2, limit: time.Minute, long: [][]string{
		wait("a", "b", "TestA"),
		wait("b", "a", "TestB", ev("skip", pkgQ, "TestS", "")),
		{"sh", "-c", `printf '%s\n' '` + ev("fail", pkgQ, "TestF", "") + `' '` + ev("fail", pkgQ, "", "") + `'; exit 1`, "-json"},
	}}
	r := run(l, true, t.TempDir())
	if r.status != statusFail || len(r.failed) != 1 || r.failed[0] != "impl/queue.TestF" {
		t.Fatalf("status %s, failed %v, why %q: want the third command's TestF failed", r.status, r.failed, r.why)
	}
	// One package, however many commands ran its tests.
	if r.passed != 2 || len(r.packages) != 1 || len(r.skipped) != 1 || r.metrics["tasks"] != 10 || len(r.logs) != 3 {
		t.Errorf("passed %d, packages %d, skipped %v, tasks %d, logs %v: want 2, 1, TestS, 10, 3 logs", r.passed, len(r.packages), r.skipped, r.metrics["tasks"], r.logs)
	}
	if l.lanesFor(false) != 1 {
		t.Errorf("lanes without -long: %d, want 1", l.lanesFor(false))
	}
}

// A layer's longAlone commands run under -long after its lanes end, one
// at a time, and count as its other commands do; without -long they do
// not run.
func TestLongAloneRunsAfterTheLanes(t *testing.T) {
	dir := t.TempDir()
	lane := func(done, test string) []string {
		script := fmt.Sprintf(`sleep 0.3; printf '%%s\n' '%s' '%s'; touch %q`,
			ev("pass", pkgQ, test, ""), ev("pass", pkgQ, "", ""), filepath.Join(dir, done))
		return []string{"sh", "-c", script, "-json"}
	}
	alone := fmt.Sprintf(`[ -e %q ] && [ -e %q ] || exit 3; printf '%%s\n' '%s' '%s'`,
		filepath.Join(dir, "a"), filepath.Join(dir, "b"), ev("pass", pkgQ, "TestTimed", ""), ev("pass", pkgQ, "", ""))
	l := layer{name: "stress", longLanes: 2, limit: time.Minute,
		cmds:      [][]string{lane("c", "TestDefault")},
		long:      [][]string{lane("a", "TestA"), lane("b", "TestB")},
		longAlone: [][]string{{"sh", "-c", alone, "-json"}},
	}
	r := run(l, true, t.TempDir())
	if r.status != statusPass || r.passed != 3 || len(r.logs) != 3 || !strings.HasSuffix(r.logs[2], "stress-2.log") {
		t.Errorf("status %s (%s), passed %d, logs %v: want a pass, 3 tests, the alone command's log stress-2.log", r.status, r.why, r.passed, r.logs)
	}
	r = run(l, false, t.TempDir())
	if r.status != statusPass || r.passed != 1 || len(r.logs) != 1 {
		t.Errorf("without -long: status %s, passed %d, logs %v: want the default command alone", r.status, r.passed, r.logs)
	}
}

// claimedElsewhere is what the explorer's skip of a scenario another
// process claimed says (a skip writes no run record): a second process
// checking a scenario the first one claimed skips with it.
func TestClaimedElsewhereIsTheExplorersSkip(t *testing.T) {
	if os.Getenv("WSCHED_VERIFY_CLAIM_HELPER") != "" {
		explore.Check(t, "verify/claim", explore.Options{}, func() {})
		return
	}
	dir := t.TempDir()
	var outs []string
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestClaimedElsewhereIsTheExplorersSkip$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "WSCHED_VERIFY_CLAIM_HELPER=1", claimsEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		outs = append(outs, string(out))
	}
	if strings.Contains(outs[0], "--- SKIP") || !strings.Contains(outs[0], "--- PASS") {
		t.Fatalf("the first process did not run the scenario:\n%s", outs[0])
	}
	if !strings.Contains(outs[1], "--- SKIP") || !strings.Contains(outs[1], claimedElsewhere) {
		t.Errorf("the second process's skip does not say %q:\n%s", claimedElsewhere, outs[1])
	}
}
