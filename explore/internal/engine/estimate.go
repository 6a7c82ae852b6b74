package engine

import (
	"math"
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
// In its first form (knuthGuide) it gave 16,320 for 15,998 on
// runtime/remote-spawn-one-worker at bound 2, and 750,000 for about
// 869,000 on protocol/extra-retire-remote; the weights are heavy-tailed,
// so the report gives it rounded, as "about".

// EstimateProbes is how many random schedules an estimate walks: a
// fraction of a second on the largest scenarios.
const EstimateProbes = 200

// knuthGuide walks one random schedule within a preemption bound and
// weighs it by the inverse of its probability. Choosing uniformly at each
// decision would spend the preemptions in the first few decisions, where
// nearly every walk then ends with a small weight, while most schedules
// of the bound place their preemptions anywhere along the run: so a walk
// with k preemptions left and about n preemption points to go (decisions
// where a choice would preempt) preempts with probability k/n (the share
// of schedules that preempt here, when n is large), and the weight
// divides by what was chosen. Any proposal keeps the estimate unbiased;
// this one keeps its spread down.
//
// n is span, the most preemption points any schedule walked so far had
// (the default schedule's, then the probes'), less those this walk has
// passed. Taking the default schedule's alone was the estimator's first
// form: preemptions make schedules longer (a worker that lost the race
// goes to sleep and is woken, a spinning loop spins on), and past the end
// of the default schedule every decision preempted with probability 1/2
// at least, so a walk that went on without preempting doubled its weight
// at each: a few rare walks held most of the estimate, and a few hundred
// probes fell far short of it (forkjoin/join at 2 preemptions: 126,000 for
// 403,266; docs/explore.md, "The forecast"). An estimate of n that is too
// high costs only a factor in the weight of the walks that preempt; one
// too low costs a factor per decision, hence the most and not the mean.
type knuthGuide struct {
	rng    uint64
	bound  int
	span   int // preemption points of the longest schedule so far
	points int // preemption points this walk has passed
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
	point := false
	for _, a := range d.alternatives() {
		switch {
		case !d.costs(a):
			g.free = append(g.free, a)
		case r.preempts < g.bound:
			g.costly = append(g.costly, a)
			point = true
		default:
			point = true
		}
	}
	q := 0.0
	if len(g.costly) > 0 {
		left := float64(g.bound - r.preempts)
		q = min(left/max(float64(g.span-g.points), left+1), 0.5)
		if len(g.free) == 0 {
			q = 1
		}
	}
	if point {
		g.points++
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
	p := e.probe(b, EstimateProbes, EstimateProbes, true)
	return p.est, p.failed
}

// probed is what probe found: the estimate, its standard error (from the
// spread of the probes' weights), the runs made and, with failFast, the
// probe that failed.
type probed struct {
	est, stdErr float64
	runs        int
	failed      *run
}

// probe walks up to probes random schedules within bound b (at least
// least, and no more than the mean weight so far: past that the round
// itself costs less than more probes) and returns the estimate and the
// runs it made, its first run (the default schedule) included. With
// failFast a probe that fails ends it and is returned. Options.Seed seeds
// the walks (0, the usual, a fixed seed).
func (e *explorer) probe(b, least, probes int, failFast bool) probed {
	n := e.res.Schedules
	defer func() { e.res.Schedules = n }()
	first := e.runOnce(&dfsGuide{}, false)
	if first.failure != nil && failFast {
		return probed{runs: 1, failed: first}
	}
	e.span = max(e.span, preemptionPoints(first.decisions))
	g := &knuthGuide{rng: 0x9E3779B97F4A7C15 + e.opt.Seed*0xBF58476D1CE4E5B9, bound: b}
	if g.rng == 0 {
		g.rng = 1 // xorshift's one fixed point
	}
	sum, sumSq := 0.0, 0.0
	i := 0
	for i < probes && (i < least || float64(i) < sum/float64(i)) {
		i++
		g.weight, g.points, g.span = 1, 0, e.span
		r := e.runOnce(g, false)
		e.span = max(e.span, g.points)
		if !e.opt.Shard.mine(r.decisions, b) {
			continue // another part's schedule: weight 0 for this part
		}
		if r.failure != nil && failFast {
			return probed{runs: i + 1, failed: r}
		}
		sum += g.weight
		sumSq += g.weight * g.weight
	}
	mean := sum / float64(i)
	p := probed{est: mean, runs: i + 1}
	if i > 1 {
		p.stdErr = math.Sqrt(max(sumSq/float64(i)-mean*mean, 0) / float64(i-1))
	}
	return p
}

// preemptionPoints counts the decisions of ds where a choice would
// preempt.
func preemptionPoints(ds []decision) int {
	n := 0
	for i := range ds {
		for _, a := range ds[i].alternatives() {
			if ds[i].costs(a) {
				n++
				break
			}
		}
	}
	return n
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
	// StdErr is the standard error of Schedules, from the spread of the
	// probes' weights in each round. The weights are heavy-tailed (a few
	// rare schedules weigh most), so the spread of the probes seen is
	// itself low more often than not: read Schedules ± 2 StdErr as a
	// rough range, not a sure one.
	StdErr float64
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
		p := e.probe(b, min(10, probes), probes, false)
		f.PerRound = append(f.PerRound, p.est)
		f.Schedules += p.est
		f.StdErr += p.stdErr * p.stdErr // the rounds' probes are independent
		f.Runs += p.runs
	}
	f.StdErr = math.Sqrt(f.StdErr)
	f.Elapsed = time.Since(start)
	f.Time = time.Duration(float64(f.Elapsed) / float64(f.Runs) * f.Schedules)
	return f
}

// DefaultForecastProbes is ForecastSearch's number of probes per round
// when Options.EstimateProbes is 0.
const DefaultForecastProbes = 1000
