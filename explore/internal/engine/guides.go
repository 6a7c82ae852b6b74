package engine

import (
	"math/bits"
)

// The guides of the plain searches: what a run decides at each decision
// when the depth-first search (dfsGuide) or PCT (pctGuide) runs it. The
// other searches' guides are beside them: porGuide (por_search.go),
// replayGuide (replay.go), knuthGuide (estimate.go).

// dfsGuide replays a prefix of choices, then takes the defaults.
//
// With bounded set it runs a schedule of the depth-first search at
// preemption bound bound, whose forced points (run.goOn: the running
// goroutine can go on and the run has made bound preemptions, so every
// other choice is past the bound) are not decisions: the run takes them
// without working out who else could go, and the prefix numbers only the
// other decisions. keepForced records them all the same (the rerun of a
// failing schedule, whose token must hold every decision).
type dfsGuide struct {
	prefix     []int
	bounded    bool
	bound      int
	keepForced bool
}

func (g *dfsGuide) goroutine(r *run, s schedule) int {
	if i := len(r.decisions) - r.forced; i < len(g.prefix) {
		return g.prefix[i]
	}
	return s.defaultChoice()
}

func (g *dfsGuide) store(r *run, l load) int {
	if i := len(r.decisions) - r.forced; i < len(g.prefix) {
		return g.prefix[i]
	}
	return 0
}

// pctGuide is probabilistic concurrency testing (Burckhardt et al.,
// ASPLOS 2010): each goroutine gets a random priority when first seen; the
// highest-priority goroutine that can go on runs; at depth-1 random steps
// the running goroutine's priority drops below every initial one.
type pctGuide struct {
	rng     uint64
	depth   int
	prio    map[int]int
	changes []pctChange // by step
}

// pctChange: at the first decision at or after step, the deciding
// goroutine's priority drops to prio (1..depth-1, below every initial one).
type pctChange struct{ step, prio int }

func (g *pctGuide) next() uint64 { return xorshift(&g.rng) }

// xorshift advances a xorshift64 state and returns it: the explorer's
// random schedules (PCT, the estimate's walks), reproducible from a seed.
func xorshift(s *uint64) uint64 {
	*s ^= *s << 13
	*s ^= *s >> 7
	*s ^= *s << 17
	return *s
}

// changePriorities applies the change points the run has reached.
func (g *pctGuide) changePriorities(r *run) {
	for len(g.changes) > 0 && g.changes[0].step <= r.steps {
		g.prio[r.cur.id] = g.changes[0].prio
		g.changes = g.changes[1:]
	}
}

// store: which store a load reads, the latest half the time, else one of
// the older ones the model offers, at random.
func (g *pctGuide) store(r *run, l load) int {
	g.changePriorities(r)
	if g.next()%2 == 0 {
		return 0
	}
	return 1 + int(g.next()%uint64(l.n-1))
}

func (g *pctGuide) goroutine(r *run, s schedule) int {
	g.changePriorities(r)
	best, bestP := -1, -1
	for m := s.enabled; m != 0; m &= m - 1 {
		id := bits.TrailingZeros64(m)
		p, ok := g.prio[id]
		if !ok {
			p = g.depth + int(g.next()%1_000_000)
			g.prio[id] = p
		}
		if p > bestP {
			best, bestP = id, p
		}
	}
	return best
}
