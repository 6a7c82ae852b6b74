package engine

import (
	"math"
	"testing"
)

// Knuth's estimate of the schedules within a bound, against the count the
// search runs, on toys whose trees are small enough to count: within a
// factor of two (it is reported as an order of magnitude).
func TestEstimateMatchesCountOnToys(t *testing.T) {
	toys := map[string]func(){
		"three adders": func() {
			var x toyInt
			for _, n := range []string{"A", "B", "C"} {
				Go(n, func() { x.Add(1); x.Add(1) })
			}
		},
		"two lockers and an adder": func() {
			var m toyMutex
			var x toyInt
			for _, n := range []string{"A", "B"} {
				Go(n, func() { m.Lock(); x.Add(1); m.Unlock(); x.Add(1) })
			}
			Go("C", func() { x.Add(1); x.Add(1); x.Add(1) })
		},
	}
	for name, body := range toys {
		prev := 0
		for b := range 4 {
			opt := Options{Preemptions: b, MaxSchedules: 1_000_000}
			if b == 0 {
				opt.Preemptions = -1
			}
			res := Explore(opt, body)
			if !res.Exhaustive || res.Failure != nil {
				t.Fatalf("%s, bound %d: %+v", name, b, res)
			}
			exact := res.Schedules - prev
			prev = res.Schedules
			e := &explorer{opt: opt.WithDefaults(), body: body}
			est, fr := e.estimate(b)
			if fr != nil {
				t.Fatalf("%s: a probe failed: %v", name, fr.failure)
			}
			t.Logf("%s, bound %d: %d schedules, estimate %.0f", name, b, exact, est)
			if r := est / float64(exact); math.Abs(math.Log2(r)) > 1 {
				t.Errorf("%s, bound %d: estimate %.0f for %d schedules", name, b, est, exact)
			}
		}
	}
}

// A budget-cut search reports the estimate for the bound it stopped in.
func TestBudgetCutReportsAnEstimate(t *testing.T) {
	res := Explore(Options{MaxSchedules: 5, Preemptions: 3}, func() {
		var x toyInt
		for _, n := range []string{"A", "B", "C"} {
			Go(n, func() { x.Add(1); x.Add(1) })
		}
	})
	if res.Exhaustive || res.Schedules != 5 || res.RoundSchedules == 0 || res.Estimate <= float64(res.RoundSchedules) {
		t.Fatalf("got %+v", res)
	}
}

// The forecast before a search: every round's estimate added up, against
// the schedules the whole search runs; none where it is turned off or
// does not apply.
func TestForecastMatchesTheSearch(t *testing.T) {
	body := func() {
		var m toyMutex
		var x toyInt
		for _, n := range []string{"A", "B"} {
			Go(n, func() { m.Lock(); x.Add(1); m.Unlock(); x.Add(1) })
		}
		Go("C", func() { x.Add(1); x.Add(1); x.Add(1) })
	}
	opt := Options{MaxSchedules: 1_000_000}
	res := Explore(opt, body)
	f := ForecastSearch(opt, body)
	t.Logf("%d schedules; forecast %.0f (%v), %d runs", res.Schedules, f.Schedules, f.PerRound, f.Runs)
	if len(f.PerRound) != 3 || math.Abs(math.Log2(f.Schedules/float64(res.Schedules))) > 1 || f.Runs > 3*(DefaultForecastProbes+1) || f.Time <= 0 {
		t.Errorf("forecast %+v for %d schedules", f, res.Schedules)
	}
	for _, o := range []Options{{EstimateProbes: -1}, {Reduce: true}, {PCT: 10}} {
		if f := ForecastSearch(o, body); f.Runs != 0 {
			t.Errorf("forecast under %+v: %+v", o, f)
		}
	}
	// A small round costs no more probes than its schedules, give or take.
	tiny := func() { Go("A", func() { var x toyInt; x.Add(1) }) }
	if f := ForecastSearch(Options{}, tiny); f.Runs > 3*11 {
		t.Errorf("forecast of a one-schedule search ran %d schedules", f.Runs)
	}
}

// runsOnWhenPreempted is a toy whose schedules get longer with
// preemptions: B loops until A's store, which the default schedule runs
// first, so B's loop runs 30 times only where a preemption put B ahead
// of it (64 decisions for 6).
func runsOnWhenPreempted() {
	var f, x toyInt
	Go("A", func() { f.Store(1); x.Add(1) })
	Go("B", func() {
		for k := 0; k < 30 && f.Load() == 0; k++ {
			x.Add(1)
		}
	})
	Go("C", func() { x.Add(1); x.Add(1) })
}

// Knuth's estimator is unbiased: the mean of the forecasts of many seeds
// comes to the search's count, on a toy where preemptions make schedules
// longer. The walk's rate of preemption is taken from the longest
// schedule seen (knuthGuide); taken from the default schedule's length,
// as it was first, the mean of 40 seeds was below a fifth of the count at
// bound 2 (its walks ran on without preempting past the default
// schedule's end, doubling their weight at each decision). Each seed's
// standard error is checked too: the count lies within two of them of
// most seeds' forecasts.
func TestForecastIsUnbiasedWhenPreemptionsLengthenRuns(t *testing.T) {
	const seeds = 40
	for b := 1; b <= 2; b++ {
		res := Explore(Options{Preemptions: b, MaxSchedules: 1_000_000}, runsOnWhenPreempted)
		if !res.Exhaustive || res.Failure != nil {
			t.Fatalf("bound %d: %+v", b, res)
		}
		n := float64(res.Schedules)
		sum, covered := 0.0, 0
		for s := range seeds {
			f := ForecastSearch(Options{Preemptions: b, EstimateProbes: 1000, Seed: uint64(s)}, runsOnWhenPreempted)
			sum += f.Schedules
			if math.Abs(f.Schedules-n) <= 2*f.StdErr {
				covered++
			}
		}
		mean := sum / seeds
		t.Logf("bound %d: %d schedules; the mean forecast of %d seeds %.0f (%+.1f%%); the count within 2 standard errors of %d of them", b, res.Schedules, seeds, mean, 100*(mean/n-1), covered)
		if math.Abs(mean/n-1) > 0.1 {
			t.Errorf("bound %d: the mean forecast of %d seeds is %.0f for %d schedules", b, seeds, mean, res.Schedules)
		}
		if covered < seeds*2/3 {
			t.Errorf("bound %d: the count is within 2 standard errors of %d forecasts of %d", b, covered, seeds)
		}
	}
}
