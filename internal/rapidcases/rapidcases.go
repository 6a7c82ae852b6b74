package rapidcases

import (
	"flag"
	"strconv"
	"testing"
)

// UnderRace is how many cases FewerUnderRace leaves a test in a race
// build (rapid's own default is 100).
const UnderRace = 10

// FewerUnderRace lowers rapid's case count for the calling test to
// UnderRace in a race build (Fewer): for the comparisons cmd/verify's
// model layer runs at the full count without the race detector.
func FewerUnderRace(t testing.TB) {
	t.Helper()
	if !RaceBuild {
		return
	}
	if Fewer(t, UnderRace) {
		t.Logf("race build: %d cases, not rapid's default; the full count runs without the race detector (cmd/verify's model layer)", UnderRace)
	}
}

// Fewer lowers rapid's case count for the calling test to n, unless
// -rapid.checks was given or the count is n or fewer already (a test
// that FewerUnderRace lowered first keeps the lower count), and restores
// it when the test ends. It reports whether it lowered it. A binary
// without rapid's flag is a mistake of the test's, reported as its
// failure.
func Fewer(t testing.TB, n int) bool {
	t.Helper()
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("rapid's -rapid.checks flag is not registered: the case count cannot be lowered")
	}
	given := false
	flag.Visit(func(g *flag.Flag) { given = given || g == f })
	if given {
		return false
	}
	old := f.Value.String()
	if cur, err := strconv.Atoi(old); err == nil && cur <= n {
		return false // never raised
	}
	if err := f.Value.Set(strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
	return true
}
