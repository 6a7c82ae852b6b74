package engine

// How many schedules a budget-cut search left.
//
// When the budget stops the depth-first search in the middle of bound b,
// the result says so; how far from done it was is the number of schedules
// with at most b preemptions, which only finishing the search can count.
// Knuth's estimator ("Estimating the efficiency of backtrack programs",
// Math. Comp. 1975) gives its order of magnitude from a few random
// schedules: walk one schedule at random within the bound, and weigh it by
// the inverse of the probability of the choices it made (with uniform
// choices, the product of the numbers of choices met on the way). The
// weight is an unbiased estimate of the number of leaves of the search
// tree, that is of schedules within the bound; the mean of a few hundred
// is the estimate. How the walk chooses decides its spread (knuthGuide).
// On runtime/remote-spawn-one-worker at bound 2 it gives 16,320 for
// 15,998; on protocol/extra-retire-remote 750,000 for about 869,000; the
// report still gives it rounded, as "about".

// EstimateProbes is how many random schedules an estimate walks: a
// fraction of a second on the largest scenarios.
const EstimateProbes = 200

// knuthGuide walks one random schedule within a preemption bound and
// weighs it by the inverse of its probability. Choosing uniformly at each
// decision would spend the preemptions in the first few decisions, where
// nearly every walk then ends with a small weight, while most schedules
// of the bound place their preemptions anywhere along the run: so a walk
// with k preemptions left and about n decisions to go preempts with
// probability k/n (the share of schedules that preempt here, when n is
// large), and the weight divides by what was chosen. Any proposal keeps
// the estimate unbiased; this one keeps its spread down.
type knuthGuide struct {
	rng    uint64
	bound  int
	length int // decisions of the schedule that never preempts
	weight float64
	free   []int
	costly []int
}

func (g *knuthGuide) next() uint64 { return xorshift(&g.rng) }

func (g *knuthGuide) goroutine(r *run, s schedule) int {
	return g.walk(r, decision{kind: kindGoroutine, schedule: s})
}

func (g *knuthGuide) store(r *run, l load) int {
	return g.walk(r, decision{kind: kindStore, load: l})
}

// walk takes a random choice at d, free or (with the probability above) a
// preemption, and weighs the walk by it.
func (g *knuthGuide) walk(r *run, d decision) int {
	g.free, g.costly = g.free[:0], g.costly[:0]
	for _, a := range d.alternatives() {
		switch {
		case !d.costs(a):
			g.free = append(g.free, a)
		case r.preempts < g.bound:
			g.costly = append(g.costly, a)
		}
	}
	q := 0.0
	if len(g.costly) > 0 {
		left := float64(g.bound - r.preempts)
		q = min(left/max(float64(g.length-len(r.decisions)), left+1), 0.5)
		if len(g.free) == 0 {
			q = 1
		}
	}
	u := float64(g.next()>>11) / (1 << 53)
	if u < q {
		g.weight *= float64(len(g.costly)) / q
		return g.costly[g.next()%uint64(len(g.costly))]
	}
	g.weight *= float64(len(g.free)) / (1 - q)
	return g.free[g.next()%uint64(len(g.free))]
}

// estimate returns the estimate of the number of schedules within bound
// b, from EstimateProbes random ones; a probe that fails is returned
// instead (a real schedule within the bound). The probes are not counted
// as schedules of the search. In a part of a sharded search the estimate
// is of the part's schedules: a probe that ends in another part's weighs
// nothing.
func (e *explorer) estimate(b int) (float64, *run) {
	n := e.res.Schedules
	defer func() { e.res.Schedules = n }()
	first := e.runOnce(&dfsGuide{}, false)
	if first.failure != nil {
		return 0, first
	}
	g := &knuthGuide{rng: 0x9E3779B97F4A7C15, bound: b, length: len(first.decisions)}
	sum := 0.0
	for range EstimateProbes {
		g.weight = 1
		r := e.runOnce(g, false)
		if !e.opt.Shard.mine(r.decisions, b) {
			continue // another part's schedule: weight 0 for this part
		}
		if r.failure != nil {
			return 0, r
		}
		sum += g.weight
	}
	return sum / EstimateProbes, nil
}
