package engine

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// The class comparison: the Mazurkiewicz trace of a run (its normal form),
// and Classes, which counts the traces a search reached, so that the
// reduced search can be checked against the plain one.

// normalForm names a run's trace: its steps in the order that takes, at
// each point, the lowest-numbered goroutine whose next step has every
// step it depends on done. In the weak-memory mode each step is followed
// by the choices of store (or place) it made other than the latest:
// within one trace the stores to a location come in one order, so the
// n-th latest names one store (how many are offered depends on the
// stale choices made before, in whatever order, so the count is not
// part of the name, and choosing the latest of one is not a decision).
func normalForm(p *porRun) string { return normalFormAs(p, nil) }

// normalFormAs is the normal form of the trace with goroutine i renamed
// as[i] (as nil, or shorter than a goroutine's number: not renamed), for
// comparing traces up to a permutation of symmetric goroutines.
func normalFormAs(p *porRun, as []int) string {
	name := func(tid int) int {
		if tid < len(as) {
			return as[tid]
		}
		return tid
	}
	picks := p.picks
	// A step can go once, for every goroutine, as many of its steps are
	// done as the step's clock counts (they happen before it).
	var byThread [][]int
	for i, e := range p.events {
		q := name(e.tid)
		for len(byThread) <= q {
			byThread = append(byThread, nil)
		}
		byThread[q] = append(byThread[q], i)
	}
	done := make([]uint32, len(byThread))
	var b strings.Builder
	b.Grow(len(p.events))
	for range p.events {
		for q := range byThread {
			if int(done[q]) == len(byThread[q]) {
				continue
			}
			c := p.events[byThread[q][done[q]]].clock
			ready := true
			for o, k := range c {
				if o := name(o); o != q && o < len(done) && done[o] < k {
					ready = false
					break
				}
			}
			if ready {
				i := byThread[q][done[q]]
				done[q]++
				b.WriteByte(byte('A' + q))
				for _, k := range picks {
					if k.ev == i && k.c > 0 {
						fmt.Fprintf(&b, "(%d)", k.c)
					}
				}
				break
			}
		}
	}
	return b.String()
}

// Classes runs body under opt, as Explore does, and returns the
// Mazurkiewicz trace of every run (its normal form) that the sleep set did
// not stop, with how many runs reached it. It is for checking the reduced
// search against the plain one: every trace that the plain search reaches
// within a bound, the reduced search must reach within that bound.
//
// It refuses the weak-memory mode (Options.Weak) with ErrWeakClasses: there
// an execution is also which store each load read, which a trace does not
// name, so two runs of one trace may be two executions and the count
// would say nothing.
func Classes(opt Options, body func()) (map[string]int, Result, error) {
	got, _, res, err := ClassesWithTokens(opt, body)
	return got, res, err
}

// ErrWeakClasses is Classes' refusal of the weak-memory mode.
var ErrWeakClasses = errors.New("explore: Classes does not run the weak-memory mode: a trace (the order of the conflicting steps) does not name the stores the loads read, so it is not an execution there")

// ClassesWithTokens is Classes, with the replay token of each trace's
// first run.
func ClassesWithTokens(opt Options, body func()) (map[string]int, map[string]string, Result, error) {
	if opt.Weak {
		return nil, nil, Result{}, ErrWeakClasses
	}
	got, tokens, res := classes(opt, body)
	return got, tokens, res, nil
}

// classes is ClassesWithTokens in either mode: in the weak-memory mode a
// class is a trace with the choices of store its steps made (normalForm).
func classes(opt Options, body func()) (map[string]int, map[string]string, Result) {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer searchGC()()
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	got, tokens := map[string]int{}, map[string]string{}
	e := &explorer{opt: opt, body: body, record: true}
	e.onRun = func(r *run) {
		if r.por.stopped || r.tracing {
			return
		}
		k := normalForm(r.por)
		if got[k]++; got[k] == 1 {
			tokens[k] = encodeToken(e.opt, r.decisions)
		}
	}
	var res Result
	if opt.Reduce {
		res = e.reduced()
	} else {
		res = e.dfs()
	}
	return got, tokens, res
}
