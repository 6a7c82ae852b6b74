package rapidcases

import (
	"flag"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

func checks() string { return flag.Lookup("rapid.checks").Value.String() }

// skipIfGiven skips a test of the lowering when the command line gave
// -rapid.checks (verify -long gives 2000 to every package that links
// rapid): Fewer lowers nothing then, which TestFewerObeysAGivenCount
// checks.
func skipIfGiven(t *testing.T) {
	t.Helper()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if given {
		t.Skipf("SKIPPED: -rapid.checks=%s was given, so Fewer lowers nothing here (TestFewerObeysAGivenCount checks that)", checks())
	}
}

// Fewer sets the count for the test that calls it, which rapid then
// draws, and the count is back when that test ends. It never raises a
// count: a test lowered under the race detector and then to a count of
// its own for every build keeps the lower one.
func TestFewerLowersAndRestores(t *testing.T) {
	skipIfGiven(t)
	before := checks()
	t.Run("lowered", func(t *testing.T) {
		if !Fewer(t, 7) {
			t.Fatal("Fewer did not lower the count")
		}
		if Fewer(t, 30) {
			t.Fatal("Fewer raised the count from 7 to 30")
		}
		if got := checks(); got != "7" {
			t.Fatalf("-rapid.checks is %s, want 7", got)
		}
		drawn := 0
		rapid.Check(t, func(*rapid.T) { drawn++ })
		if drawn != 7 {
			t.Fatalf("rapid drew %d cases, want 7", drawn)
		}
	})
	if got := checks(); got != before {
		t.Fatalf("-rapid.checks is %s after the test, want %s again", got, before)
	}
}

// FewerUnderRace lowers the count in a race build and only there.
func TestFewerUnderRaceOnlyInARaceBuild(t *testing.T) {
	skipIfGiven(t)
	before := checks()
	t.Run("maybe lowered", func(t *testing.T) {
		FewerUnderRace(t)
		want := before
		if RaceBuild {
			want = strconv.Itoa(UnderRace)
		}
		if got := checks(); got != want {
			t.Fatalf("race build %v: -rapid.checks is %s, want %s", RaceBuild, got, want)
		}
	})
}

// A count given on the command line is obeyed. (Last: once set, the flag
// stays marked as given for the rest of the binary.)
func TestFewerObeysAGivenCount(t *testing.T) {
	before := checks()
	if err := flag.Set("rapid.checks", "55"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("rapid.checks", before) })
	t.Run("given", func(t *testing.T) {
		if Fewer(t, 2) {
			t.Fatal("Fewer lowered a count given on the command line")
		}
		if got := checks(); got != "55" {
			t.Fatalf("-rapid.checks is %s, want the given 55", got)
		}
	})
}
