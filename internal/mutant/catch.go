package mutant

import (
	"fmt"
	"regexp"
	"strings"
)

// Layers are the check layers a caught-by entry may name, in the order
// cmd/verify runs them. Each is one go test invocation:
//
//	unit       go test -race                 (package tests, rapid)
//	explore    go test -tags explore         (the explorer's TestExplore
//	                                          scenarios; any package; no
//	                                          -race: the explorer runs one
//	                                          goroutine at a time)
//	weak       go test -tags explore,weak    (the same scenarios in the
//	                                          explorer's weak-memory mode:
//	                                          the orderings the code names)
//	model      go test -tags explore,weak    (the weak memory model's own
//	                                          tests: the litmus suite and
//	                                          generated programs against
//	                                          the RC11 oracle; packages
//	                                          under ./explore/)
//	porcupine  go test -race                 (./linearizability)
//	stress     go test -race                 (./stress)
//	chaos      go test -race -tags chaos     (./stress, ./linearizability;
//	                                          an entry may name any package)
var Layers = []string{"unit", "explore", "weak", "model", "porcupine", "stress", "chaos"}

// Catch is one machine-readable caught-by entry, written
//
//	layer:package:test-regexp[:xN]
//
// for example "stress:./stress:^TestRingConservation$". It names a go test
// command that fails when the mutant is applied: the layer says which
// flags (see Layers), the package is a ./-relative package path, and the
// regexp is go test's -run argument. A trailing ":xN" runs the tests N
// times (-count=N), for a bug that shows only in some runs.
type Catch struct {
	Layer string
	Pkg   string
	Run   string
	Count int // 0: once
}

func (c Catch) String() string {
	s := c.Layer + ":" + c.Pkg + ":" + c.Run
	if c.Count > 0 {
		s += fmt.Sprintf(":x%d", c.Count)
	}
	return s
}

// Args is the go test command line the entry names, without -json.
// Extra flags (for example -count=1, -timeout) go after "test".
func (c Catch) Args(extra ...string) []string {
	args := []string{"go", "test", "-race"}
	switch c.Layer {
	case "chaos":
		args = append(args, "-tags", "chaos")
	case "explore":
		args = []string{"go", "test", "-tags", "explore"}
	case "weak", "model":
		args = []string{"go", "test", "-tags", "explore,weak"}
	}
	args = append(args, extra...)
	if c.Count > 0 {
		args = append(args, fmt.Sprintf("-count=%d", c.Count)) // after extra: the last -count wins
	}
	return append(args, "-run", c.Run, c.Pkg)
}

// ParseCatches reads the value of a caught-by line: entries separated by
// spaces.
func ParseCatches(v string) ([]Catch, error) {
	var cs []Catch
	for _, f := range strings.Fields(v) {
		c, err := parseCatch(f)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func parseCatch(f string) (Catch, error) {
	parts := strings.SplitN(f, ":", 3)
	if len(parts) != 3 {
		return Catch{}, fmt.Errorf("caught-by entry %q: want layer:package:test-regexp", f)
	}
	c := Catch{Layer: parts[0], Pkg: parts[1], Run: parts[2]}
	if m := countSuffix.FindStringSubmatch(c.Run); m != nil {
		c.Run = m[1]
		fmt.Sscan(m[2], &c.Count)
		if c.Count < 1 || c.Count > 100 {
			return Catch{}, fmt.Errorf("caught-by entry %q: count must be 1..100", f)
		}
	}
	known := false
	for _, l := range Layers {
		known = known || l == c.Layer
	}
	switch {
	case !known:
		return Catch{}, fmt.Errorf("caught-by entry %q: unknown layer %q (want one of %s)", f, c.Layer, strings.Join(Layers, ", "))
	case !strings.HasPrefix(c.Pkg, "./") || strings.Contains(c.Pkg, "..."):
		return Catch{}, fmt.Errorf("caught-by entry %q: package %q must be one ./-relative package", f, c.Pkg)
	case c.Run == "":
		return Catch{}, fmt.Errorf("caught-by entry %q: empty test regexp", f)
	}
	if _, err := regexp.Compile(c.Run); err != nil {
		return Catch{}, fmt.Errorf("caught-by entry %q: %v", f, err)
	}
	// chaos and explore may name any package: chaos is that package's
	// tests with the yield points compiled in, explore its TestExplore
	// scenarios under the explorer.
	if (c.Layer == "explore" || c.Layer == "weak") && !strings.HasPrefix(c.Run, "^TestExplore") {
		return Catch{}, fmt.Errorf("caught-by entry %q: an %s entry names TestExplore scenarios (its regexp starts with ^TestExplore)", f, c.Layer)
	}
	if c.Layer == "model" && !strings.HasPrefix(c.Pkg, "./explore/") {
		return Catch{}, fmt.Errorf("caught-by entry %q: a model entry names a package of the explorer (./explore/...)", f)
	}
	if want := LayerOf(c.Pkg); c.Layer != "chaos" && c.Layer != "explore" && c.Layer != "weak" && c.Layer != "model" && want != c.Layer {
		return Catch{}, fmt.Errorf("caught-by entry %q: package %s belongs to layer %s", f, c.Pkg, want)
	}
	return c, nil
}

var countSuffix = regexp.MustCompile(`^(.*):x([0-9]+)$`)

// LayerOf says which layer runs the tests of the ./-relative package pkg
// without the chaos tag.
func LayerOf(pkg string) string {
	switch pkg {
	case "./linearizability":
		return "porcupine"
	case "./stress":
		return "stress"
	case "./explore/internal/weak", "./explore/internal/weak/rc11", "./explore/litmus":
		return "model"
	}
	return "unit"
}

// CatchingLayers returns the distinct layers of m's caught-by entries, in
// the order of Layers. The catalog's goal is two or more for every mutant:
// two independent kinds of check that each catch the bug.
func (m *Mutant) CatchingLayers() []string {
	var out []string
	for _, l := range Layers {
		for _, c := range m.CaughtBy {
			if c.Layer == l {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
