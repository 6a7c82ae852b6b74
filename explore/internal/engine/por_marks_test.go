package engine

import (
	"math/rand/v2"
	"testing"
)

// backtrackScan is backtrack as it was before the marks: a walk back
// over every step before i, down to tid's last step.
func (p *porRun) backtrackScan(i, tid int) {
	p.s.nodes[p.events[i].dec].bt |= 1 << tid
	if p.s.bound < 0 {
		return
	}
	for k := i - 1; k >= 0; k-- {
		ek := &p.events[k]
		if ek.tid == tid {
			break
		}
		if ek.dec < 0 {
			continue
		}
		start := k == 0 || p.events[k-1].tid != ek.tid
		if (start || ek.free) && ek.en&(1<<tid) != 0 {
			p.s.nodes[ek.dec].bt |= 1 << tid
		}
	}
}

// markRun plays a random run of steps on record p, as chainRun does, but
// with decisions: some steps are chosen at one (its goroutines that
// could go random, the chosen one among them; the running goroutine could
// go on, or had stopped: a free decision), the others ran alone. It
// returns the run, whose decisions the steps name.
func markRun(rng *rand.Rand, p *porRun) *run {
	r := &run{}
	for k := range 1 + rng.IntN(5) {
		r.threads = append(r.threads, &thread{id: k})
	}
	for range 1 + rng.IntN(150) {
		c := rng.IntN(len(r.threads))
		if rng.IntN(3) == 0 && len(p.events) > 0 {
			c = p.events[len(p.events)-1].tid // a run of one goroutine's steps
		}
		dec := -1
		en := uint64(1) << c
		if rng.IntN(4) != 0 {
			en |= rng.Uint64() & (1<<len(r.threads) - 1)
			cur := -1
			if rng.IntN(3) != 0 && len(p.events) > 0 {
				cur = p.events[len(p.events)-1].tid
			}
			r.decisions = append(r.decisions, decision{kind: kindGoroutine, schedule: schedule{enabled: en, cur: cur, timer: -1}, chosen: c})
			dec = len(r.decisions) - 1
		}
		p.begin(r, c, dec, en)
		p.finish(r)
	}
	return r
}

// backtrack finds the places to ask at under a bound from the marks
// (begin keeps the steps that start a run of one goroutine's steps, or
// were chosen at a free decision), not by a walk back over every step:
// on random runs, asking for each goroutine from each step chosen at a
// decision (on empty nodes each time), both ask for the same goroutine
// at the same decisions, with and without a bound (without one, a
// quarter of the runs, both ask only at the decision they are given).
func TestBacktrackMarksAskWhereTheScanAsks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var spare *porRun
	asked := 0
	for k := range 400 {
		p := newPorRun(nil, spare, -1)
		r := markRun(rng, p)
		bound := -1
		if k%4 != 0 {
			bound = 2
		}
		marks, scan := &porSearch{bound: bound, nodes: make([]porNode, len(r.decisions))}, &porSearch{bound: bound, nodes: make([]porNode, len(r.decisions))}
		for i := range p.events {
			if p.events[i].dec < 0 {
				continue
			}
			for tid := range r.threads {
				for d := range scan.nodes {
					marks.nodes[d].bt, scan.nodes[d].bt = 0, 0
				}
				p.s = marks
				p.backtrack(r, i, tid)
				p.s = scan
				p.backtrackScan(i, tid)
				for d := range marks.nodes {
					if marks.nodes[d].bt != scan.nodes[d].bt {
						t.Fatalf("run %d (bound %d), backtrack(%d, %d): decision %d asks for %b from the marks, %b from the scan", k, bound, i, tid, d, marks.nodes[d].bt, scan.nodes[d].bt)
					}
					if d != p.events[i].dec && scan.nodes[d].bt != 0 {
						asked++ // an earlier place, found by the walk
					}
				}
			}
		}
		p.s = nil
		spare = p
	}
	if asked < 100 {
		t.Fatalf("%d decisions before the one given were asked for a goroutine: the test does not reach backtrack's walk", asked)
	}
}
