package explore

import (
	"os/exec"
	"strings"
	"testing"
)

// floors places each top-level folder of the module on a floor: a package
// imports packages on its own floor or below, never above. The explorer's
// wing (explore/) stands beside impl/ and spec/, which use its public
// door (explore/atomic, explore/sync); internal/ and model/ are the
// ground every floor stands on.
var floors = map[string]int{
	"internal": 1, "model": 1,
	"explore": 2, "impl": 2, "spec": 2,
	"linearizability": 3, "stress": 3, "tla": 3, "docs": 3, "cmd": 4,
}

// The imports of every package of the module, in every build the project
// makes (plain, explore, explore,weak, chaos, race), run down the floors;
// and inside the wing the private packages (explore/internal/...) import
// no public one (explore, explore/atomic, explore/sync, explore/litmus),
// and the wing imports nothing of impl/ or spec/, the code it checks.
func TestImportsRunDownTheFloors(t *testing.T) {
	const mod = "github.com/wsched/wsched/"
	seen := 0
	for _, tags := range []string{"", "explore", "explore,weak", "chaos", "race"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-f", `{{$p := .ImportPath}}{{range .Imports}}{{$p}} {{.}}{{"\n"}}{{end}}`, mod+"...").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -tags %q: %v\n%s", tags, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			from, to, _ := strings.Cut(line, " ")
			if !strings.HasPrefix(to, mod) {
				continue
			}
			seen++
			from, to = strings.TrimPrefix(from, mod), strings.TrimPrefix(to, mod)
			top := func(p string) string { s, _, _ := strings.Cut(p, "/"); return s }
			ff, okf := floors[top(from)]
			ft, okt := floors[top(to)]
			switch {
			case !okf || !okt:
				t.Errorf("-tags %q: %s imports %s: a folder with no floor (add it to floors)", tags, from, to)
			case ft > ff:
				t.Errorf("-tags %q: %s (floor %d) imports %s (floor %d): an import that runs up a floor", tags, from, ff, to, ft)
			case strings.HasPrefix(from, "explore/internal/") && !strings.HasPrefix(to, "explore/internal/") && top(to) == "explore":
				t.Errorf("-tags %q: %s, private to the wing, imports the public %s", tags, from, to)
			case top(from) == "explore" && (top(to) == "impl" || top(to) == "spec"):
				t.Errorf("-tags %q: the explorer's %s imports %s, code it checks", tags, from, to)
			}
		}
	}
	if seen < 100 {
		t.Fatalf("only %d imports inside the module seen: the check saw nothing", seen)
	}
}
