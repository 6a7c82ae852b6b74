package engine

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// Generated programs that wait on latches (Event.Wait, Join, JoinAll:
// latchWait): the programs of por_prop_test.go (loads, stores and adds on
// three shared integers, a lock, a wait that may time out, an event that
// goroutine 0 sets and the others may wait for), where a goroutine may
// also join the one started before it, and the body ends in JoinAll or
// in one Join per goroutine. The reduced search's rule for a wait that
// passes a latch (por_run.go, latchAhead) is checked on them with and
// without a bound.

const (
	opJoinPrev = nOps + iota // join the goroutine started before this one
)

// latchProgram is a generated program with latches: each goroutine's ops,
// and whether the body ends in JoinAll.
type latchProgram struct {
	gs      [][]progOp
	joinAll bool
}

func (lp latchProgram) String() string {
	end := "joins"
	if lp.joinAll {
		end = "JoinAll"
	}
	var gs []string
	for _, ops := range lp.gs {
		var s []string
		for _, o := range ops {
			if o.kind == opJoinPrev {
				s = append(s, "joinprev")
			} else {
				s = append(s, o.String())
			}
		}
		gs = append(gs, fmt.Sprint(s))
	}
	return fmt.Sprintf("%v, %s", gs, end)
}

func genLatchProgram(t *rapid.T) latchProgram {
	n := rapid.IntRange(2, 3).Draw(t, "goroutines")
	lp := latchProgram{gs: make([][]progOp, n), joinAll: rapid.Bool().Draw(t, "joinAll")}
	for g := range lp.gs {
		k := rapid.IntRange(1, 3).Draw(t, fmt.Sprint("ops", g))
		for i := range k {
			label := fmt.Sprintf("g%d.%d", g, i)
			if g > 0 && rapid.IntRange(0, 3).Draw(t, label+"j") == 0 {
				lp.gs[g] = append(lp.gs[g], progOp{kind: opJoinPrev})
				continue
			}
			lp.gs[g] = append(lp.gs[g], genOp(t, label, g, false, false))
		}
	}
	return lp
}

// body builds the program: goroutine 0 sets the event at its end, which
// no wait can then miss (a goroutine waits only for goroutine 0, or joins
// one started before it).
func (lp latchProgram) body() func() {
	return func() {
		var w progWorld
		ts := make([]*Thread, len(lp.gs))
		for i, ops := range lp.gs {
			ts[i] = Go(fmt.Sprint("g", i), func() {
				for _, o := range ops {
					if o.kind == opJoinPrev {
						ts[i-1].Join()
						continue
					}
					w.do(o, nil)
				}
				if i == 0 {
					w.e.Set()
				}
			})
		}
		if lp.joinAll {
			JoinAll(ts...)
			return
		}
		for _, t := range ts {
			t.Join()
		}
	}
}

// Without a bound, on the programs with latches: every trace, and each
// run once where no goroutine waits with a timeout (with one, the test
// counts the runs but lets a class run twice: the last three programs
// that did are toys now, "a store to what a ready wait waits on", "a
// Join of an end that had no decision" and "an arming that leaves a
// firing as it is", por_test.go, and at seeds 1-3, 2,000 checks each,
// none is left; nothing says none is). With bounds 0, 1 and 2, every
// trace the plain search reaches within the bound.
func TestReducedMissesNoTraceOfLatchPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	var progs, classes, schedules, stopped, bounded int
	rapid.Check(t, func(t *rapid.T) {
		lp := genLatchProgram(t)
		body := lp.body()
		want, _, rres := compareOnBody(t, body, lp, "no bound",
			Options{Preemptions: 64, MaxSchedules: 3000},
			Options{Reduce: true, Unbounded: true, MaxSchedules: 6000})
		if want == nil {
			return // too big for brute force
		}
		progs, classes, schedules, stopped = progs+1, classes+len(want), schedules+rres.Schedules, stopped+rres.Redundant
		if rres.Schedules != len(want) && !lp.timed() && !measureOnly {
			t.Fatalf("%v: %d schedules for %d classes (%d stopped by the sleep set)", lp, rres.Schedules, len(want), rres.Redundant)
		}
		eachBound(func(what string, plain, reduced Options) {
			if _, _, res := compareOnBody(t, body, lp, what, plain, reduced); res.Exhaustive {
				bounded += res.Schedules
			}
		})
	})
	t.Logf("no bound: %d programs, %d classes, %d schedules, %d stopped by the sleep set; bounds 0-2: %d schedules",
		progs, classes, schedules, stopped, bounded)
}

// timed reports whether a goroutine of lp waits with a timeout.
func (lp latchProgram) timed() bool {
	for _, ops := range lp.gs {
		for _, o := range ops {
			if o.kind == opTimeout {
				return true
			}
		}
	}
	return false
}

// An Event set twice by g0, waited for by g1 after a store that g0's
// loads read: at bound 1 the reduced search missed the trace where the
// store goes between g0's loads and the wait passes after the second
// Set, while the latch rule stopped the search for a race's cheaper
// places at the first Set (the rule now applies only without a bound).
// Found by TestReducedMissesNoTraceOfLatchPrograms; kept as a fixed
// program so that it cannot pass by luck.
func TestReducedWithABoundMissesNoTraceOfALatchSetTwice(t *testing.T) {
	lp := latchProgram{gs: [][]progOp{
		{{kind: opLoad, v: 2}, {kind: opSet}, {kind: opLoad, v: 2}},
		{{kind: opStore, v: 2}, {kind: opWait}},
	}}
	eachBound(func(what string, plain, reduced Options) {
		all, pres := classesOf(t, plain, lp.body())
		got, rres := classesOf(t, reduced, lp.body())
		if !pres.Exhaustive || !rres.Exhaustive {
			t.Fatalf("%s: not exhaustive: %+v %+v", what, pres, rres)
		}
		for _, k := range sortedKeys(all) {
			if got[k] == 0 {
				t.Errorf("%v, %s: the reduced search missed trace %s (plain: %d traces; reduced: %d schedules, %d traces)",
					lp, what, k, len(all), rres.Schedules, len(got))
			}
		}
	})
}
