package main

// The mutant catalog run: -mutants applies each mutant of mutants/ to a
// private copy of the module and runs the check layers there, restricted to
// the packages that import the mutated one (directly, or through their
// tests); -mutants -fast runs only the go test commands each mutant's
// caught-by line names.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsched/wsched/internal/mutant"
	"github.com/wsched/wsched/internal/scenarioset"
)

const modulePath = "github.com/wsched/wsched"

// cellStatus is the outcome of one mutant under one check.
type cellStatus byte

const (
	cellNotRun   cellStatus = '-' // the layer has no package that sees the mutant, or -fast did not name it
	cellKilled   cellStatus = 'K' // a test failed: the check caught the bug
	cellSurvived cellStatus = '.' // every test passed
	cellTimeout  cellStatus = 'T' // nothing failed before the time limit: no test's own watchdog fired
	cellBuild    cellStatus = 'B' // the mutated copy does not compile: the mutant is broken, not caught
	cellNoTests  cellStatus = '?' // the command ran no test at all (a caught-by regexp matching nothing)
)

func (c cellStatus) killed() bool { return c == cellKilled }

func (c cellStatus) word() string {
	switch c {
	case cellKilled:
		return "KILLED"
	case cellSurvived:
		return "SURVIVED"
	case cellTimeout:
		return "TIMEOUT"
	case cellBuild:
		return "BUILD FAILED"
	case cellNoTests:
		return "NO TESTS RAN"
	}
	return "not run"
}

// mutantOptions are the -mutants flags.
type mutantOptions struct {
	fast   bool          // only the catalog's caught-by commands
	every  bool          // with fast: run every caught-by entry, not only up to the first kill
	filter string        // run only mutants whose ID contains this
	only   string        // full matrix: run only this layer
	dir    string        // the catalog; mutants/ under the module root when empty
	limit  time.Duration // per cell
	jobs   int           // mutants run at once (each on its own copy of the module)
}

// mutantRow is one mutant's line of the kill matrix.
type mutantRow struct {
	m       *mutant.Mutant
	cells   map[string]cellStatus // by layer
	failed  map[string][]string   // by layer: the tests that failed
	entries []entryResult         // -fast: one per caught-by entry run
	err     error                 // stale, malformed, or could not be copied
	took    time.Duration
	cpu     cpuTime // its cells' commands' user and system CPU, children included
}

type entryResult struct {
	c      mutant.Catch
	status cellStatus
	took   time.Duration
	failed []string
}

// doneLine is the line printed when a mutant's cells have run: the layers
// that killed it, its wall time and, when known, its cells' CPU.
func (r *mutantRow) doneLine() string {
	s := fmt.Sprintf("      -> killed by [%s] in %s", strings.Join(r.killers(), " "), r.took.Round(100*time.Millisecond))
	if c := cpuAndCores(r.cpu, r.took); c != "" {
		s += " (cpu " + c + ")"
	}
	return s
}

func (r *mutantRow) killers() []string {
	var ls []string
	for _, l := range mutant.Layers {
		if r.cells[l].killed() {
			ls = append(ls, l)
		}
	}
	return ls
}

// runMutants runs the catalog and prints the kill matrix. It returns false
// when a mutant is stale, malformed, or killed by no layer.
func runMutants(root string, opt mutantOptions, logDir string) bool {
	start := time.Now()
	dir := opt.dir
	if dir == "" {
		dir = filepath.Join(root, "mutants")
	}
	cat, err := mutant.Catalog(dir)
	if err == nil && len(cat) == 0 {
		err = mutant.ErrNoCatalog
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		return false
	}
	var todo []*mutant.Mutant
	for _, m := range cat {
		if opt.filter == "" || strings.Contains(m.ID, opt.filter) {
			todo = append(todo, m)
		}
	}
	mode := "full matrix: every layer, restricted to the packages that see the mutated file"
	var deps depGraph
	if opt.fast {
		mode = "fast: each mutant's caught-by commands"
		if !opt.every {
			mode += ", up to the first that kills it"
		}
	} else {
		deps, err = loadDeps(root)
		if err != nil {
			fmt.Fprintln(os.Stderr, "verify: go list:", err)
			return false
		}
	}
	fmt.Printf("verify -mutants (%s): %d mutants, %d at a time; per-cell limit %v\n", mode, len(todo), max(opt.jobs, 1), opt.limit)
	mdir := filepath.Join(logDir, "mutants")
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		return false
	}

	// Mutants run opt.jobs at a time, each on its own copy of the module;
	// a mutant's lines are printed whole, in catalog order, once it and
	// every mutant before it are done. Much of a cell's time is a build's
	// link or a test waiting on a watchdog, so two at once on two cores
	// take about half the wall time of one at a time, and three less
	// again (-j's default).
	rows := make([]*mutantRow, len(todo))
	outs := make([]bytes.Buffer, len(todo))
	done := make([]chan struct{}, len(todo))
	jobs := max(opt.jobs, 1)
	sem := make(chan struct{}, jobs)
	for i, m := range todo {
		rows[i] = &mutantRow{m: m, cells: map[string]cellStatus{}, failed: map[string][]string{}}
		done[i] = make(chan struct{})
		go func(i int, row *mutantRow) {
			defer close(done[i])
			sem <- struct{}{}
			defer func() { <-sem }()
			w := &outs[i]
			fmt.Fprintf(w, "\n[%d/%d] %s  (%s, %s)\n", i+1, len(todo), row.m.ID, row.m.Scope, row.m.File)
			t0 := time.Now()
			row.err = runOneMutant(w, root, row.m, opt, deps, mdir, row)
			row.took = time.Since(t0)
			if row.err != nil {
				fmt.Fprintf(w, "      ERROR: %v\n", row.err)
			} else {
				fmt.Fprintln(w, row.doneLine())
			}
		}(i, rows[i])
	}
	for i := range todo {
		<-done[i]
		os.Stdout.Write(outs[i].Bytes())
	}
	ok := printMatrix(os.Stdout, rows, opt, time.Since(start))
	fmt.Printf("cell logs: %s\n", mdir)
	return ok
}

func runOneMutant(w io.Writer, root string, m *mutant.Mutant, opt mutantOptions, deps depGraph, logDir string, row *mutantRow) error {
	if err := m.Check(root); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	dir, err := mutant.CopyModule(root)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := m.Apply(dir); err != nil {
		return err
	}
	logPath := func(name string) string {
		return filepath.Join(logDir, m.ID+"-"+strings.NewReplacer("/", "_", ":", "_", "^", "", "$", "", "|", "+", "*", "").Replace(name)+".log")
	}
	if opt.fast {
		for _, c := range m.CaughtBy {
			argv := c.Args(cellFlags(opt.limit)...)
			cr := runCell(dir, argv, opt.limit, logPath(c.String()), m.ID)
			row.cpu.add(cr.cpu)
			row.entries = append(row.entries, entryResult{c: c, status: cr.status, took: cr.took, failed: cr.failed})
			fmt.Fprint(w, cellLine(c.Layer, cr, c.String()))
			if prev := row.cells[c.Layer]; prev != cellKilled {
				row.cells[c.Layer] = cr.status
			}
			row.failed[c.Layer] = append(row.failed[c.Layer], cr.failed...)
			if cr.status.killed() && !opt.every {
				break
			}
		}
		return nil
	}
	mutated := modulePath + "/" + filepath.ToSlash(filepath.Dir(m.File))
	for _, l := range mutant.Layers {
		if opt.only != "" && l != opt.only {
			continue
		}
		pkgs := deps.affected(mutated, layerPackages(l))
		if len(pkgs) == 0 {
			row.cells[l] = cellNotRun
			fmt.Fprintf(w, "      %-9s %-13s          (no package of the layer imports %s)\n", l, "not run", short(mutated))
			continue
		}
		argv := []string{"go", "test", "-race"}
		switch l {
		case "chaos":
			argv = append(argv, "-tags", "chaos")
		case "explore":
			argv = []string{"go", "test", "-tags", "explore", "-run", "^TestExplore"}
		case "weak":
			argv = []string{"go", "test", "-tags", "explore,weak", "-run", weakScenarios}
		case "model":
			argv = []string{"go", "test", "-tags", "explore,weak"}
		}
		argv = append(argv, cellFlags(opt.limit)...)
		argv = append(argv, pkgs...)
		cr := runCell(dir, argv, opt.limit, logPath(l), m.ID)
		row.cpu.add(cr.cpu)
		row.cells[l] = cr.status
		row.failed[l] = cr.failed
		fmt.Fprint(w, cellLine(l, cr, strings.Join(pkgs, " ")))
	}
	return nil
}

// cellFlags are the go test flags of every cell. -trimpath: the mutated
// copies of the module lie in different directories, and only a build
// that records no directory shares the build cache between them. -vet=off:
// a mutant is killed by a test that fails, never by go vet (which go test
// runs first unless told not to); vet has no say in a cell, and its pass
// over the test package is a quarter of a second of each cell's CPU.
func cellFlags(limit time.Duration) []string {
	return []string{"-trimpath", "-vet=off", "-count=1", "-json", fmt.Sprintf("-timeout=%s", goTestTimeout(limit))}
}

// cellLine is the line printed for a cell that ran: its layer, outcome,
// wall time, CPU (blank when not known: a command killed at the cell's
// limit), what ran, and the tests that failed.
func cellLine(layer string, cr cellResult, what string) string {
	cpu := ""
	if d, ok := cr.cpu.known(); ok {
		cpu = fmt.Sprintf("cpu %6.1fs", d.Seconds())
	}
	return fmt.Sprintf("      %-9s %-13s %6.1fs  %-11s  %s%s\n", layer, cr.status.word(), cr.took.Seconds(), cpu, what, failedSuffix(cr.failed))
}

func failedSuffix(failed []string) string {
	if len(failed) == 0 {
		return ""
	}
	if len(failed) > 4 {
		failed = append(failed[:4:4], fmt.Sprintf("and %d more", len(failed)-4))
	}
	return "  [failed: " + strings.Join(failed, ", ") + "]"
}

// goTestTimeout is the -timeout given to go test: shorter than the cell's
// limit, so that go test's own alarm (which dumps every goroutine) strikes
// before the cell is cut off.
func goTestTimeout(limit time.Duration) time.Duration {
	if limit > 2*time.Minute {
		return limit - 30*time.Second
	}
	return limit * 3 / 4
}

// layerPackages is each layer's package set, as cmd/verify's layers run it.
func layerPackages(l string) []string {
	switch l {
	case "unit":
		return []string{"./impl/...", "./spec/...", "./model/...", "./internal/...", "./explore", "./explore/atomic", "./explore/sync", "./explore/internal/engine"}
	case "explore", "weak":
		return scenarioset.Dirs(l)
	case "model":
		return modelPackages
	case "porcupine":
		return []string{"./linearizability"}
	case "stress":
		return []string{"./stress"}
	case "chaos":
		return []string{"./stress", "./linearizability"}
	}
	return nil
}

// mutantWatchdog is WSCHED_WATCHDOG in the mutant cells, unless set.
const mutantWatchdog = 20 * time.Second

// cellResult is what one go test -json run on a mutated copy said.
type cellResult struct {
	status cellStatus
	took   time.Duration
	cpu    cpuTime // the command's user and system CPU, children included
	failed []string
}

// runCell runs argv in the mutated copy dir of mutant id; WSCHED_MUTANT
// names it, for the explorer's replay commands.
func runCell(dir string, argv []string, limit time.Duration, logPath, id string) cellResult {
	start := time.Now()
	logf, err := os.Create(logPath)
	if err != nil {
		return cellResult{status: cellBuild, failed: []string{err.Error()}}
	}
	defer logf.Close()
	fmt.Fprintf(logf, "$ (cd %s && %s)\n", dir, strings.Join(argv, " "))
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WSCHED_MUTANT="+id)
	if os.Getenv("WSCHED_WATCHDOG") == "" {
		// A mutant that strands a task makes a check wait for its
		// watchdog; a short one keeps such a kill inside the cell's
		// limit (the checks' own default, 60 s, is for loaded machines
		// running correct code, and TestBehaviour runs each check for
		// several implementations).
		cmd.Env = append(cmd.Env, "WSCHED_WATCHDOG="+mutantWatchdog.String())
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.WaitDelay = 10 * time.Second
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return cellResult{status: cellBuild, failed: []string{err.Error()}}
	}
	var sum testSummary
	done := make(chan struct{})
	go func() {
		defer close(done)
		sum = summarize(pr, logf)
	}()
	err = cmd.Wait()
	pw.Close()
	<-done
	r := cellResult{took: time.Since(start), failed: sum.failed}
	r.cpu.countEnded(cmd, ctx.Err() != nil)
	if len(r.failed) == 0 {
		for _, c := range sum.crashed {
			r.failed = append(r.failed, c+" (crashed)")
		}
	}
	r.status = sum.classify(err != nil, ctx.Err() != nil)
	fmt.Fprintf(logf, "verify: %s after %v", r.status.word(), r.took)
	if d, ok := r.cpu.known(); ok {
		fmt.Fprintf(logf, ", cpu %v", d)
	}
	fmt.Fprintln(logf)
	return r
}

// testSummary is what classify needs from a go test -json stream.
type testSummary struct {
	ran         int      // top-level tests that passed or failed
	failed      []string // top-level tests that failed
	buildFailed bool     // a package did not compile
	goTimeout   bool     // go test's -timeout alarm fired ("panic: test timed out")
	pkgFailed   bool     // a test binary failed (possibly without naming a test)
	crashed     []string // tests running when the binary died: a panic, or a watchdog that exits
}

// summarize reads go test -json output, copying it to log.
func summarize(in io.Reader, log io.Writer) testSummary {
	var s testSummary
	text := func(line string) {
		if strings.Contains(line, "[build failed]") || strings.Contains(line, "[setup failed]") {
			s.buildFailed = true
		}
	}
	readTestJSON(in, log, text, func(ev testEvent) {
		switch ev.Action {
		case "build-fail":
			s.buildFailed = true
		case "output":
			if strings.Contains(ev.Output, "panic: test timed out after") {
				s.goTimeout = true
			}
			if ev.Test != "" && (strings.HasPrefix(ev.Output, "panic: ") || strings.Contains(ev.Output, "WATCHDOG")) {
				name := short(ev.Package) + "." + ev.Test
				if len(s.crashed) == 0 || s.crashed[len(s.crashed)-1] != name {
					s.crashed = append(s.crashed, name)
				}
			}
			if ev.Test == "" && (strings.Contains(ev.Output, "[build failed]") || strings.Contains(ev.Output, "[setup failed]")) {
				s.buildFailed = true
			}
		case "pass", "fail":
			if ev.Test == "" {
				s.pkgFailed = s.pkgFailed || ev.Action == "fail"
				return
			}
			if strings.Contains(ev.Test, "/") {
				return
			}
			s.ran++
			if name := short(ev.Package) + "." + ev.Test; ev.Action == "fail" && !slices.Contains(s.failed, name) {
				s.failed = append(s.failed, name) // once, though -count may fail it again
			}
		}
	})
	return s
}

// classify turns a run's summary into a cell. A failed test is a kill,
// including a test whose own watchdog gave up waiting; go test's -timeout
// alarm or the cell's limit is not: nothing in the test noticed the bug, it
// only ran out of time.
func (s testSummary) classify(exitErr, cellTimedOut bool) cellStatus {
	switch {
	case s.buildFailed:
		return cellBuild
	case s.goTimeout || cellTimedOut:
		return cellTimeout
	case len(s.failed) > 0:
		return cellKilled
	case exitErr && s.pkgFailed:
		return cellKilled // a test binary crashed outside any one test
	case exitErr:
		return cellBuild
	case s.ran == 0:
		return cellNoTests
	}
	return cellSurvived
}

// printMatrix prints the kill matrix and the verdict; it reports whether the
// catalog passed.
func printMatrix(w io.Writer, rows []*mutantRow, opt mutantOptions, total time.Duration) bool {
	fmt.Fprintf(w, "\nKill matrix (K killed, . survived, T timed out without a watchdog firing, B does not compile, ? no test ran, - not run)\n\n")
	// The table is made in table and written without the spaces that end
	// a row whose cpu is not known.
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "mutant\tscope\t%s\tkilled by\ttime\tcpu\n", strings.Join(mutant.Layers, "\t"))
	var dead, lone, spec []string
	var bad []string
	var falseClaims []string
	var cpu cpuTime
	for _, r := range rows {
		cpu.add(r.cpu)
		if r.err != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\tERROR\t%s\t%s\n", r.m.ID, r.m.Scope, strings.Repeat("!\t", len(mutant.Layers)-1)+"!", r.took.Round(time.Second), cpuAndCores(r.cpu, r.took))
			bad = append(bad, r.err.Error())
			continue
		}
		var cells []string
		for _, l := range mutant.Layers {
			c := r.cells[l]
			if c == 0 {
				c = cellNotRun
			}
			cells = append(cells, string(c))
		}
		k := r.killers()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.m.ID, r.m.Scope, strings.Join(cells, "\t"), len(k), r.took.Round(time.Second), cpuAndCores(r.cpu, r.took))
		switch {
		case len(k) == 0:
			dead = append(dead, r.m.ID)
		case len(k) == 1:
			lone = append(lone, r.m.ID+" ("+k[0]+")")
		}
		if r.m.Scope == "spec" {
			spec = append(spec, r.m.ID)
		}
		for _, e := range r.entries {
			if !e.status.killed() {
				falseClaims = append(falseClaims, fmt.Sprintf("%s: %s %s", r.m.ID, e.c, e.status.word()))
			}
		}
	}
	tw.Flush()
	for line := range strings.Lines(table.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	fmt.Fprintf(w, "\n%d mutants in %s", len(rows), total.Round(time.Second))
	if s := cpuAndCores(cpu, total); s != "" {
		fmt.Fprintf(w, ", cpu %s", s)
	}
	if len(spec) > 0 {
		fmt.Fprintf(w, " (%d target spec/, not impl/: %s)", len(spec), strings.Join(spec, ", "))
	}
	fmt.Fprintln(w)
	if opt.fast && !opt.every {
		fmt.Fprintln(w, "fast mode stops at the first entry that kills a mutant: the matrix shows at least one killer, not all of them")
	}
	if len(lone) > 0 && (!opt.fast || opt.every) {
		sort.Strings(lone)
		fmt.Fprintf(w, "killed by one layer only (the goal is two): %s\n", strings.Join(lone, ", "))
	}
	for _, c := range falseClaims {
		fmt.Fprintf(w, "caught-by entry that did not kill its mutant: %s\n", c)
	}
	for _, b := range bad {
		fmt.Fprintf(w, "FAIL: %s\n", b)
	}
	for _, d := range dead {
		fmt.Fprintf(w, "FAIL: %s survived every layer that ran\n", d)
	}
	ok := len(bad) == 0 && len(dead) == 0
	if ok {
		fmt.Fprintln(w, "PASS: every mutant killed, none stale")
	}
	return ok
}

// depGraph maps each package of the module to the module packages it or its
// tests import, directly or not.
type depGraph map[string]map[string]bool

func loadDeps(root string) (depGraph, error) {
	pkgs, err := goListTest(root, "./...")
	if err != nil {
		return nil, err
	}
	g := depGraph{}
	for _, p := range pkgs {
		pkg := basePackage(p.path)
		if pkg == "" {
			continue
		}
		if g[pkg] == nil {
			g[pkg] = map[string]bool{}
		}
		for _, d := range p.deps {
			if d = basePackage(d); d != "" && d != pkg {
				g[pkg][d] = true
			}
		}
	}
	return g, nil
}

// basePackage strips go list -test's decorations ("p [p.test]", "p_test",
// "p.test") and returns "" for packages outside the module.
func basePackage(p string) string {
	p, _, _ = strings.Cut(p, " ")
	p = strings.TrimSuffix(p, ".test")
	p = strings.TrimSuffix(p, "_test")
	if p != modulePath && !strings.HasPrefix(p, modulePath+"/") {
		return ""
	}
	return p
}

// affected returns the ./-relative packages matching patterns (a ./x/...
// pattern or a ./x package) that are the mutated package or import it.
func (g depGraph) affected(mutated string, patterns []string) []string {
	var out []string
	for pkg, deps := range g {
		rel := "./" + strings.TrimPrefix(strings.TrimPrefix(pkg, modulePath), "/")
		if !matchesAny(rel, patterns) {
			continue
		}
		if pkg == mutated || deps[mutated] {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

func matchesAny(rel string, patterns []string) bool {
	for _, p := range patterns {
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if rel == base || strings.HasPrefix(rel, base+"/") {
				return true
			}
		} else if rel == p {
			return true
		}
	}
	return false
}
