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
