package engine

import (
	"flag"
	"strconv"
	"testing"
)

// raceGeneratedPrograms is how many programs each comparison of generated
// programs draws in a race build, where rapid's default is 100.
//
// Those comparisons run every schedule of each program twice (brute force
// and the reduced search) and are most of this package's time: under the
// race detector about six minutes on two cores, and past go test's ten
// minutes on a loaded machine, for little the detector can add (the
// explorer runs one goroutine of a program at a time). So go test -race
// draws a few programs, enough to run every path of the comparison, and
// the full count runs without the race detector in cmd/verify's model
// layer (and so in CI). An explicit -rapid.checks is always obeyed.
const raceGeneratedPrograms = 10

// fewerProgramsUnderRace lowers rapid's case count for the calling test in
// a race build, unless -rapid.checks was given, and restores it after.
func fewerProgramsUnderRace(t *testing.T) {
	if !raceBuild {
		return
	}
	fewerPrograms(t, raceGeneratedPrograms, "race build")
}

// fewerPrograms lowers rapid's case count for the calling test to n,
// unless -rapid.checks was given, and restores it after; why says why.
func fewerPrograms(t *testing.T, n int, why string) {
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("rapid's -rapid.checks flag is not registered: the race build cannot lower the case count")
	}
	given := false
	flag.Visit(func(g *flag.Flag) { given = given || g == f })
	if given {
		return
	}
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
	if why == "race build" {
		t.Logf("race build: %d generated programs, not %s; the full count runs without the race detector (cmd/verify's model layer)", n, old)
	} else {
		t.Logf("%s: %d generated programs, not %s (-rapid.checks=N for more)", why, n, old)
	}
}
