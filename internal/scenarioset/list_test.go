package scenarioset

import (
	"slices"
	"strings"
	"testing"
)

// Every package with a TestExplore function is in the list, and every
// listed package has one: a scenario package left out would be run by no
// layer, and cmd/verify would still report the explorer's layers passed.
func TestListIsEveryScenarioPackage(t *testing.T) {
	found, err := Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, p := range Packages {
		if listed[p.Dir] {
			t.Errorf("%s is listed twice", p.Dir)
		}
		listed[p.Dir] = true
		if len(found[p.Dir]) == 0 {
			t.Errorf("%s is listed but has no TestExplore function", p.Dir)
		}
		if !slices.Contains(p.Layers, "explore") {
			t.Errorf("%s: the explore layer runs every scenario package; its layers are %v", p.Dir, p.Layers)
		}
	}
	for dir, tests := range found {
		if !listed[dir] {
			t.Errorf("%s has TestExplore functions (%s) but is not in scenarioset.Packages", dir, strings.Join(tests, ", "))
		}
	}
	t.Logf("%d packages, %d TestExplore functions", len(found), count(found))
}

func count(m map[string][]string) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

func TestDirsAndReaching(t *testing.T) {
	if got := strings.Join(Dirs("explore"), " "); got != "./explore/scenarios ./impl/park ./impl/sched ./impl/forkjoin ./internal/goid" {
		t.Errorf("Dirs(explore) = %s", got)
	}
	if got := Dirs("weak"); slices.Contains(got, "./internal/goid") || len(got) != 4 {
		t.Errorf("Dirs(weak) = %v", got)
	}
	if got := strings.Join(Reaching("park"), " "); got != "./impl/park ./impl/sched" {
		t.Errorf("Reaching(park) = %s", got)
	}
	if got := Reaching("nosuch"); len(got) != 0 {
		t.Errorf("Reaching(nosuch) = %v", got)
	}
}
