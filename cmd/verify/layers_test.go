package main

import (
	"regexp"
	"slices"
	"testing"

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
