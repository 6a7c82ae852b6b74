package explore

import (
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// Check's line at the end of a reduced search says how the forecast of
// its last bound came out, and, at bound 1, where the count fell against
// the forecast's range.
func TestRoundNoteSaysWhereTheCountFellInTheRange(t *testing.T) {
	for _, c := range []struct {
		ran  int
		want string
	}{
		{9_802, "at about 13,000 (between about 8,700 and 23,000: inside it), off by +33%"},
		{7_000, "(between about 8,700 and 23,000: below it), off by +86%"},
		{30_000, "(between about 8,700 and 23,000: above it), off by -57%"},
	} {
		res := engine.Result{Mode: "dpor", Exhaustive: true, Bound: 1, RoundSchedules: c.ran,
			RoundForecast: 13_000, RoundRange: [2]float64{8_687, 22_949}}
		if got := roundNote(res); !strings.Contains(got, c.want) {
			t.Errorf("ran %d: %q, want %q in it", c.ran, got, c.want)
		}
	}
	res := engine.Result{Mode: "dpor", Exhaustive: true, Bound: 2, RoundSchedules: 422_280, RoundForecast: 350_000}
	if got := roundNote(res); strings.Contains(got, "between") || !strings.Contains(got, "bound 2 forecast from the bounds before it at about 350,000, off by -17%") {
		t.Errorf("bound 2, no range: %q", got)
	}
}

// A budget-cut search's line says how many schedules of its bound are
// left by Knuth's estimator, which walks the tree of the search without
// the state cache: beside a search that cut runs it says so, since the
// cached search may end far sooner.
func TestLeftSaysTheEstimateIsWithoutTheCache(t *testing.T) {
	plain := left(1_000_000, 400_000, false)
	if want := "about 600,000 left, by Knuth's estimator"; !strings.Contains(plain, want) || strings.Contains(plain, "cache") {
		t.Errorf("without cuts: %q, want %q in it and no word of the cache", plain, want)
	}
	cached := left(1_000_000, 400_000, true)
	if want := "about 600,000 left without the state cache, by Knuth's estimator"; !strings.Contains(cached, want) {
		t.Errorf("with cuts: %q, want %q in it", cached, want)
	}
	if got := left(1_000, 2_000, true); !strings.Contains(got, "too rough") {
		t.Errorf("an estimate below what ran: %q", got)
	}
}
