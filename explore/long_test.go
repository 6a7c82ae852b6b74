package explore

import (
	"math"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// counters runs n goroutines that each add to one shared integer k times:
// a search whose size grows fast with the bound.
func counters(n, k int) func() {
	return func() {
		var x toyInt
		var ts []*Thread
		for i := 0; i < n; i++ {
			ts = append(ts, Go("adder", func() {
				for j := 0; j < k; j++ {
					x.Add(1)
				}
			}))
		}
		for _, th := range ts {
			th.Join()
		}
	}
}

// Under Long a plain search whose forecast at the raised bound is far
// over its budget is given what the rounds up to its own bound take, and
// with it ends them; one forecast to end keeps ten times its budget; the
// reduced search keeps ten times its budget.
func TestLongBudget(t *testing.T) {
	t.Setenv(LongEnv, "")
	small, big := counters(2, 2), counters(3, 4)
	raised := func(o Options) Options {
		o = o.WithDefaults()
		o.Preemptions++
		return o
	}

	ends := raised(Options{Preemptions: 1, MaxSchedules: 1000})
	if b, note, _ := longBudget(t, ends, small); b != 10_000 || note == "" {
		t.Errorf("a search forecast to end: budget %d (%q), want 10,000", b, note)
	}
	if whole := Explore(Options{Preemptions: 2, MaxSchedules: 10_000}, small); !whole.Exhaustive {
		t.Fatalf("the small search is not exhaustive at 2 in 10,000 schedules: %+v", whole)
	}

	cut := raised(Options{Preemptions: 2, MaxSchedules: 400})
	b, note, fc := longBudget(t, cut, big)
	if fc.Schedules <= longEndsWithin*400 {
		t.Fatalf("the big search's forecast at 3 is %.0f schedules, want over %d", fc.Schedules, longEndsWithin*400)
	}
	below := fc.PerRound[0] + fc.PerRound[1] + fc.PerRound[2]
	if want := min(int(math.Ceil(longRoundsMargin*below)), 4000); b != want || b >= 4000 || b < 400 {
		t.Fatalf("a search forecast not to end: budget %d (%q), want %d, below 4000", b, note, want)
	}
	plain := Explore(Options{Preemptions: 2, MaxSchedules: 400}, big)
	cutRes := Explore(Options{Preemptions: 3, MaxSchedules: b}, big)
	if plain.Exhaustive {
		t.Fatalf("the plain run at 2 ends within 400 schedules (%d): the case tests nothing", plain.Schedules)
	}
	// The plain run's budget is cut at 2; -long's, at 3, must cover at
	// least as much: the rounds up to 2 within its budget, then 3.
	if cutRes.Schedules < plain.Schedules || cutRes.Exhaustive {
		t.Errorf("under -long: %d schedules (exhaustive %v), the plain run %d", cutRes.Schedules, cutRes.Exhaustive, plain.Schedules)
	}
	if whole := Explore(Options{Preemptions: 2, MaxSchedules: b}, big); !whole.Exhaustive {
		t.Errorf("the budget of %d does not end the rounds up to 2 (%d schedules run): the margin is too small", b, whole.Schedules)
	}

	reduced := raised(Options{Preemptions: 2, MaxSchedules: 400, Reduce: true})
	if b, note, _ := longBudget(t, reduced, big); b != 4000 || note != "" {
		t.Errorf("the reduced search: budget %d (%q), want 4000", b, note)
	}
}

// A forecast is a random number: within fifteen times the budget less
// two standard errors, the search gets what ends it, at most thirty times
// the budget; over that, the rounds below. The forecasts are the -long
// explore layer's own (protocol/shutdown-sweep ends at 3 in 5,549,519
// schedules; forkjoin/join does not, 29,796,309 at 3 alone).
func TestLongBudgetWeighsTheForecastsError(t *testing.T) {
	sweep := Forecast{Schedules: 6_500_000, StdErr: 2_600_000, PerRound: []float64{2, 450, 67_000, 6_400_000}}
	if b, note := longBudgetBy(3, 400_000, sweep, false); b != 12_000_000 {
		t.Errorf("shutdown-sweep's forecast, 6,500,000 with a standard error of 40%%: budget %d (%q), want 12,000,000 (thirty times 400,000)", b, note)
	}
	sure := sweep
	sure.StdErr = 0
	if b, note := longBudgetBy(3, 400_000, sure, false); b != 134_904 {
		t.Errorf("the same forecast with no error: budget %d (%q), want 134,904 (twice the rounds up to 2)", b, note)
	}
	join := Forecast{Schedules: 20_000_000, StdErr: 4_000_000, PerRound: []float64{24, 4_000, 409_000, 19_600_000}}
	if b, note := longBudgetBy(3, 500_000, join, false); b != 826_048 {
		t.Errorf("forkjoin/join's forecast, 20,000,000 with a standard error of 20%%: budget %d (%q), want 826,048 (twice the rounds up to 2)", b, note)
	}
	near := Forecast{Schedules: 3_000_000, StdErr: 300_000, PerRound: []float64{1, 100, 10_000, 2_989_899}}
	if b, note := longBudgetBy(3, 400_000, near, false); b != 6_000_000 {
		t.Errorf("a forecast of 3,000,000 within fifteen times 400,000: budget %d (%q), want 6,000,000 (twice the forecast)", b, note)
	}
}

// apart runs n goroutines that each add to an integer of its own k times:
// as many schedules as counters(n, k) within a bound, but every order of
// their steps leaves one state, so the state cache cuts nearly all.
func apart(n, k int) func() {
	return func() {
		var ts []*Thread
		for i := 0; i < n; i++ {
			ts = append(ts, Go("adder", func() {
				var x tloc
				for j := 0; j < k; j++ {
					x.store(x.v+1, engine.Relaxed)
				}
			}))
		}
		for _, th := range ts {
			th.Join()
		}
	}
}

// A search with the state cache whose forecast at the raised bound (of
// the search without the cache) is far over its budget keeps ten times
// the budget, where the search without the cache gets the rounds below;
// the cached search ends within it.
func TestLongBudgetOfACachedSearch(t *testing.T) {
	t.Setenv(LongEnv, "")
	body := apart(3, 10) // at 3: 148,606 schedules, 11,078 with the cache
	opt := Options{Preemptions: 3, MaxSchedules: 5000, StateCache: true}
	b, note, fc := longBudget(t, opt, body)
	if fc.Schedules-2*fc.StdErr <= longEndsWithin*5000 {
		t.Fatalf("the forecast at 3 is %.0f schedules (standard error %.0f), want over %d", fc.Schedules, fc.StdErr, longEndsWithin*5000)
	}
	if b != 50_000 || !strings.Contains(note, "state cache") {
		t.Errorf("a cached search forecast not to end: budget %d (%q), want 50,000", b, note)
	}
	opt.StateCache = false
	if plain, _, _ := longBudget(t, opt, body); plain >= b {
		t.Errorf("the same search without the cache: budget %d, want the rounds below, under %d", plain, b)
	}
	res := Explore(Options{Preemptions: 3, MaxSchedules: b, StateCache: true}, body)
	if !res.Exhaustive || res.Cut == 0 {
		t.Errorf("the cached search at 3 in %d schedules: %d run, %d cut, exhaustive %v; want exhaustive", b, res.Schedules, res.Cut, res.Exhaustive)
	}
}
