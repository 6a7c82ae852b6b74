package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wsched/wsched/internal/reach"
)

// The reach gate of the explore and weak layers: their go test commands
// run with impl/'s coverage counters (-covermode=set, a store per block:
// the layers' times do not show it, where recording each operation's
// stack in the explorer made a scenario ten to twenty times slower), one
// profile per test process, and when every command passed the profiles
// are checked by internal/reach: every function of impl/ that touches
// shared state is entered by a scenario of the layer's mode, or
// docs/reach-exempt.tsv lists it with the reason and what checks it
// instead, and no row of that list names a function a scenario enters.

// coverArgv is the go test command argv writing impl/'s coverage to
// profile, which the layer's gate will read.
func (r *result) coverArgv(argv []string, profile string) []string {
	i := slices.Index(argv, "test")
	if i < 0 || i == 0 || argv[i-1] != "go" {
		return argv
	}
	r.profiles = append(r.profiles, profile)
	out := slices.Clone(argv[:i+1])
	out = append(out, "-covermode=set", "-coverpkg=./impl/...", "-coverprofile="+profile)
	return append(out, argv[i+1:]...)
}

// gateReach fails r's layer if its mode's gate fails. Under -long (long)
// a row of the exemptions that a scenario entered past the default bounds
// is said, not failed: the list is for the default run (reach.GateLong).
func gateReach(r *result, long bool) {
	mode := r.layer.reach
	var bad, entered []string
	var err error
	if long {
		bad, entered, err = reach.CheckLong(".", mode, r.profiles)
	} else {
		bad, err = reach.Check(".", mode, r.profiles)
	}
	if err != nil {
		bad = []string{err.Error()}
	}
	for _, e := range entered {
		fmt.Printf("      reach, under -long: %s (not a failure: the row is for the default run, whose gate checks it)\n", e)
	}
	if len(bad) == 0 {
		fmt.Printf("      reach (%s mode): every shared-state function of impl/ is entered by a scenario or exempt in %s\n", mode, reach.ExemptFile)
		return
	}
	for _, b := range bad {
		fmt.Printf("      reach: %s\n", b)
	}
	r.status = statusFail
	r.why = fmt.Sprintf("the reach gate (%s mode): %d problem(s): %s", mode, len(bad), strings.Join(bad, "; "))
}
