package main

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/scenarioset"
)

// The weak layer runs a scenario of each package the list gives it, and
// every scenario weakScenarios selects is in one of those packages: a
// package listed for the weak layer whose scenarios the pattern misses,
// or a scenario the pattern names in a package the layer does not run,
// is a check that silently does not happen.
func TestWeakScenariosMatchTheWeakPackages(t *testing.T) {
	found, err := scenarioset.Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	weak := regexp.MustCompile(weakScenarios)
	dirs := scenarioset.Dirs("weak")
	for dir, tests := range found {
		n := 0
		for _, name := range tests {
			if weak.MatchString(name) {
				n++
			}
		}
		switch in := slices.Contains(dirs, dir); {
		case in && n == 0:
			t.Errorf("%s is in the weak layer but weakScenarios selects none of its scenarios", dir)
		case !in && n > 0:
			t.Errorf("weakScenarios selects %d scenarios of %s, which the weak layer does not run", n, dir)
		}
	}
}

// Under -long the weak layer also runs scenarioset.WeakLongScenarios: each
// name it gives is a scenario of a package the weak layer runs, and the
// pattern selects exactly those (a renamed test would otherwise drop out of
// -long unsaid).
func TestWeakLongScenariosExist(t *testing.T) {
	found, err := scenarioset.Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TestExploreBatchMateOfBlockedPoll", "TestExploreChildRunsWhileParentBlocks", "TestExploreExtraRetireAgainstLocalSpawn",
		"TestExploreExtraRetireAgainstRemoteSpawn", "TestExploreGoTree",
		"TestExploreLIFOBehindBlockedPoll", "TestExploreLIFOBehindBlockedPollAfterIdle",
		"TestExploreMonitorIdleAgainstSelfWake", "TestExploreMonitorIdleAgainstWake", "TestExploreRemoteSpawn",
		"TestExploreShutdownCancelsWaiting", "TestExploreTimerDuringBlockedPoll", "TestExploreTimerMirror"}
	long := regexp.MustCompile(scenarioset.WeakLongScenarios)
	var got []string
	for dir, tests := range found {
		for _, name := range tests {
			if !long.MatchString(name) {
				continue
			}
			got = append(got, name)
			if !slices.Contains(scenarioset.Dirs("weak"), dir) {
				t.Errorf("WeakLongScenarios selects %s of %s, which the weak layer does not run", name, dir)
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("WeakLongScenarios selects %v, want %v", got, want)
	}
	both := regexp.MustCompile(weakLongScenarios)
	for _, name := range append(want, "TestExploreRing", "TestExploreRule2WakesForBatchMate", "TestExploreSleep", "TestExploreShutdownRacesGo", "TestExploreShutdownRacesSpawn", "TestExploreGoexitRacesWake", "TestExploreShutdownWithBlockedPoll") {
		if !both.MatchString(name) {
			t.Errorf("the weak layer's -long pattern misses %s", name)
		}
	}
}

// The weak layer's processes start -long with scenarioset.WeakLongFirst
// (runShared): each pattern selects one test of the weak packages, one
// that the layer's -long pattern runs anyway (they only change the
// order).
func TestWeakLongFirstIsPartOfTheLongLayer(t *testing.T) {
	found, err := scenarioset.Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	weak := layerNamed(t, "weak")
	if !slices.Equal(weak.longFirst, scenarioset.WeakLongFirst) || weak.processes < 1 {
		t.Fatalf("the weak layer's longFirst is %q (processes %d), want scenarioset.WeakLongFirst", weak.longFirst, weak.processes)
	}
	both := regexp.MustCompile(weakLongScenarios)
	var got []string
	for _, pattern := range scenarioset.WeakLongFirst {
		first := regexp.MustCompile(pattern)
		n := 0
		for dir, tests := range found {
			for _, name := range tests {
				if !first.MatchString(name) {
					continue
				}
				n++
				got = append(got, name)
				if !slices.Contains(scenarioset.Dirs("weak"), dir) || !both.MatchString(name) {
					t.Errorf("WeakLongFirst's %s selects %s of %s, which the weak layer's -long command does not run", pattern, name, dir)
				}
			}
		}
		if n != 1 {
			t.Errorf("WeakLongFirst's %s selects %d tests, want one", pattern, n)
		}
	}
	if want := []string{"TestExploreLIFOBehindBlockedPoll", "TestExploreLIFOBehindBlockedPollAfterIdle", "TestExploreGoRecycling", "TestExploreRemoteSpawn", "TestExploreWakeRacesPoll"}; !slices.Equal(got, want) {
		t.Errorf("WeakLongFirst selects %v in turn, want %v", got, want)
	}
}

// Under -long the unit layer gives rapid 2000 cases per property; the
// explorer's engine (explore/internal/engine) runs them without the race detector (its
// generated-program properties take half an hour each with it), as two
// commands that between them run each of its tests once, side by side on
// the layer's two lanes, and every other package that links rapid runs
// them with it.
func TestLongUnitLayerRunsTheExplorerWithoutRace(t *testing.T) {
	t.Chdir("../..")
	unit := layerNamed(t, "unit")
	cmds, err := unit.longFn()
	if err != nil {
		t.Fatal(err)
	}
	var raced int
	var explorer []string // how each engine command selects its tests
	for _, c := range cmds {
		race, rapid := slices.Contains(c, "-race"), slices.Contains(c, "-rapid.checks=2000")
		if slices.Contains(c, "./explore/internal/engine") {
			if race || !rapid {
				t.Errorf("%v: want ./explore/internal/engine with 2000 rapid cases and without -race", c)
			}
			for _, sel := range []string{"-run", "-skip"} {
				if i := slices.Index(c, sel); i >= 0 && i+1 < len(c) && c[i+1] == engineLongHalf {
					explorer = append(explorer, sel)
				}
			}
			continue
		}
		if !race {
			t.Errorf("%v: want -race", c)
		}
		if rapid && slices.Contains(c, "./impl/queue") {
			raced++
		}
	}
	if !slices.Equal(explorer, []string{"-run", "-skip"}) || raced != 1 {
		t.Errorf("commands %v: want ./explore/internal/engine twice, -run and then -skip engineLongHalf (every test in one of them), and ./impl/queue with 2000 cases under -race once", cmds)
	}
	// The two engine commands are the first two: on the layer's two
	// lanes they run side by side.
	if unit.lanesFor(true) != 2 || len(cmds) < 2 || !slices.Contains(cmds[0], "./explore/internal/engine") || !slices.Contains(cmds[1], "./explore/internal/engine") {
		t.Errorf("lanes %d, commands %v: want 2 lanes, the engine's two commands first", unit.lanesFor(true), cmds)
	}
	if unit.lanesFor(false) != 1 {
		t.Errorf("the default run has %d lanes, want 1", unit.lanesFor(false))
	}
}

// engineLongHalf names tests of the engine package, each one that exists:
// a renamed test would otherwise move to the second command unnoticed.
func TestEngineLongHalfNamesTheEnginesTests(t *testing.T) {
	files, err := filepath.Glob("../../explore/internal/engine/*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("the engine's test files: %v, %v", files, err)
	}
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(engineLongHalf, "^Test("), ")$")
	if inner == engineLongHalf || strings.ContainsAny(inner, "^$()*+?.[]") {
		t.Fatalf("engineLongHalf %q: want ^Test(A|B|...)$ of plain names", engineLongHalf)
	}
	for _, name := range strings.Split(inner, "|") {
		if !strings.Contains(src.String(), "\nfunc Test"+name+"(t *testing.T) {") {
			t.Errorf("engineLongHalf names Test%s, which the engine's tests do not define", name)
		}
	}
}

// A layer's time limit is its own without -long; under -long it is its
// longLimit when it sets one, and longStretch times its limit otherwise.
// No -long limit is below the layer's plain one.
func TestLongLimits(t *testing.T) {
	l := layer{limit: 5 * time.Minute}
	if got := l.limitFor(false); got != 5*time.Minute {
		t.Errorf("plain limit %v, want 5m", got)
	}
	if got := l.limitFor(true); got != 5*time.Minute*longStretch {
		t.Errorf("-long limit without longLimit %v, want %v", got, 5*time.Minute*longStretch)
	}
	l.longLimit = time.Hour
	if got := l.limitFor(true); got != time.Hour {
		t.Errorf("-long limit with longLimit %v, want 1h", got)
	}
	for _, l := range layers("") {
		if l.limitFor(true) < l.limitFor(false) {
			t.Errorf("layer %s: -long limit %v is below its plain limit %v", l.name, l.limitFor(true), l.limitFor(false))
		}
	}
}

// Every test that draws fewer cases, or none, under the race detector
// runs at the full count in the model layer: the engine's
// (fewerProgramsUnderRace, skipUnderRace) are named by engineGenerated,
// and any other package that calls rapidcases.FewerUnderRace is one of
// modelPackages, which the layer runs whole. A comparison that lowered
// its count under -race and ran nowhere else in full would be a check
// that silently shrank.
func TestLoweredUnderRaceRunInFullInTheModelLayer(t *testing.T) {
	root := filepath.Join("..", "..")
	engineDir := filepath.FromSlash("explore/internal/engine")
	full := regexp.MustCompile(engineGenerated)
	lowered := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, decl := range af.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Body == nil || !lowersUnderRace(fd.Body) {
				continue
			}
			lowered[rel]++
			if rel == engineDir {
				if !full.MatchString(fd.Name.Name) {
					t.Errorf("%s (%s) draws fewer programs under -race, but engineGenerated does not name it: no layer runs it at the full count", fd.Name.Name, filepath.Base(path))
				}
			} else if !slices.Contains(modelPackages, "./"+filepath.ToSlash(rel)) {
				t.Errorf("%s (%s) draws fewer cases under -race, but its package is not one of modelPackages: no layer runs it at the full count", fd.Name.Name, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lowered[engineDir] < 10 || len(lowered) < 3 {
		t.Errorf("found tests that lower their count under -race in %v; the helpers' names changed?", lowered)
	}
}

// lowersUnderRace reports whether a test's body lowers its case count in
// a race build: the engine's helpers, or rapidcases.FewerUnderRace.
func lowersUnderRace(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		switch f := c.Fun.(type) {
		case *ast.Ident:
			found = found || f.Name == "fewerProgramsUnderRace" || f.Name == "skipUnderRace"
		case *ast.SelectorExpr:
			if x, ok := f.X.(*ast.Ident); ok && x.Name == "rapidcases" && f.Sel.Name == "FewerUnderRace" {
				found = true
			}
		}
		return !found
	})
	return found
}

// The model and trace layers run their commands on two lanes in the
// default run too (their commands in turn kept two cores a little over
// one busy); the model layer's are ordered so that its longest, the litmus
// suite's, shares no lane with the next longest, the engine's. Every
// other layer runs its commands in turn, but under -long where it says.
func TestModelAndTraceLayersRunOnTwoLanes(t *testing.T) {
	t.Chdir("../..")
	for _, l := range layers("") {
		want := 1
		if l.name == "model" || l.name == "trace" {
			want = 2
		}
		if got := l.lanesFor(false); got != want {
			t.Errorf("layer %s: %d lanes in the default run, want %d", l.name, got, want)
		}
		if l.name != "model" {
			continue
		}
		lane := map[string]int{}
		for i, c := range l.cmds {
			for _, p := range c {
				if strings.HasPrefix(p, "./") {
					lane[p] = i % 2
				}
			}
		}
		if lane["./explore/litmus"] == lane["./explore/internal/engine"] || lane["./explore/internal/weak"] == lane["./explore/litmus"] {
			t.Errorf("model commands %v: want the litmus suite on a lane of its own, the weak model's tests and the engine's on the other", l.cmds)
		}
	}
}

// The trace layer's default commands are its -long ones split by spec
// for its two lanes: each test a -long command runs (its package, its
// tags) one default command runs, and no other.
func TestTraceLayerSplitRunsEachTestOnce(t *testing.T) {
	t.Chdir("../..")
	trace := layerNamed(t, "trace")
	long, def := testsRunBy(t, trace.long), testsRunBy(t, trace.cmds)
	if len(long) < 10 {
		t.Fatalf("the -long commands run %d tests: %v", len(long), long)
	}
	for test := range long {
		if len(def[test]) != 1 {
			t.Errorf("%s: run by default commands %v, want one", test, def[test])
		}
	}
	for test := range def {
		if _, ok := long[test]; !ok {
			t.Errorf("%s: run by default, not under -long", test)
		}
	}
}

// Under -long the stress, chaos and porcupine layers run each package
// they test as two commands side by side (halves, stressLong), the stress
// tests bounded by time after them alone (longAlone): between them each
// test the default commands run is run once, and no other.
func TestLongHalvesRunEachTestOnce(t *testing.T) {
	t.Chdir("../..")
	for _, name := range []string{"stress", "chaos", "porcupine"} {
		l := layerNamed(t, name)
		if l.lanesFor(true) != 2 {
			t.Errorf("layer %s: %d lanes under -long, want 2", name, l.lanesFor(true))
		}
		long, def := testsRunBy(t, append(slices.Clone(l.long), l.longAlone...)), testsRunBy(t, l.cmds)
		if len(def) < 10 {
			t.Fatalf("layer %s: the default commands run %d tests: %v", name, len(def), def)
		}
		for test, by := range def {
			if len(long[test]) != 1 {
				t.Errorf("layer %s: %s is run by -long commands %v, want one", name, test, long[test])
			}
			if len(by) != 1 {
				t.Errorf("layer %s: %s is run by default commands %v, want one", name, test, by)
			}
		}
		for test := range long {
			if _, ok := def[test]; !ok {
				t.Errorf("layer %s: %s is run under -long, not by default", name, test)
			}
		}
		// Each half runs something: a pattern that names no test
		// would leave one lane idle and the other running the whole.
		for i := range len(l.long) + len(l.longAlone) {
			n := 0
			for _, by := range long {
				if slices.Contains(by, i) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("layer %s: -long command %d runs no test", name, i)
			}
		}
	}
}

// stressLongHalf and stressTimed name their tests one by one: a name
// that is no longer a test of ./stress is a stale choice.
func TestStressLongHalfNamesTests(t *testing.T) {
	t.Chdir("../..")
	tests := testsRunBy(t, [][]string{{"go", "test", "./stress"}})
	for _, pattern := range []string{stressLongHalf, stressTimed} {
		inner := strings.TrimSuffix(strings.TrimPrefix(pattern, "^Test("), ")$")
		for _, name := range strings.Split(inner, "|") {
			if _, ok := tests[" ./stress.Test"+name]; !ok {
				t.Errorf("%s names Test%s, which ./stress does not declare", pattern, name)
			}
		}
	}
}

// testsRunBy lists, per test ("tags dir.TestName"), the commands of cmds
// that run it, by their -tags, -run, -skip and package directories, read
// from the test files' declarations.
func testsRunBy(t *testing.T, cmds [][]string) map[string][]int {
	t.Helper()
	m := map[string][]int{}
	for i, c := range cmds {
		tags, run, skip := "", "", ""
		var dirs []string
		for k, w := range c {
			switch {
			case w == "-tags":
				tags = c[k+1]
			case w == "-run":
				run = c[k+1]
			case w == "-skip":
				skip = c[k+1]
			case strings.HasPrefix(w, "./"):
				dirs = append(dirs, w)
			}
		}
		ctx := build.Default
		ctx.BuildTags = strings.Split(tags, ",")
		runRE, skipRE := regexp.MustCompile(run), regexp.MustCompile(skip)
		for _, dir := range dirs {
			files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
			for _, f := range files {
				if ok, err := ctx.MatchFile(dir, filepath.Base(f)); err != nil || !ok {
					continue
				}
				file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range file.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || !runRE.MatchString(fn.Name.Name) {
						continue
					}
					if skip != "" && skipRE.MatchString(fn.Name.Name) {
						continue
					}
					key := tags + " " + dir + "." + fn.Name.Name
					m[key] = append(m[key], i)
				}
			}
		}
	}
	return m
}

// layerNamed is the layer called name; t fails if there is none.
func layerNamed(t *testing.T, name string) layer {
	t.Helper()
	for _, l := range layers("") {
		if l.name == name {
			return l
		}
	}
	t.Fatalf("no layer %q", name)
	return layer{}
}
