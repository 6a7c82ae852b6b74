package engine

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The explore build of impl/ links the engine, never the testing package:
// a scheduler built to be explored is still a program, not a test (what
// links testing is explore.Check, in the public package).
func TestImplBuiltToBeExploredLinksNoTesting(t *testing.T) {
	for _, tags := range []string{"explore", "explore,weak"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-deps", "github.com/wsched/wsched/impl/sched", "github.com/wsched/wsched/impl/forkjoin").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -tags %s -deps: %v\n%s", tags, err, out)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/wsched/wsched/explore/internal/engine") {
			t.Fatalf("-tags %s: impl/sched does not link the engine; the check below would pass for nothing:\n%s", tags, out)
		}
		for _, bad := range []string{"testing", "github.com/wsched/wsched/explore"} {
			if slices.Contains(deps, bad) {
				t.Errorf("-tags %s: the explore build of impl/ links %s", tags, bad)
			}
		}
	}
}

// depShared is one variable at one address in every run of the test below.
var depShared loc

// A location is labelled by how the run touched it first: here the store
// of one goroutine or the Touch of the other, whichever ran first. Each
// run starts its labels afresh (depDiag.newRun); labels kept from the
// first run named every later run's race as that run's had, one row where
// the runs give two.
func TestDependenciesNameEachRunsLocationsAfresh(t *testing.T) {
	res := Explore(Options{Reduce: true, Dependencies: true, Preemptions: -1, MaxSchedules: 100}, func() {
		a := Go("toucher", func() {
			var own loc
			own.Load() // a point: the Touch below is the step after it
			Touch(depShared.at(), true)
		})
		b := Go("storer", func() {
			var own loc
			own.Load()
			depShared.Store(1)
		})
		a.Join()
		b.Join()
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	kinds := map[string]int{}
	for _, d := range res.Dependencies {
		if strings.Contains(d.Site, "_test.go") { // the Touch here, the store in loc.Store
			kinds[d.Kind] += d.Races
		}
	}
	if kinds[CauseTouch] == 0 || kinds[CauseAtomic] == 0 {
		t.Fatalf("the races on one variable, first touched by a Touch in one run and by a store in the other, are counted as %v over %d schedules; want both kinds (the table: %v)", kinds, res.Schedules, res.Dependencies)
	}
}
