//go:build race

package racerecipe

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Recipe is the flag that compiles the scheduler outside the race detector
// (docs/performance.md, "Race build, wsched outside the detector").
const Recipe = "-gcflags=github.com/wsched/wsched/impl/...=-race=false"

// TestRaceRecipe builds this package's tests with the recipe, once, and
// runs them in a child process: the scheduler's packages are compiled
// without the detector's instrumentation and this package with it; the
// edge tests must pass with no report, and TestRacyTasks must be reported.
func TestRaceRecipe(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the recipe's binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "recipe.test")
	build := exec.Command(goTool, "test", "-race", "-c", "-o", bin, Recipe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(build.Args, " "), err, out)
	}

	// The recipe took: the scheduler's code calls none of the detector's
	// function hooks, this package's does.
	dump, err := exec.Command(goTool, "tool", "objdump", "-s", `^github.com/wsched/wsched/(impl/sched.\(\*worker\).execute|stress/racerecipe.racyWrite)$`, bin).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	for _, fn := range strings.Split(string(dump), "TEXT ")[1:] {
		name, _, _ := strings.Cut(fn, "(SB)")
		hooked := strings.Contains(fn, "runtime.racefuncenter") || strings.Contains(fn, "runtime.racewrite")
		if want := strings.Contains(name, "racerecipe"); hooked != want {
			t.Fatalf("%s: calls the detector's hooks: %v, want %v (did the -gcflags patterns apply?)", name, hooked, want)
		}
	}
	if n := strings.Count(string(dump), "TEXT "); n != 2 {
		t.Fatalf("objdump found %d of the 2 functions it checks", n)
	}

	edges := exec.Command(bin, "-test.run", "^TestEdge", "-test.count", "1")
	out, err := edges.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("DATA RACE")) {
		t.Fatalf("the edge tests in the recipe's build: %v\n%s", err, out)
	}

	racy := exec.Command(bin, "-test.run", "^TestRacyTasks$", "-test.count", "1")
	racy.Env = append(os.Environ(), racyEnv+"=1")
	out, err = racy.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("WARNING: DATA RACE")) || !bytes.Contains(out, []byte("racerecipe.racyWrite")) {
		t.Fatalf("the race between two tasks, in the recipe's build: want a report naming racyWrite and a failure, got err %v\n%s", err, out)
	}
}
