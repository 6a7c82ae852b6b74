package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

type status string

const (
	statusPass status = "PASS"
	statusFail status = "FAIL"
	statusSkip status = "SKIPPED"
)

// result is what one layer produced.
type result struct {
	layer  layer
	status status
	took   time.Duration
	cpu    cpuTime // its commands' user and system CPU, children included
	why    string  // for a skip, or a failure that is not a test failure
	// packages are the packages whose tests ran, each once however
	// many of the layer's commands or processes ran it.
	packages map[string]bool
	passed   int      // top-level tests
	passedBy []string // their names (a layer of several processes counts each once)
	failed   []string
	skipped  []string
	metrics  metrics
	evidence []string
	logs     []string
	logDir   string // where failing tests' output is saved
	// profiles are the coverage profiles the layer's commands wrote
	// for its reach gate (layer.reach; reach.go).
	profiles []string

	gofmtDirty bool // gofmt -l listed a file
	// explorerFiles are the files the explorer's run records named, which
	// collectEvidence leaves to the records' own description.
	explorerFiles map[string]bool
}

// addPackages adds pkgs to the packages whose tests ran.
func (r *result) addPackages(pkgs map[string]bool) {
	for p := range pkgs {
		if r.packages == nil {
			r.packages = map[string]bool{}
		}
		r.packages[p] = true
	}
}

// evidencePattern finds the files a failing check points at: porcupine's
// HTML view, TLC's saved output and traces, dumps. rapid's fail files are
// found by rapidFailPattern, relative to their package.
var evidencePattern = regexp.MustCompile(`[^\s"'=]+(\.html|\.trace|\.dump|_TTrace_\S*\.tla|\.out)\b`)

// rapidFailPattern matches rapid's reproduction line:
//
//	To reproduce, specify -run="TestX" -rapid.failfile="testdata/rapid/TestX/TestX-2026....fail" (or -rapid.seed=123)
var rapidFailPattern = regexp.MustCompile(`-run="([^"]*)" -rapid\.failfile="([^"]+)"(?: \(or -rapid\.seed=(\d+)\))?|-run="([^"]*)" -rapid\.seed=(\d+)`)

// stressDumpMarker is the first line of sched.Metrics.String(), which the
// stress watchdog and accounting checks print when they fail.
const stressDumpMarker = "runtime: spawned="

func run(l layer, long bool, logDir string) result {
	r := result{layer: l, status: statusPass, logDir: logDir}
	if l.skipWhen != nil {
		if why := l.skipWhen(); why != "" {
			r.status, r.why = statusSkip, why
			fmt.Printf("      SKIPPED: %s\n", why)
			return r
		}
	}
	cmds, limit, env := l.cmds, l.limitFor(long), os.Environ()
	if long {
		if l.long != nil {
			cmds = l.long
		}
		if l.longFn != nil {
			c, err := l.longFn()
			if err != nil {
				r.status, r.why = statusFail, "listing packages for -long: "+err.Error()
				return r
			}
			cmds = c
		}
		env = append(env, longEnv...)
	}
	start := time.Now()
	// fail records a command that failed, with why if it says.
	fail := func(ok bool, why string) {
		if !ok {
			r.status = statusFail
			if why != "" {
				r.why = why
			}
		}
	}
	// alone runs command i of the layer by itself, with its own log (and
	// coverage profile, for a layer gated on reach).
	alone := func(i int, argv []string) {
		logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d.log", l.name, i))
		r.logs = append(r.logs, logPath)
		if l.reach != "" {
			argv = r.coverArgv(argv, filepath.Join(logDir, fmt.Sprintf("%s-%d.cover", l.name, i)))
		}
		fail(runOne(argv, env, limit, logPath, &r))
	}
	switch {
	case l.lanesFor(long) > 1 && l.processes <= 1:
		runLanes(l, l.lanesFor(long), cmds, env, limit, logDir, &r)
	case l.processes > 1:
		var first []string
		if long {
			first = l.longFirst
		}
		for i, argv := range cmds {
			fail(runShared(l, i, argv, first, env, limit, logDir, &r))
		}
	default:
		for i, argv := range cmds {
			alone(i, argv)
		}
	}
	if long && len(l.longAlone) > 0 {
		// Tests bounded by time, alone on the machine, their logs
		// numbered after the layer's other commands'.
		fmt.Printf("      (then %d command(s) alone: tests bounded by time)\n", len(l.longAlone))
		for j, argv := range l.longAlone {
			alone(len(cmds)+j, argv)
		}
	}
	if l.reach != "" && r.status == statusPass {
		gateReach(&r, long)
	}
	r.took = time.Since(start)
	r.classify()
	sort.Strings(r.evidence)
	r.evidence = dedup(r.evidence)
	return r
}

// classify turns a layer that passed without running a single test into a
// skip: a pass must mean that something was checked.
func (r *result) classify() {
	if r.status == statusPass && isJSONLayer(r.layer) && r.passed == 0 {
		r.status = statusSkip
		if len(r.skipped) > 0 {
			r.why = "every test in the layer skipped: " + strings.Join(r.skipped, ", ")
		} else {
			r.why = "no test ran"
		}
	}
}

func isJSONLayer(l layer) bool {
	for _, argv := range l.cmds {
		if isJSON(argv) {
			return true
		}
	}
	return false
}

// runOne runs one command, streaming a progress line per finished package and
// writing everything to logPath. It reports whether the command passed.
func runOne(argv, env []string, limit time.Duration, logPath string, r *result) (bool, string) {
	fmt.Printf("      $ %s\n", strings.Join(argv, " "))
	for len(argv) > 1 && strings.Contains(argv[0], "=") && !strings.HasPrefix(argv[0], "-") {
		env = append(env[:len(env):len(env)], argv[0]) // later entries win
		argv = argv[1:]
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return false, err.Error()
	}
	defer logf.Close()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.WaitDelay = 10 * time.Second
	ownGroup(cmd)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return false, err.Error()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		consume(pr, logf, r, argv[0], isJSON(argv))
	}()
	err = cmd.Wait()
	pw.Close()
	<-done
	r.cpu.countEnded(cmd, ctx.Err() != nil)
	if err == nil && argv[0] == "gofmt" && r.gofmtDirty {
		return false, "gofmt would reformat the files listed above"
	}
	switch {
	case ctx.Err() != nil:
		return false, fmt.Sprintf("timed out after %s (log: %s)", limit, logPath)
	case err != nil:
		return false, fmt.Sprintf("%s: %v (log: %s)", strings.Join(argv[:2], " "), err, logPath)
	}
	return true, ""
}

// runLanes runs cmds on n lanes at once: command i on lane i mod n, the
// commands of a lane one after another, each with its own log, as the
// loop of run would. Each command's result is its own until all have
// ended, then they are added up in the order of cmds: every pass, failure,
// skip, metric and log counts as it would had the commands run in turn.
func runLanes(l layer, n int, cmds [][]string, env []string, limit time.Duration, logDir string, r *result) {
	fmt.Printf("      (%d commands on %d lanes at once: command i on lane i mod %d)\n", len(cmds), n, n)
	parts := make([]result, len(cmds))
	oks := make([]bool, len(cmds))
	whys := make([]string, len(cmds))
	var wg sync.WaitGroup
	for lane := range n {
		wg.Go(func() {
			for i := lane; i < len(cmds); i += n {
				parts[i] = result{layer: l, logDir: logDir}
				logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d.log", l.name, i))
				parts[i].logs = append(parts[i].logs, logPath)
				argv := cmds[i]
				if l.reach != "" {
					argv = parts[i].coverArgv(argv, filepath.Join(logDir, fmt.Sprintf("%s-%d.cover", l.name, i)))
				}
				oks[i], whys[i] = runOne(argv, env, limit, logPath, &parts[i])
			}
		})
	}
	wg.Wait()
	for i, part := range parts {
		if !oks[i] {
			r.status = statusFail
			if whys[i] != "" {
				r.why = whys[i]
			}
		}
		r.cpu.add(part.cpu)
		r.addPackages(part.packages)
		r.passed += part.passed
		r.passedBy = append(r.passedBy, part.passedBy...)
		r.failed = append(r.failed, part.failed...)
		r.skipped = append(r.skipped, part.skipped...)
		for k, v := range part.metrics {
			r.metrics.add(k, v)
		}
		r.evidence = append(r.evidence, part.evidence...)
		r.logs = append(r.logs, part.logs...)
		r.profiles = append(r.profiles, part.profiles...)
		r.gofmtDirty = r.gofmtDirty || part.gofmtDirty
		for f := range part.explorerFiles {
			if r.explorerFiles == nil {
				r.explorerFiles = map[string]bool{}
			}
			r.explorerFiles[f] = true
		}
	}
}

// runShared runs l.processes copies of one explorer command at once,
// sharing a fresh claims directory (explore.ClaimsEnv): each scenario runs
// in one of them, whichever reaches it first, so the layer keeps that many
// cores busy. The copies' results are merged: a test passed if it passed
// in a copy and failed in none; a scenario's METRIC line comes from the
// copy that ran it.
//
// With first (-run patterns, layer.longFirst) each copy runs the command
// with each of them in turn before the command itself: the tests holding
// the longest searches start at once in the copies, in first's order,
// rather than wherever the source order reaches them, and a copy that
// ends its share early goes on to the rest. The claims keep it one run a
// scenario: a copy's later commands skip what its earlier ones (other
// processes) claimed.
func runShared(l layer, i int, argv []string, first []string, env []string, limit time.Duration, logDir string, r *result) (bool, string) {
	dir := filepath.Join(logDir, fmt.Sprintf("%s-%d-claims", l.name, i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err.Error()
	}
	fmt.Printf("      (%d processes, each scenario in one of them: %s=%s)\n", l.processes, claimsEnv, dir)
	env = append(env[:len(env):len(env)], claimsEnv+"="+dir)
	if len(first) > 0 {
		fmt.Printf("      (each process first runs -run %s in turn: the longest searches)\n", strings.Join(first, ", "))
	}
	parts := make([]result, l.processes)
	firsts := make([]result, l.processes)
	oks := make([]bool, l.processes)
	whys := make([]string, l.processes)
	var wg sync.WaitGroup
	for p := range parts {
		parts[p] = result{layer: l, logDir: logDir}
		firsts[p] = result{layer: l, logDir: logDir}
		var logs []string
		var argvs [][]string
		for j, run := range first {
			argvs = append(argvs, withRun(argv, run))
			logs = append(logs, filepath.Join(logDir, fmt.Sprintf("%s-%d-%d-first%d", l.name, i, p, j)))
		}
		argvs = append(argvs, argv)
		logs = append(logs, filepath.Join(logDir, fmt.Sprintf("%s-%d-%d", l.name, i, p)))
		for j := range argvs {
			if l.reach != "" {
				argvs[j] = r.coverArgv(argvs[j], logs[j]+".cover")
			}
			logs[j] += ".log"
			r.logs = append(r.logs, logs[j])
		}
		wg.Go(func() {
			for j, argv := range argvs {
				into := &firsts[p] // the first commands' results, whose packages are the command's too
				if j == len(argvs)-1 {
					into = &parts[p]
				}
				if oks[p], whys[p] = runOne(argv, env, limit, logs[j], into); !oks[p] {
					return
				}
			}
		})
	}
	wg.Wait()
	passed, failed := map[string]bool{}, map[string]bool{}
	ok, why := true, ""
	for p, part := range parts {
		if !oks[p] {
			ok, why = false, whys[p]
		}
		r.addPackages(part.packages) // a package the processes share counts once
	}
	all := append(firsts, parts...)
	for _, part := range all {
		for _, n := range part.passedBy {
			passed[n] = true
		}
		for _, n := range part.failed {
			failed[n] = true
		}
		r.cpu.add(part.cpu)
		for k, v := range part.metrics {
			r.metrics.add(k, v)
		}
		r.evidence = append(r.evidence, part.evidence...)
	}
	for n := range failed {
		r.failed = append(r.failed, n)
		delete(passed, n)
	}
	for n := range passed {
		r.passedBy = append(r.passedBy, n)
	}
	r.passed += len(passed)
	skipped := map[string]bool{}
	for _, part := range all {
		for _, n := range part.skipped {
			if !passed[n] && !failed[n] && !skipped[n] {
				skipped[n] = true
				r.skipped = append(r.skipped, n)
			}
		}
	}
	sort.Strings(r.failed)
	sort.Strings(r.skipped)
	return ok, why
}

// withRun is argv with its -run pattern replaced by run, or run added
// after "test" if argv has none.
func withRun(argv []string, run string) []string {
	out := slices.Clone(argv)
	if i := slices.Index(out, "-run"); i >= 0 && i+1 < len(out) {
		out[i+1] = run
		return out
	}
	if i := slices.Index(out, "test"); i >= 0 {
		return slices.Insert(out, i+1, "-run", run)
	}
	return append(out, "-run", run)
}

// claimsEnv is explore.ClaimsEnv (verify does not import the explorer);
// claimedElsewhere is in the skip message of a scenario another process
// ran, which verify does not repeat (a skip writes no run record; the
// tests check both against the explorer).
const (
	claimsEnv        = "WSCHED_EXPLORE_CLAIMS"
	claimedElsewhere = "run by another process"
)

func isJSON(argv []string) bool {
	for _, a := range argv {
		if a == "-json" {
			return true
		}
	}
	return false
}

// consume reads a command's output line by line: go test -json events
// when asJSON, plain text otherwise.
func consume(in io.Reader, logf io.Writer, r *result, argv0 string, asJSON bool) {
	outputs := map[string]*strings.Builder{} // failing test output, by package/test
	// The records of failed scenarios, by package/test, kept until the
	// test ends: they are evidence only if it failed. A passing test may
	// log a failure's record, as cmd/verify's own tests print the streams
	// they feed consume.
	failedRecords := map[string][]runRecord{}
	text := func(line string) {
		if asJSON {
			fmt.Printf("      | %s\n", line) // build errors come as plain text
			return
		}
		if argv0 == "gofmt" && strings.HasSuffix(line, ".go") {
			r.gofmtDirty = true
		}
		if strings.TrimSpace(line) != "" {
			fmt.Printf("      | %s\n", line)
		}
		collectEvidence(line, r)
	}
	readTestJSON(in, logf, text, func(ev testEvent) {
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "output":
			r.metrics.scan(ev.Output)
			if rec, ok := recordIn(ev.Output); ok {
				if rec.Failure == nil {
					fmt.Printf("      | %s\n", rec.outcome())
				} else {
					failedRecords[key] = append(failedRecords[key], rec)
				}
			}
			// Kept per test (and per package, for output outside any
			// test): evidence is taken only from what failed, not from
			// the logs of passing tests that mention such files.
			keepOutput(outputs, key, ev.Output)
		case "pass", "fail", "skip":
			if ev.Action == "fail" {
				for _, rec := range failedRecords[key] {
					r.takeRecord(rec)
				}
				if ev.Test == "" {
					// A binary that crashed ends no test it ran: their
					// records are the package's failure's.
					takeUnended(failedRecords, ev.Package, r)
				}
				if b := outputs[key]; b != nil {
					collectEvidence(b.String(), r)
					collectRapid(ev.Package, b.String(), r)
				}
			}
			delete(failedRecords, key)
			if ev.Test == "" {
				delete(outputs, key)
				r.addPackages(map[string]bool{ev.Package: true})
				fmt.Printf("      %-4s %s (%.1fs)\n", strings.ToUpper(ev.Action), ev.Package, ev.Elapsed)
				return
			}
			if top, _, sub := strings.Cut(ev.Test, "/"); sub {
				// Subtests count through their parent. A failing
				// one's output goes to its top-level test's, which
				// go test -json gives only the parent's own lines:
				// the failure block and file of the parent would
				// otherwise say it failed and not why.
				if b := outputs[key]; b != nil && ev.Action == "fail" {
					keepOutput(outputs, ev.Package+" "+top, b.String())
				}
				delete(outputs, key)
				return
			}
			name := short(ev.Package) + "." + ev.Test
			switch ev.Action {
			case "pass":
				r.passed++
				r.passedBy = append(r.passedBy, name)
			case "fail":
				r.failed = append(r.failed, name)
				if b := outputs[key]; b != nil {
					// Up to 400 lines: an explorer failure's schedule
					// and replay command, a stress dump's metrics, in
					// the log of a machine (CI) whose log directory is
					// gone after the run.
					fmt.Printf("      --- FAIL %s\n%s", name, indent(tail(b.String(), 400)))
					saveFailure(r, name, b.String())
				}
			case "skip":
				r.skipped = append(r.skipped, name)
				if b := outputs[key]; b != nil && !strings.Contains(b.String(), claimedElsewhere) {
					fmt.Printf("      --- SKIP %s: %s\n", name, strings.TrimSpace(tail(b.String(), 3)))
				}
			}
			delete(outputs, key)
		}
	})
}

// keepOutput adds s to the output kept for key (package and test), up to
// 4 MiB a test.
func keepOutput(outputs map[string]*strings.Builder, key, s string) {
	b := outputs[key]
	if b == nil {
		b = &strings.Builder{}
		outputs[key] = b
	}
	if b.Len() < 4<<20 {
		b.WriteString(s)
	}
}

// takeUnended takes the failure records of pkg's tests that have not
// ended, in the order of their names, and forgets them.
func takeUnended(failedRecords map[string][]runRecord, pkg string, r *result) {
	var keys []string
	for k := range failedRecords {
		if strings.HasPrefix(k, pkg+" ") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, rec := range failedRecords[k] {
			r.takeRecord(rec)
		}
		delete(failedRecords, k)
	}
}

// takeRecord takes a failed scenario's page and replay command as
// evidence, for a test that failed.
func (r *result) takeRecord(rec runRecord) {
	r.evidence = append(r.evidence, rec.evidence()...)
	if r.explorerFiles == nil {
		r.explorerFiles = map[string]bool{}
	}
	r.explorerFiles[rec.Failure.Evidence.Page] = true
	r.explorerFiles[rec.Failure.Evidence.Trace] = true
}

// saveFailure writes a failing test's whole output beside the logs and
// names it as evidence; when it holds a scheduler Metrics dump it says so.
func saveFailure(r *result, name, out string) {
	if r.logDir == "" {
		return
	}
	p := filepath.Join(r.logDir, r.layer.name+"-"+strings.NewReplacer("/", "_", " ", "_").Replace(name)+".txt")
	if os.WriteFile(p, []byte(out), 0o644) != nil {
		return
	}
	what := "failing test output"
	if strings.Contains(out, stressDumpMarker) {
		what = "stress dump (Metrics and goroutine stacks)"
	}
	r.evidence = append(r.evidence, fmt.Sprintf("%s of %s: %s", what, name, p))
}

// collectRapid turns rapid's reproduction line into evidence: the fail
// file relative to the module root, the seed, and the command to replay it.
func collectRapid(pkg, s string, r *result) {
	for _, m := range rapidFailPattern.FindAllStringSubmatch(s, -1) {
		dir := "./" + strings.TrimPrefix(strings.TrimPrefix(pkg, modulePath), "/")
		if m[2] != "" {
			ev := fmt.Sprintf("rapid fail file: %s", filepath.Join(dir, m[2]))
			if m[3] != "" {
				ev += " (seed " + m[3] + ")"
			}
			ev += fmt.Sprintf("; replay: go test -run='%s' %s -rapid.failfile=%s", m[1], dir, m[2])
			r.evidence = append(r.evidence, ev)
		} else {
			r.evidence = append(r.evidence, fmt.Sprintf("rapid seed %s; replay: go test -run='%s' %s -rapid.seed=%s", m[5], m[4], dir, m[5]))
		}
	}
}

// runStart is when this run of verify started. A file a failing check
// names is this run's evidence only if it was written since: /tmp keeps
// the porcupine views, TLC outputs and dumps of earlier runs under the
// same kind of name, and a test that fails before writing its own may
// still print such a path. It is taken once, not per command, because a
// file one command of the run wrote may be named by a later one, and is
// this run's evidence all the same.
var runStart = time.Now()

// mtimeSlack is how much older than runStart a file's modification time
// may read and still count as written in this run: file systems keep
// times coarser than time.Now (the kernel's coarse clock, FAT's 2 s).
const mtimeSlack = 2 * time.Second

// collectEvidence lists the existing files s names: those written in this
// run as evidence, older ones as older than this run, with their time, so
// that a file an earlier run left is neither taken for this failure's
// evidence nor hidden.
func collectEvidence(s string, r *result) {
	for _, m := range evidencePattern.FindAllString(s, -1) {
		m = strings.Trim(m, `"'(),:`)
		if r.explorerFiles[m] {
			continue
		}
		fi, err := os.Stat(m)
		switch {
		case err != nil:
		case fi.ModTime().Before(runStart.Add(-mtimeSlack)):
			r.evidence = append(r.evidence, fmt.Sprintf("older than this run (modified %s UTC, the run started %s UTC): %s",
				fi.ModTime().UTC().Format(time.DateTime), runStart.UTC().Format(time.DateTime), describeEvidence(m)))
		default:
			r.evidence = append(r.evidence, describeEvidence(m))
		}
	}
}

func short(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/wsched/wsched/")
}

func tail(s string, lines int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > lines {
		ls = append([]string{"        ..."}, ls[len(ls)-lines:]...)
	}
	return strings.Join(ls, "\n") + "\n"
}

func indent(s string) string {
	return "        " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n        ") + "\n"
}

func dedup(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// describeEvidence names what kind of evidence a file is.
func describeEvidence(path string) string {
	switch {
	case strings.HasSuffix(path, ".html"):
		return "porcupine HTML view (open in a browser): " + path
	case strings.Contains(path, "_TTrace_") || strings.HasSuffix(path, ".trace"):
		return "TLC trace: " + path
	case strings.HasSuffix(path, ".out") && strings.Contains(filepath.Base(path), "tlc-"):
		return "TLC output with the counterexample: " + path
	}
	return path
}

// splitByDep splits the packages matching patterns into those whose test
// binary links dep and the others, as ./-relative paths. A package without
// tests is in neither.
func splitByDep(dep string, patterns ...string) (with, without []string, err error) {
	pkgs, err := goListTest("", patterns...)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pkgs {
		// The test binary's main package is "p.test".
		pkg, isTest := strings.CutSuffix(p.path, ".test")
		if !isTest || strings.Contains(pkg, " ") {
			continue
		}
		rel := "./" + strings.TrimPrefix(strings.TrimPrefix(pkg, modulePath), "/")
		if slices.Contains(p.deps, dep) {
			with = append(with, rel)
		} else {
			without = append(without, rel)
		}
	}
	sort.Strings(with)
	sort.Strings(without)
	return with, without, nil
}
