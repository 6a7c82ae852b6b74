package engine

import (
	"testing"

	"github.com/wsched/wsched/internal/rapidcases"
)

// raceBuild: the test binary has the race detector in it.
const raceBuild = rapidcases.RaceBuild

// fewerProgramsUnderRace lowers rapid's case count for the calling test in
// a race build to rapidcases.UnderRace programs, unless -rapid.checks was
// given: the comparisons of generated programs run every schedule of each
// program twice or more, and cmd/verify's model layer (engineGenerated)
// runs them at the full count without the race detector.
func fewerProgramsUnderRace(t *testing.T) {
	t.Helper()
	rapidcases.FewerUnderRace(t)
}

// fewerPrograms lowers rapid's case count for the calling test to n,
// unless -rapid.checks was given; why says why.
func fewerPrograms(t *testing.T, n int, why string) {
	t.Helper()
	if rapidcases.Fewer(t, n) {
		t.Logf("%s: %d generated programs, not rapid's default (-rapid.checks=N for more)", why, n)
	}
}
