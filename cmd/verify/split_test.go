package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestSplitByDepFindsRapidUsers(t *testing.T) {
	with, without, err := splitByDep("pgregory.net/rapid", "../../impl/...")
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	t.Logf("with rapid: %v; without: %v", with, without)
	if !slices.Contains(with, "./impl/queue") {
		t.Errorf("./impl/queue (TestRingRapid) not among the rapid users: %v", with)
	}
	if slices.Contains(with, "./impl/fastrand") || !slices.Contains(without, "./impl/fastrand") {
		t.Errorf("./impl/fastrand does not use rapid: with %v, without %v", with, without)
	}
}

// The -long unit commands must test the packages they list: go test hands
// everything after an unknown flag such as -rapid.checks to the test binary,
// so a flag placed before the packages makes go test test the current
// directory instead (and fail: the module root has no Go files). go test -n
// loads the packages and prints the build without running it.
func TestLongUnitCommandsTestTheirPackages(t *testing.T) {
	t.Chdir("../..")
	var unit *layer
	for _, l := range layers("") {
		if l.name == "unit" {
			unit = &l
		}
	}
	if unit == nil || unit.longFn == nil {
		t.Fatal("no unit layer with -long commands")
	}
	cmds, err := unit.longFn()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, c := range cmds {
		if len(c) < 3 || c[0] != "go" || c[1] != "test" {
			t.Fatalf("unexpected command %q", c)
		}
		args := append([]string{"test", "-n"}, c[2:]...)
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// The one go list reader: the test variants, external tests and test
// binaries of a package come with their dependencies, and loadDeps folds
// them into the package.
func TestGoListTestAndLoadDeps(t *testing.T) {
	pkgs, err := goListTest("../..", "./impl/queue")
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	paths := map[string]bool{}
	for _, p := range pkgs {
		paths[p.path] = true
	}
	q := modulePath + "/impl/queue"
	for _, want := range []string{q, q + " [" + q + ".test]", q + ".test"} {
		if !paths[want] {
			t.Errorf("go list -test ./impl/queue lacks %q: %v", want, paths)
		}
	}
	g, err := loadDeps("../..")
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	if !g[modulePath+"/impl/sched"][q] {
		t.Errorf("impl/sched does not import impl/queue in the graph")
	}
	// stress imports the runtime through its tests only.
	if !g[modulePath+"/stress"][modulePath+"/impl/sched"] {
		t.Errorf("stress's tests do not import impl/sched in the graph")
	}
}
