package explorer

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"time"

	"github.com/wsched/wsched/explore/weak"
)

// Options bound one exploration. They are explore.Options field for field
// (that package converts one into the other, so a field added here is
// added there, where the scenario writer reads it).
type Options struct {
	// Preemptions is the preemption bound of the depth-first search: a
	// schedule may switch away from a goroutine that could go on at most
	// this many times (switches at blocking, at Gosched and at a
	// goroutine's end are free). The search runs bound 0, then 1, ... up
	// to this, so the first failure found has as few preemptions as any.
	// Zero means the default, 2 (CHESS: most concurrency bugs need at
	// most two); a negative value means a bound of 0 (only the free
	// switches). WSCHED_LONG raises it by one (Check).
	Preemptions int
	// MaxSchedules is the budget: the search stops after this many
	// schedules, and the result says it was not exhaustive. Default
	// 20,000.
	MaxSchedules int
	// MaxSteps bounds the scheduling points of one schedule; a schedule
	// that passes it fails (a livelock). Default 20,000.
	MaxSteps int
	// PCT, when > 0, replaces the depth-first search with this many
	// randomized schedules (probabilistic concurrency testing: random
	// goroutine priorities, PCTDepth-1 priority change points), for
	// scenarios too large to enumerate. Seed makes them reproducible.
	PCT      int
	PCTDepth int // default 3
	Seed     uint64
	// Replay, when set, runs only the schedule this token describes, with
	// a trace (see Failure.Token).
	Replay string
	// Reduce replaces the plain depth-first search, which runs every
	// schedule within the bound, with the reduced one (por.go), which
	// runs one schedule of each class of schedules that differ only in
	// the order of steps that do not conflict. docs/explore.md ("The
	// reduced search") says how it is compared with the plain search,
	// and that the classes it once missed under a bound are reached now.
	Reduce bool
	// Unbounded, with Reduce, drops the preemption bound: the search
	// runs every execution of the scenario, and sleep sets cut it
	// further. Exhaustive then means every execution.
	Unbounded bool
	// Watchdog is how long, in real time, a schedule may go without a
	// single handoff before the explorer gives up: a goroutine blocked
	// outside its control. Default 20 s.
	Watchdog time.Duration
	// Weak runs every schedule in the weak-memory mode (weakmode.go): the
	// atomics are as strong as the orderings their names give, a load may
	// read an older store, and plain cells are checked for data races.
	// Each choice of an older store is a decision of the search; with
	// Reduce, the reduced search runs every choice of every load it runs
	// (por.go, porNode.reads).
	Weak bool
	// MaxStale bounds the stale choices (reads of a store other than the
	// latest, stores placed before the latest) of one schedule in the
	// weak-memory mode; default 2 (message passing needs one, store
	// buffering, IRIW and 2+2W two), negative: none.
	MaxStale int
	// History is how many stores of each location a load may choose
	// from in the weak-memory mode; default 7, as loom.
	History int
}

func (o Options) WithDefaults() Options {
	if o.Preemptions == 0 {
		o.Preemptions = 2
	}
	if o.Preemptions < 0 {
		o.Preemptions = 0
	}
	if o.MaxSchedules <= 0 {
		o.MaxSchedules = 20_000
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 20_000
	}
	if o.PCTDepth <= 0 {
		o.PCTDepth = 3
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 20 * time.Second
	}
	return o
}

// Result is what an exploration did; explore.Result is it as the public
// package gives it.
type Result struct {
	Schedules int
	Steps     int64 // scheduling points over all schedules
	MaxSteps  int   // the longest schedule
	// Exhaustive is true when the depth-first search ran every schedule
	// within the preemption bound; false when the budget stopped it, and
	// always false for PCT.
	Exhaustive bool
	Bound      int    // the preemption bound reached (DFS; -1: unbounded)
	Mode       string // "dfs", "dpor", "pct" or "replay"
	// Redundant counts the reduced search's runs that turned out to
	// repeat a class already run (every goroutine that could go was in
	// the sleep set); they are counted in Schedules too.
	Redundant int
	// When the budget cut the depth-first search: the schedules it ran
	// at the last bound, and Knuth's estimate of how many there are at
	// that bound (estimate.go; an order of magnitude).
	RoundSchedules int
	Estimate       float64
	Failure        *Failure
	// Trace is a replayed schedule's trace, when it passed (a failure
	// carries its own).
	Trace   string
	Elapsed time.Duration
}

// StuckError is what Explore panics with when a schedule stops handing
// over: a goroutine is blocked where the explorer cannot see it, and the
// run cannot be torn down.
type StuckError struct{ msg string }

func (e StuckError) Error() string { return e.msg }

// Explore runs body under many schedules, as opt says, and returns what it
// found. body runs as the goroutine "main"; everything it starts with Go
// (or through instrumented code) is explored with it. body must leave
// nothing running: a goroutine still blocked when the others are done is a
// deadlock. Explore runs one exploration at a time (it is not reentrant)
// and sets GOMAXPROCS to 1 while it runs, since one goroutine runs at a
// time anyway and handoffs are cheapest on one P.
func Explore(opt Options, body func()) Result {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	start := time.Now()
	e := &explorer{opt: opt, body: body}
	var res Result
	switch {
	case opt.Replay != "":
		res = e.replay(opt.Replay)
	case opt.PCT > 0:
		res = e.pct()
	case opt.Reduce:
		res = e.reduced()
	default:
		res = e.dfs()
	}
	res.Elapsed = time.Since(start)
	return res
}

type explorer struct {
	opt  Options
	body func()
	res  Result
	// Record every run's steps (the plain search too), and look at each
	// run when it ends: for the package's tests and for Check's
	// comparison of the reduced search with the plain one (Classes).
	record bool
	onRun  func(*run)
	spare  *porRun // the last run's record (reduced or recording search), for the next
	// decisions is the last run's decisions, whose memory the next run
	// reuses: whoever looks at a run does so before the next one starts.
	decisions []decision
	// prefix is nextPrefix's memory: the prefix it returns, and the
	// preemption counts it builds on the way.
	prefix, preempts []int
}

// runOnce runs body once under g.
func (e *explorer) runOnce(g guide, tracing bool) *run {
	if current.Load() != nil {
		panic("explore: Explore called while another exploration runs")
	}
	r := newRun(g, e.opt.MaxSteps, tracing)
	r.decisions = e.decisions[:0]
	if e.opt.Weak {
		r.mem = newMemory(weak.Config{History: e.opt.History, MaxStale: e.opt.MaxStale})
		if tracing {
			r.wt = newWeakTrace()
		}
	}
	var s *porSearch
	if pg, ok := g.(*porGuide); ok {
		s = pg.s
	}
	if s != nil || e.record {
		r.por, e.spare = newPorRun(s, e.spare), nil
	}
	current.Store(r)
	main := r.spawn("main", e.body)
	r.cur = main
	main.wake <- struct{}{}
	e.wait(r)
	current.Store(nil)
	if e.onRun != nil {
		e.onRun(r)
	}
	if r.por != nil && r.failure == nil {
		e.spare = r.por // looked at (onRun): the next run may reuse it
	}
	e.decisions = r.decisions
	e.res.Schedules++
	e.res.Steps += int64(r.steps)
	e.res.MaxSteps = max(e.res.MaxSteps, r.steps)
	return r
}

// wait waits for the run to finish, watching that handoffs keep coming.
func (e *explorer) wait(r *run) {
	tick := time.NewTicker(e.opt.Watchdog / 4)
	defer tick.Stop()
	last, idle := r.progress.Load(), 0
	for {
		select {
		case <-r.finished:
			return
		case <-tick.C:
			p := r.progress.Load()
			if p != last {
				last, idle = p, 0
				continue
			}
			if idle++; idle < 4 {
				continue
			}
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			// Abandon the run: a goroutine released later exits
			// without handing over, and the next exploration can
			// start. The other goroutines of the run stay blocked.
			r.abandoned.Store(true)
			current.Store(nil)
			panic(StuckError{fmt.Sprintf("explore: no goroutine handed over for %v: a goroutine of the scenario is blocked outside the explorer's control (a channel, lock or sleep that is not instrumented). Every goroutine:\n%s", e.opt.Watchdog, buf)})
		}
	}
}

// dfsGuide replays a prefix of choices, then takes the defaults.
type dfsGuide struct{ prefix []int }

func (g *dfsGuide) choose(r *run, d decision) int {
	if i := len(r.decisions); i < len(g.prefix) {
		return g.prefix[i]
	}
	return d.defaultChoice()
}

// dfs is iterative preemption bounding: a depth-first search of every
// schedule with at most b preemptions, for b = 0, 1, ... Preemptions.
// Each round repeats the schedules of the rounds before it (a small
// fraction of the last round), and in exchange the first failure found has
// the fewest preemptions.
func (e *explorer) dfs() Result {
	e.res.Mode = "dfs"
	for b := 0; b <= e.opt.Preemptions; b++ {
		e.res.Bound = b
		round := e.res.Schedules
		var prefix []int
		for {
			r := e.runOnce(&dfsGuide{prefix: prefix}, false)
			if r.failure != nil {
				return e.fail(r)
			}
			prefix = e.nextPrefix(r.decisions, b)
			if prefix == nil {
				break
			}
			if e.res.Schedules >= e.opt.MaxSchedules {
				e.res.RoundSchedules = e.res.Schedules - round
				est, fr := e.estimate(b)
				if fr != nil {
					return e.fail(fr)
				}
				e.res.Estimate = est
				return e.res
			}
		}
	}
	e.res.Exhaustive = true
	return e.res
}

// nextPrefix backtracks: at the last decision that has an untried choice
// within the bound, take that choice. Choices are tried in the order of
// decision.alternatives, so each schedule is run once per round.
//
// The prefix returned is in e's memory: it is good until the next call.
func (e *explorer) nextPrefix(ds []decision, bound int) []int {
	pre := append(e.preempts[:0], make([]int, len(ds)+1)...)
	e.preempts = pre
	n := 0
	for i := range ds {
		if ds[i].preempt {
			n++
		}
		pre[i+1] = n // preemptions among ds[:i+1]
	}
	for i := len(ds) - 1; i >= 0; i-- {
		d := &ds[i]
		alts := d.alternatives()
		k := 0
		for alts[k] != d.chosen {
			k++
		}
		for _, a := range alts[k+1:] {
			cost := pre[i]
			if d.costs(a) {
				cost++
			}
			if cost > bound {
				continue
			}
			p := append(e.prefix[:0], make([]int, i+1)...)
			e.prefix = p
			for j := range i {
				p[j] = ds[j].chosen
			}
			p[i] = a
			return p
		}
	}
	return nil
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

func (g *pctGuide) choose(r *run, d decision) int {
	for len(g.changes) > 0 && g.changes[0].step <= r.steps {
		g.prio[r.cur.id] = g.changes[0].prio
		g.changes = g.changes[1:]
	}
	if d.reads > 0 {
		// Which store a load reads: the latest half the time, else
		// one of the older ones the model offers, at random.
		if g.next()%2 == 0 {
			return 0
		}
		return 1 + int(g.next()%uint64(d.reads-1))
	}
	best, bestP := -1, -1
	for m := d.enabled; m != 0; m &= m - 1 {
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

func (e *explorer) pct() Result {
	e.res.Mode = "pct"
	// The length of one schedule, to place the change points.
	r := e.runOnce(&dfsGuide{}, false)
	if r.failure != nil {
		return e.fail(r)
	}
	k := max(r.steps, 1)
	seed := e.opt.Seed*0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D
	for i := 1; i < e.opt.PCT; i++ {
		g := &pctGuide{rng: seed + uint64(i)*0xBF58476D1CE4E5B9 | 1, depth: e.opt.PCTDepth, prio: map[int]int{}}
		for j := 1; j < e.opt.PCTDepth; j++ {
			g.changes = append(g.changes, pctChange{1 + int(g.next()%uint64(k)), e.opt.PCTDepth - j})
		}
		slices.SortFunc(g.changes, func(a, b pctChange) int { return a.step - b.step })
		r := e.runOnce(g, false)
		if r.failure != nil {
			return e.fail(r)
		}
	}
	return e.res
}
