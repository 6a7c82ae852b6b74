package tla

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TLC's exit codes (tlc2.output.EC.ExitStatus).
const (
	exitPass     = 0
	exitDeadlock = 11
	exitSafety   = 12
	exitLiveness = 13
	exitParse    = 150
)

// perConfigTimeout bounds one TLC run; the table as a whole is meant to take
// a few minutes on two cores. Long rows get longLimit: they are a guard
// against a hang, not a measure, and a long row run beside other work on two
// cores takes several times its quiet time (IdleGo3, 11.9 million states,
// passed 20 minutes that way with one TLC worker; 19 with two at load 8).
const (
	perConfigTimeout = 8 * time.Minute
	longLimit        = 75 * time.Minute
)

// smallModel is the most distinct states a configuration may expect and
// still run on the JVM's quick compiler alone (jvmFlags).
const smallModel = 20_000

// jvmFlags are the JVM's flags for one configuration. The heap is capped at
// 1 GiB for every row but the long ones: the largest other row holds under
// 300,000 states, and with the JVM's default (a quarter of the machine's
// memory) the collector grows the heap by gigabytes that the kernel then
// maps in (StealChain: 25.6 s of CPU, 5.8 of it the system's; capped, 20.3
// and 0.8, the same states). A row that expects at most smallModel states
// runs on the quick compiler alone (-XX:TieredStopAtLevel=1): it is over
// before the optimizing compiler's work pays (OverflowDuringSteal, 1,598
// states: 2.4 s of CPU against 5.4; StealOverflow, 12,936: 6.2 against
// 8.8), where above it the optimizing compiler wins (StealRoom, 36,528:
// 18.0 against 15.5; IdleGoLive, 74,739: 52.6 against 31.3). The 42 rows,
// each run alone in turn: 420 s of CPU with the old flags (the default
// heap, both compilers), 382 with the heap capped, 347 with both changes.
// A row that outgrows the cap fails, and the full TLC output the test
// saves names the OutOfMemoryError: mark the row long, or raise the cap.
func jvmFlags(e expectation) []string {
	if e.long {
		return []string{"-XX:+UseParallelGC"}
	}
	f := []string{"-XX:+UseParallelGC", "-Xmx1g"}
	if e.states <= smallModel {
		f = append(f, "-XX:TieredStopAtLevel=1")
	}
	return f
}

// expectation is one row of expectations.tsv.
type expectation struct {
	spec      string // module name, without .tla
	config    string // configuration name, without .cfg
	exit      int    // expected TLC exit code
	states    int    // expected number of distinct states
	tolerance int    // allowed deviation of states, in percent
	workers   int    // TLC -workers
	long      bool   // run only with WSCHED_LONG=1 (a larger model, minutes)
	line      int
}

func readExpectations(t *testing.T) []expectation {
	t.Helper()
	f, err := os.Open("expectations.tsv")
	if err != nil {
		t.Fatalf("open expectations table: %v", err)
	}
	defer f.Close()
	var rows []expectation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 6 {
			t.Fatalf("expectations.tsv:%d: want 6 tab-separated fields, got %d", n, len(fs))
		}
		e := expectation{spec: fs[0], config: fs[1], line: n}
		ints := []*int{&e.exit, &e.states, &e.tolerance, &e.workers}
		for i, p := range ints {
			v, err := strconv.Atoi(fs[2+i])
			if err != nil {
				t.Fatalf("expectations.tsv:%d: field %d: %v", n, 3+i, err)
			}
			*p = v
		}
		if len(fs) > 6 {
			switch fs[6] {
			case "long":
				e.long = true
			case "":
			default:
				t.Fatalf("expectations.tsv:%d: field 7 is %q, want \"long\" or nothing", n, fs[6])
			}
		}
		rows = append(rows, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestTableCoversConfigs checks that every .cfg file has exactly one row and
// every row names an existing spec and configuration. It runs without TLC.
func TestTableCoversConfigs(t *testing.T) {
	rows := readExpectations(t)
	seen := map[string]bool{}
	for _, e := range rows {
		if seen[e.config] {
			t.Errorf("expectations.tsv:%d: configuration %s listed twice", e.line, e.config)
		}
		seen[e.config] = true
		for _, f := range []string{e.spec + ".tla", e.config + ".cfg"} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("expectations.tsv:%d: %v", e.line, err)
			}
		}
		switch e.exit {
		case exitPass, exitSafety, exitLiveness:
		default:
			t.Errorf("expectations.tsv:%d: expected exit %d is not pass/safety/liveness", e.line, e.exit)
		}
		if e.exit == exitLiveness && e.workers != 1 {
			t.Errorf("expectations.tsv:%d: liveness configurations run with -workers 1", e.line)
		}
		// Only a passing configuration's count is the whole state space, the
		// same in any order of search; where TLC stops at a violation depends
		// on the order, which more than one worker makes vary between runs.
		if e.exit != exitPass && e.workers != 1 {
			t.Errorf("expectations.tsv:%d: a failing configuration runs with -workers 1 (its count depends on the search order)", e.line)
		}
		if e.workers < 1 {
			t.Errorf("expectations.tsv:%d: -workers %d", e.line, e.workers)
		}
	}
	cfgs, _ := filepath.Glob("*.cfg")
	for _, c := range cfgs {
		name := strings.TrimSuffix(c, ".cfg")
		if !seen[name] {
			t.Errorf("%s has no row in expectations.tsv", c)
		}
	}
}

var statesRE = regexp.MustCompile(`([0-9,]+) states generated, ([0-9,]+) distinct states found`)

// TestTLC runs TLC over every configuration in expectations.tsv and compares
// exit code and distinct-state count with the table.
func TestTLC(t *testing.T) {
	jar := tlaJar() // TLA2TOOLS_JAR, else ../shared/tools/tla2tools.jar beside the repository
	if jar == "" {
		t.Skip("\n" + strings.Repeat("!", 72) + "\n" +
			"!!! TLA2TOOLS_JAR is not set and ../shared/tools/tla2tools.jar (beside the repository) is absent:\n" +
			"!!! the TLC model-checking layer did NOT run.\n" +
			"!!! Nothing about the TLA+ specifications was checked by this test.\n" +
			"!!! Set TLA2TOOLS_JAR=/path/to/tla2tools.jar (TLC 2.20, Java 17) to run it.\n" +
			strings.Repeat("!", 72))
	}
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("TLA2TOOLS_JAR=%s: %v", jar, err)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatalf("TLA2TOOLS_JAR is set but java is not on PATH: %v", err)
	}
	rows := readExpectations(t)
	// Long rows first: under WSCHED_LONG one of them (IdleGo3) is most of the
	// layer, and started behind the others it ran alone at the end while a
	// core stood idle. Then by spec, as before.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].long != rows[j].long {
			return rows[i].long
		}
		return rows[i].spec < rows[j].spec
	})
	// The configurations run side by side, up to go test's -parallel (GOMAXPROCS):
	// each is its own TLC process, and in go test ./... this package is among
	// the last to start, so one at a time left a core idle for minutes.
	start := time.Now()
	t.Cleanup(func() { t.Logf("all TLC configurations: %s", time.Since(start).Round(time.Second)) })
	for _, e := range rows {
		t.Run(e.config, func(t *testing.T) {
			t.Parallel()
			runConfig(t, java, jar, e)
		})
	}
}

func runConfig(t *testing.T, java, jar string, e expectation) {
	if e.long && os.Getenv("WSCHED_LONG") != "1" {
		t.Skipf("%s is a long model (a minute or more); set WSCHED_LONG=1 to run it", e.config)
	}
	// TLC works in a private copy so that nothing is written into tla/.
	dir := t.TempDir()
	for _, f := range []string{e.spec + ".tla", e.config + ".cfg"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	limit := perConfigTimeout
	if e.long {
		limit = longLimit
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := append(jvmFlags(e), "-cp", jar, "tlc2.TLC",
		"-workers", strconv.Itoa(e.workers),
		"-metadir", filepath.Join(dir, "states"),
		"-noGenerateSpecTE",
		"-config", e.config+".cfg", e.spec+".tla")
	cmd := exec.CommandContext(ctx, java, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	// At the time limit, a thread dump first (a JVM prints one to its
	// stdout on SIGQUIT), so that the failure shows where TLC stood, then
	// the kill.
	cmd.Cancel = func() error {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		time.Sleep(3 * time.Second)
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = 10 * time.Second
	began := time.Now()
	err := cmd.Run()
	elapsed := time.Since(began)
	out := buf.Bytes()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("running TLC: %v", err)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		t.Fatalf("%s: TLC did not finish within %s; the end of its output and the JVM's threads:\n%s", e.config, limit, timeoutReport(out))
	}
	distinct := -1
	if m := statesRE.FindAllSubmatch(out, -1); len(m) > 0 {
		distinct, _ = strconv.Atoi(strings.ReplaceAll(string(m[len(m)-1][2]), ",", ""))
	}
	t.Logf("%s/%s: exit %d (want %d), %d distinct states (want %d, ±%d%%), %s",
		e.spec, e.config, code, e.exit, distinct, e.states, e.tolerance, elapsed.Round(100*time.Millisecond))
	if distinct >= 0 {
		t.Logf("METRIC tlc_configs=1 tlc_distinct_states=%d", distinct)
	}

	var problems []string
	if code != e.exit {
		switch {
		case e.exit != exitPass && code == exitPass:
			problems = append(problems, fmt.Sprintf(
				"TLC found no error, but this configuration must fail with exit %d: the check has no teeth", e.exit))
		case e.exit == exitPass:
			problems = append(problems, fmt.Sprintf(
				"TLC exit %d (%s), but this configuration must pass", code, describe(code)))
		default:
			problems = append(problems, fmt.Sprintf(
				"TLC exit %d (%s), want %d (%s)", code, describe(code), e.exit, describe(e.exit)))
		}
	}
	if distinct < 0 {
		problems = append(problems, "no distinct-state count in TLC's output")
	} else if e.exit == exitLiveness && code == exitLiveness {
		// TLC checks temporal properties now and then while it explores
		// (when the state graph has grown enough), not after each
		// state, so where it stops at a liveness violation depends on
		// timing: 9,929 in one run of NoRule2NotifyLive, 53,961 in
		// others. The table holds the largest count seen, which is a
		// bound.
		if distinct > e.states+e.states*e.tolerance/100 {
			problems = append(problems, fmt.Sprintf(
				"%d distinct states before the liveness violation, table says at most %d +%d%%: the model changed; update expectations.tsv if intended",
				distinct, e.states, e.tolerance))
		}
	} else if !within(distinct, e.states, e.tolerance) {
		problems = append(problems, fmt.Sprintf(
			"%d distinct states, table says %d ±%d%%: the model changed; update expectations.tsv if intended",
			distinct, e.states, e.tolerance))
	}
	if len(problems) == 0 {
		return
	}
	path := saveOutput(t, e, out)
	t.Errorf("%s/%s:\n  %s\nfull TLC output: %s\n%s", e.spec, e.config,
		strings.Join(problems, "\n  "), path, counterexample(out))
}

func within(got, want, pct int) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	return d*100 <= want*pct
}

func describe(code int) string {
	switch code {
	case exitPass:
		return "no error"
	case exitDeadlock:
		return "deadlock"
	case exitSafety:
		return "invariant violated"
	case exitLiveness:
		return "liveness violated"
	case exitParse:
		return "parse or semantic error"
	}
	return "TLC error"
}

// saveOutput keeps TLC's full output outside the test's temporary directory,
// so the counterexample can still be read after the test ends.
func saveOutput(t *testing.T, e expectation, out []byte) string {
	f, err := os.CreateTemp("", "tlc-"+e.config+"-*.out")
	if err != nil {
		return "(could not save: " + err.Error() + ")"
	}
	defer f.Close()
	if _, err := f.Write(out); err != nil {
		return "(could not save: " + err.Error() + ")"
	}
	return f.Name()
}

// counterexample returns the part of TLC's output from the first error on,
// capped, so the trace shows in the test log.
func counterexample(out []byte) string {
	s := string(out)
	i := strings.Index(s, "Error:")
	if i < 0 {
		i = strings.Index(s, "Model checking completed")
	}
	if i < 0 {
		i = 0
	}
	s = s[i:]
	const max = 12000
	if len(s) > max {
		s = s[:max] + "\n... (trace truncated; see the full output file)"
	}
	return s
}

// timeoutReport is what a timed-out TLC printed: its last 20 lines of
// output, then the thread dump its SIGQUIT printed, cut to each thread's
// name, state and top 6 frames.
func timeoutReport(out []byte) string {
	text, dump, _ := strings.Cut(string(out), "Full thread dump")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	var b strings.Builder
	b.WriteString(strings.Join(lines, "\n"))
	if dump == "" {
		b.WriteString("\n(no thread dump)")
		return b.String()
	}
	b.WriteString("\nthreads:")
	frames := 0
	for _, l := range strings.Split(dump, "\n") {
		switch {
		case strings.HasPrefix(l, "\""):
			frames = 0
			b.WriteString("\n" + l)
		case strings.Contains(l, "java.lang.Thread.State:"), strings.HasPrefix(strings.TrimSpace(l), "at ") && frames < 6:
			if strings.HasPrefix(strings.TrimSpace(l), "at ") {
				frames++
			}
			b.WriteString("\n" + l)
		}
	}
	return b.String()
}
