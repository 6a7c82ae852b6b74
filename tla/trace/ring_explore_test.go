//go:build tlatrace && explore

package trace

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/internal/tlatrace"
)

type item struct{ id int }

func items(n int) []*item {
	its := make([]*item, n)
	for i := range its {
		its[i] = &item{id: i}
	}
	return its
}

// taken counts, per schedule, how often each item came out of a ring; the
// scenarios check that none came out twice (the spec's ExactlyOnce is
// checked by TLC along every log as well).
type taken map[*item]int

func (tk taken) take(it *item) {
	if it == nil {
		return
	}
	if tk[it]++; tk[it] > 1 {
		explore.Failf("item %d taken twice", it.id)
	}
}

func drain(tk taken, r *queue.Ring[item]) {
	for it := r.Pop(); it != nil; it = r.Pop() {
		tk.take(it)
	}
}

// thief steals from victim into a ring of its own (ring idx of the model)
// rounds times, draining its ring after each steal.
func thief(m *RingModel, tk taken, idx int, victim *queue.Ring[item], rounds int) *explore.Thread {
	mine := queue.NewRing[item]()
	m.Rings[mine] = idx
	return explore.Go(fmt.Sprintf("thief %d", idx), func() {
		for range rounds {
			first, _ := victim.StealInto(mine)
			tk.take(first)
			drain(tk, mine)
		}
	})
}

// ringScenario is one of the explorer's ring scenarios
// (explore/scenarios/ring_test.go), with its rings named for the model.
type ringScenario struct {
	name  string
	model RingModel // without Rings: each schedule names its own
	opt   explore.Options
	body  func(m *RingModel)
	// stride: every stride-th distinct log goes to TLC (1: all), unless
	// WSCHED_TRACE_STRIDE says otherwise. All logs of the pair
	// scenarios (the owner and one thief); a sample of the larger ones,
	// to keep the TLC runs to a few minutes on a shared two-core machine.
	stride int
}

var ringScenarios = []ringScenario{
	{
		// The owner pushes and pops in two rounds while a thief steals
		// three times; six items (ring/basic).
		name:   "ring/basic",
		stride: 10,
		model:  RingModel{T0: 6, V1: []int{0}},
		opt:    explore.Options{MaxSchedules: 200_000},
		body: func(m *RingModel) {
			g, r, tk := queue.NewGlobal[item](), queue.NewRing[item](), taken{}
			m.Rings[r] = 0
			its := items(6)
			th := thief(m, tk, 1, r, 3)
			next := 0
			push := func() { r.Push(its[next], g); next++ }
			for range 2 {
				push()
				push()
				tk.take(r.Pop())
				push()
				drain(tk, r)
			}
			th.Join()
			drain(tk, r)
		},
	},
	{
		// The owner overflows half of a full ring while a thief steals
		// (ring/steal-overflow): seven pushes into four slots.
		name:  "ring/steal-overflow",
		model: RingModel{T0: 7, V1: []int{0}},
		body: func(m *RingModel) {
			g, r, tk := queue.NewGlobal[item](), queue.NewRing[item](), taken{}
			m.Rings[r] = 0
			its := items(7)
			th := thief(m, tk, 1, r, 1)
			r.Push(its[0], g)
			tk.take(r.Pop())
			for _, it := range its[1:] {
				r.Push(it, g)
			}
			th.Join()
			drain(tk, r)
		},
	},
	{
		// Two thieves and the owner take from one ring
		// (ring/two-thieves).
		name:   "ring/two-thieves",
		stride: 10,
		model:  RingModel{T0: 5, V1: []int{0}, V2: []int{0}},
		body: func(m *RingModel) {
			g, r, tk := queue.NewGlobal[item](), queue.NewRing[item](), taken{}
			m.Rings[r] = 0
			for _, it := range items(5) {
				r.Push(it, g)
			}
			a, b := thief(m, tk, 1, r, 1), thief(m, tk, 2, r, 1)
			drain(tk, r)
			a.Join()
			b.Join()
		},
	},
	{
		// A thief steals from r1 while its owner drains it and then
		// steals from r2 into r1 (ring/chained-steal). r2 is the
		// model's ring 0, r1 its ring 1 (which pushes and steals from
		// ring 0), the thief's ring its ring 2 (which steals from 1).
		name:  "ring/chained-steal",
		model: RingModel{T0: 3, T1: 3, V1: []int{0}, V2: []int{1}},
		body: func(m *RingModel) {
			g, tk := queue.NewGlobal[item](), taken{}
			r1, r2 := queue.NewRing[item](), queue.NewRing[item]()
			m.Rings[r2], m.Rings[r1] = 0, 1
			its := items(6)
			for i := range 3 {
				r1.Push(its[2*i], g)
				r2.Push(its[2*i+1], g)
			}
			th := thief(m, tk, 2, r1, 1)
			drain(tk, r1)
			first, _ := r2.StealInto(r1)
			tk.take(first)
			th.Join()
			drain(tk, r1)
			drain(tk, r2)
		},
	},
}

// TestTraceRingExplored runs each ring scenario under every schedule the
// explorer's search reaches (its default preemption bound), logs the
// ThreePhaseSteal actions of each, and has TLC check every distinct log
// against the spec, one TLC run per scenario.
func TestTraceRingExplored(t *testing.T) {
	jar := Jar()
	for _, sc := range ringScenarios {
		t.Run(sc.name, func(t *testing.T) {
			logs, res := exploreRing(t, sc)
			if f := res.Failure; f != nil {
				// The scenario failed under the explorer (a mutant, or a
				// bug): the log of the failing schedule, up to the
				// failure, goes to TLC with the others (last), so the
				// test says whether the spec rejects it too.
				t.Errorf("%s: the scenario failed under the explorer: %v\n%s", sc.name, f, f.Trace)
				m := sc.model
				m.Rings = lastRings
				m.CAP, m.M = queue.Capacity, 1024
				if s, err := m.RingLog(tlatrace.Stop()); err == nil {
					logs = append([]string{s}, logs...)
					t.Logf("the failing schedule's log (log 1 below, %d records) goes to TLC", strings.Count(s, "[a |->"))
				}
			}
			t.Logf("%s: %d schedules (exhaustive %v, bound %d), %d distinct logs, %s",
				sc.name, res.Schedules, res.Exhaustive, res.Bound, len(logs), res.Elapsed.Round(time.Millisecond))
			validate(t, jar, sc.name, sc.model, logs, max(sc.stride, 1))
		})
	}
}

// lastRings names the rings of the last schedule run, for the log of a
// failing one.
var lastRings map[any]int

// exploreRing explores sc and returns its distinct logs, as TLA+, and the
// explorer's result (a failure stops the search; its log is left in
// tlatrace for the caller).
func exploreRing(t *testing.T, sc ringScenario) ([]string, explore.Result) {
	var logs distinct
	res := explore.Explore(sc.opt, func() {
		m := sc.model
		m.Rings = map[any]int{}
		lastRings = m.Rings
		m.CAP, m.M, m.Start = queue.Capacity, 1024, 0
		tlatrace.Start()
		sc.body(&m)
		s, err := m.RingLog(tlatrace.Stop())
		if err != nil {
			explore.Failf("log: %v", err)
		}
		logs.add(s)
	})
	return logs.logs, res
}

// TestTraceRingSpecMutants checks the validation's teeth against the
// spec: each of ThreePhaseSteal's bug switches drops a guard of the
// algorithm (a mutant of the spec), and TLC must reject some log of the
// unchanged code under it. Each switch runs against the logs of the
// scenario that reaches its guard (every 10th log).
func TestTraceRingSpecMutants(t *testing.T) {
	jar := Jar()
	cases := []struct {
		sw, scenario string
		old, new     string // a text mutant: old replaced by new in a copy of the spec (sw is its name)
	}{
		{sw: "OverflowDuringSteal", scenario: "ring/steal-overflow"},
		{sw: "PushBoundByReal", scenario: "ring/steal-overflow"},
		{sw: "NoStealInFlightCheck", scenario: "ring/two-thieves"},
		// A choice the code does not make: a thief claims the floor of
		// half the tasks, not the ceiling.
		{sw: "StealFloorHalf", scenario: "ring/two-thieves",
			old: `want == Min2(avail - avail \div 2, H)`, new: `want == Min2(avail \div 2, H)`},
		// A guard dropped: the claim succeeds whatever the head is now
		// (no CAS), so a thief that lost the race would copy anyway.
		{sw: "ClaimWithoutCas", scenario: "ring/two-thieves",
			old: `IF steal[v] = hs[p] /\ real[v] = hr[p]
         THEN /\ real' = [real EXCEPT ![v] = (hr[p] + n[p]) % M]`, new: `IF TRUE
         THEN /\ real' = [real EXCEPT ![v] = (hr[p] + n[p]) % M]`},
	}
	for _, c := range cases {
		t.Run(c.sw, func(t *testing.T) {
			var sc ringScenario
			for _, s := range ringScenarios {
				if s.name == c.scenario {
					sc = s
				}
			}
			logs, ex := exploreRing(t, sc)
			if ex.Failure != nil {
				t.Fatalf("%s failed under the explorer: %v", c.scenario, ex.Failure)
			}
			if jar == "" {
				t.Skip("\n!!! no TLC jar: the spec mutant was NOT checked")
			}
			m := sc.model
			m.CAP, m.M = queue.Capacity, 1024
			var mutate func(string) (string, error)
			if c.old == "" {
				m.Switch = c.sw
			} else {
				mutate = func(spec string) (string, error) {
					if strings.Count(spec, c.old) != 1 {
						return "", fmt.Errorf("spec mutant %s: its text occurs %d times in ThreePhaseSteal.tla, want once", c.sw, strings.Count(spec, c.old))
					}
					return strings.Replace(spec, c.old, c.new, 1), nil
				}
			}
			var batch []string
			for j := 0; j < len(logs); j += 10 {
				batch = append(batch, logs[j])
			}
			dir := t.TempDir()
			res, err := Check(jar, "..", dir, Batch{Spec: "ThreePhaseSteal", Constants: m.Constants(), Logs: batch, Mutate: mutate}, 20*time.Minute)
			if err != nil {
				t.Fatalf("%s: %v", c.sw, err)
			}
			t.Logf("spec mutant %s on %d logs of %s: exit %d, %d distinct states, %s", c.sw, len(batch), c.scenario,
				res.Exit, res.Distinct, res.Elapsed.Round(100*time.Millisecond))
			if res.OK() {
				t.Errorf("spec mutant %s: TLC accepted every log of the unchanged code: the validation does not see this guard", c.sw)
				return
			}
			t.Logf("CAUGHT: %s", firstLines(res.Mismatch, 12))
		})
	}
}
