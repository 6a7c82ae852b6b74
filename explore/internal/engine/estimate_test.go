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
