package engine

import (
	"runtime"
	"time"
)

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
	est, _, fr := e.probe(b, EstimateProbes, EstimateProbes, true)
	return est, fr
}

// probe walks up to probes random schedules within bound b (at least
// least, and no more than the mean weight so far: past that the round
// itself costs less than more probes) and returns the estimate and the
// runs it made, its first run (the default schedule) included. With
// failFast a probe that fails ends it and is returned.
func (e *explorer) probe(b, least, probes int, failFast bool) (float64, int, *run) {
	n := e.res.Schedules
	defer func() { e.res.Schedules = n }()
	first := e.runOnce(&dfsGuide{}, false)
	if first.failure != nil && failFast {
		return 0, 1, first
	}
	g := &knuthGuide{rng: 0x9E3779B97F4A7C15, bound: b, length: len(first.decisions)}
	sum := 0.0
	i := 0
	for i < probes && (i < least || float64(i) < sum/float64(i)) {
		i++
		g.weight = 1
		r := e.runOnce(g, false)
		if !e.opt.Shard.mine(r.decisions, b) {
			continue // another part's schedule: weight 0 for this part
		}
		if r.failure != nil && failFast {
			return 0, i + 1, r
		}
		sum += g.weight
	}
	return sum / float64(i), i + 1, nil
}

// Forecast is what a depth-first search will take, estimated before it
// starts (ForecastSearch): its schedules, round by round, and its time.
type Forecast struct {
	// Schedules is the estimate of the schedules of every round, 0 to
	// the bound (the search runs each round's, those of the rounds
	// before included), the way Result.Schedules counts them when the
	// budget does not stop it; PerRound is each round's.
	Schedules float64
	PerRound  []float64
	// Time is Schedules times the mean time of a probe.
	Time time.Duration
	// Runs is how many schedules the estimate ran, Elapsed how long it
	// took.
	Runs    int
	Elapsed time.Duration
}

// ForecastSearch estimates, before a depth-first search under opt, how
// many schedules it will run and how long it will take: Knuth's
// estimator (above) at each bound from 0 to opt's, with up to
// opt.EstimateProbes random schedules each (fewer where the round is
// smaller than that). A probe that fails counts as any other; the search
// will find the failure itself. The zero Forecast when there is nothing to
// estimate: a replay, PCT (its count is opt.PCT), the reduced search (the
// estimator walks the plain search's tree), or EstimateProbes < 0.
func ForecastSearch(opt Options, body func()) Forecast {
	opt = opt.WithDefaults()
	if opt.Replay != "" || opt.PCT > 0 || opt.Reduce || opt.EstimateProbes < 0 {
		return Forecast{}
	}
	probes := opt.EstimateProbes
	if probes == 0 {
		probes = DefaultForecastProbes
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	start := time.Now()
	e := &explorer{opt: opt, body: body}
	var f Forecast
	for b := 0; b <= opt.Preemptions; b++ {
		est, runs, _ := e.probe(b, min(10, probes), probes, false)
		f.PerRound = append(f.PerRound, est)
		f.Schedules += est
		f.Runs += runs
	}
	f.Elapsed = time.Since(start)
	f.Time = time.Duration(float64(f.Elapsed) / float64(f.Runs) * f.Schedules)
	return f
}

// DefaultForecastProbes is ForecastSearch's number of probes per round
// when Options.EstimateProbes is 0.
const DefaultForecastProbes = 100
