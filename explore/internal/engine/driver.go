package engine

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/wsched/wsched/explore/internal/weak"
)

// The driver: one exploration's state, the run of one schedule under a
// guide (runOnce, with its watchdog), and the searches that choose the
// guides of the runs one after another: the depth-first search with a
// preemption bound (dfs), PCT (pct), the reduced search (por_search.go),
// the replay (replay.go) and the estimate of what a budget left
// (estimate.go).

type explorer struct {
	opt  Options
	body func()
	res  Result
	// plainRounds is the plain search's forecast of each round, when
	// the caller had it (ExploreScaled): the reduced search's forecast of
	// bound 1 from bound 0 (boundOneRange).
	plainRounds []float64
	// Record every run's steps (the plain search too), and look at each
	// run when it ends: for the package's tests and for Check's
	// comparison of the reduced search with the plain one (Classes).
	record bool
	onRun  func(*run)
	// probing: the runs are a sharded reduced search's probes
	// (por_shard.go), which no part counts.
	probing bool
	spare   *porRun // the last run's record (reduced or recording search), for the next
	// spareMem is the last run's weak memory, if it was not traced and
	// passed, for the next (newMemory).
	spareMem *memory
	// symmetric: a run declared a Symmetric group (its runs from then on
	// keep the locations accessed before it: symmetry.go, ownLoc).
	symmetric bool
	// decisions is the last run's decisions, whose memory the next run
	// reuses: whoever looks at a run does so before the next one starts.
	decisions []decision
	// threads is the last run's thread records, if it passed and was
	// not traced, which the next run reuses (run.newThread).
	threads []*thread
	// chans is the last run's set of channels seen closed (run.chans),
	// emptied for the next.
	chans map[uintptr]struct{}
	// prefix is nextPrefix's memory: the prefix it returns, and the
	// preemption counts it builds on the way.
	prefix, preempts []int
	alts             []int    // nextPrefix's list of a decision's alternatives
	deps             *depDiag // Options.Dependencies
	// In a part of a sharded search: scratch memory for the parts of
	// schedules (shard.go), and nextPrefix's keys of the last run, one
	// per decision up to the one that decided its part (cacheDone caches
	// only the decisions after it).
	shardPath path
	keys      []uint64
	// cache is the plain search's state cache (statecache.go), nil when
	// off; cacheKeys and cacheLeft are the last run's, reused by the next;
	// cacheRan is the last run's record if that run kept the cache.
	cache     *stateCache
	cacheKeys []stateKey
	cacheLeft []int8
	cacheRan  *porRun
	// tick is the watchdog's ticker (wait), stopped when the search
	// ends (stopWatchdog).
	tick *time.Ticker
	// span is the most preemption points one schedule had among the
	// estimator's probes so far, all rounds (estimate.go, knuthGuide).
	span int
}

// runOnce runs body once under g.
func (e *explorer) runOnce(g guide, tracing bool) *run {
	if current.Load() != nil {
		panic("explore: Explore called while another exploration runs")
	}
	r := newRun(g, e.opt.MaxSteps, tracing)
	r.decisions = e.decisions[:0]
	r.threads, e.threads = e.threads[:0], nil
	if e.chans != nil {
		clear(e.chans)
		r.chans = e.chans
	}
	dg, plain := g.(*dfsGuide)
	plain = plain && dg.bounded && !tracing && !e.record && e.onRun == nil
	if plain && skipForcedPoints && !e.opt.Weak {
		// The depth-first search skips its forced points (run.goOn).
		// In a part of a sharded search too: a forced point adds nothing
		// to the hash that decides a run's part (shard.go), having one
		// alternative within the bound before the run's first
		// preemption, and coming after the choice that decided the part
		// otherwise. Not when someone looks at the run; not
		// in the weak mode; and goOn decides at every point once a
		// Symmetric group is declared or the run keeps the locations it
		// has seen. Other guides (a replay, the estimator's samples,
		// PCT, the reduced search) are not the bounded dfsGuide.
		r.bound, r.keepForced = dg.bound, dg.keepForced
	}
	// The state cache (statecache.go; e.cache is set only where it
	// holds) records every step's clock, a forced point ending a step
	// (forcedStep). Not when the failing schedule is run again with its
	// forced points (withForced): that run must not be cut.
	caching := plain && !dg.keepForced && e.cache != nil
	if caching {
		r.cache, r.cacheBound = e.cache, dg.bound
		r.cacheKeys, r.cacheLeft = e.cacheKeys[:0], e.cacheLeft[:0]
	}
	if e.deps != nil {
		r.deps = e.deps
		e.deps.newRun()
	}
	if e.opt.Weak {
		r.mem, e.spareMem = newMemory(weak.Config{History: e.opt.History, MaxStale: e.opt.MaxStale, Traced: tracing}, e.spareMem), nil
		if tracing {
			r.wt = newWeakTrace()
		}
	}
	var s *porSearch
	if pg, ok := g.(*porGuide); ok {
		s = pg.s
	}
	if s != nil || e.record || caching {
		// The analysis of the steps this run replays is the last run's
		// (por_keep.go): the reduced search's, or the cached search's.
		replays := -1
		switch {
		case e.spare == nil:
		case s != nil && e.spare.s == s && s.ran == e.spare:
			replays = len(s.prefix)
		case caching && e.spare == e.cacheRan:
			replays = len(dg.prefix)
			if keepPrefix {
				r.cacheKnown = replays // their states too (cacheCut)
			}
		}
		r.por, e.spare = newPorRun(s, e.spare, replays), nil
	}
	r.symAllowed = !e.opt.NoSymmetry
	if r.symAllowed && e.symmetric && r.curTwins() {
		r.seen = map[uintptr]struct{}{} // symmetry.go: ownLoc
	}
	current.Store(r)
	main := r.spawn("main", e.body)
	r.cur = main
	go r.drive()
	e.wait(r)
	current.Store(nil)
	if r.cutPor != nil {
		r.por = r.cutPor // its record up to the cut (coast)
	}
	sharedOps.Add(r.sharedOps)
	if e.onRun != nil {
		e.onRun(r)
	}
	if r.por != nil && r.failure == nil {
		e.spare = r.por // looked at (onRun): the next run may reuse it
	}
	if r.mem != nil && !tracing && r.failure == nil {
		e.spareMem = r.mem
	}
	e.decisions = r.decisions
	e.cacheRan = nil
	if caching {
		e.cacheKeys, e.cacheLeft = r.cacheKeys, r.cacheLeft
		e.cacheRan = r.por
	}
	if r.failure == nil && !tracing && !r.abandoned.Load() {
		// Its thread records, for the next run (run.newThread): no
		// goroutine of a run that passed is left to touch them.
		e.threads = r.threads
	}
	e.chans = r.chans
	e.symmetric = e.symmetric || r.sym != nil
	e.res.Schedules++
	e.res.Steps += int64(r.steps)
	e.res.MaxSteps = max(e.res.MaxSteps, r.steps)
	e.res.Twins += int64(r.twinsAt)
	if r.cut {
		e.res.Cut++
	}
	return r
}

// wait waits for the run to finish, watching that handoffs keep coming.
// The watchdog's ticker is the search's, made at its first run (a ticker
// per run was a timer made and stopped at every schedule): a tick left
// from the run before may come first, so the run is called stuck after
// five ticks without a handoff, at least four quarters of the watchdog.
func (e *explorer) wait(r *run) {
	if e.tick == nil {
		e.tick = time.NewTicker(e.opt.Watchdog / 4)
	}
	last, idle := r.progress.Load(), 0
	for {
		select {
		case <-r.finished:
			return
		case <-e.tick.C:
			p := r.progress.Load()
			if p != last {
				last, idle = p, 0
				continue
			}
			if idle++; idle < 5 {
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

// stopWatchdog stops the watchdog's ticker, if a run started it.
func (e *explorer) stopWatchdog() {
	if e.tick != nil {
		e.tick.Stop()
	}
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
		if e.opt.StateCache && !e.symmetric {
			// A round's own: the states of the rounds before it had
			// fewer preemptions left.
			e.cache = newStateCache()
		}
		var prefix []int
		for {
			r := e.runDFS(prefix, b)
			if r.failure != nil {
				return e.fail(e.withForced(r, prefix, b))
			}
			prefix = e.nextPrefix(r.decisions, b)
			e.cacheDone(r, len(prefix)-1)
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

// runDFS runs the schedule of the depth-first search at bound b that
// starts with prefix. In a part of a sharded search (shard.go) a run that
// turns out to be another part's is not counted, and its failure is not
// this part's: the failure field of the run returned is then nil.
func (e *explorer) runDFS(prefix []int, b int) *run {
	maxSteps := e.res.MaxSteps
	r := e.runOnce(&dfsGuide{prefix: prefix, bounded: true, bound: b}, false)
	forcedSkipped.Add(int64(r.skipped))
	if e.opt.Shard.Split() && !e.opt.Shard.mineWith(&e.shardPath, r.decisions, b) {
		e.res.Schedules--
		e.res.Steps -= int64(r.steps)
		e.res.Twins -= int64(r.twinsAt)
		e.res.MaxSteps = maxSteps
		if r.cut {
			e.res.Cut--
		}
		r.failure = nil
	}
	return r
}

// skipForcedPoints lets the depth-first search skip its forced points
// (run.goOn); the tests turn it off to compare the search with the one
// that decides at every point (forced_test.go), and read forcedSkipped,
// the forced points skipped in every run so far, to see that some were.
var (
	skipForcedPoints = true
	forcedSkipped    atomic.Int64
)

// withForced returns failing run r of the depth-first search at bound b
// (runDFS with prefix) with every decision, its forced points' too: a run
// that skipped them is run again recording them (the same schedule: the
// prefix numbers the other decisions in both), not counted as another
// schedule. The token of the failure is built from its decisions.
func (e *explorer) withForced(r *run, prefix []int, b int) *run {
	if r.bound < 0 || r.keepForced {
		return r
	}
	res, ops := e.res, sharedOps.Load()
	e.decisions = nil // r's stay as they are
	rr := e.runOnce(&dfsGuide{prefix: prefix, bounded: true, bound: b, keepForced: true}, false)
	e.res = res
	sharedOps.Store(ops)
	if f := rr.failure; f == nil || f.Kind != r.failure.Kind || f.Thread != r.failure.Thread {
		// Not deterministic: the failure found stands, and fail's
		// replay of its token (without the forced points' decisions)
		// says the schedule did not come back.
		return r
	}
	return rr
}

// nextPrefix backtracks: at the last decision that has an untried choice
// within the bound, take that choice. Choices are tried in the order of
// decision.alternatives, so each schedule is run once per round. In a part
// of a sharded search, a choice whose subtree holds none of the part's
// schedules is not taken (shard.go): an economy, since runDFS would not
// count its schedules anyway.
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
	// In a part of a sharded search: the hash of the path before each
	// decision up to the first that decided its part (shard.go); the
	// decisions after it are in the part's own subtree.
	keys := e.keys[:0]
	p := &e.shardPath
	p.bound, p.h = bound, 0
	if e.opt.Shard.Split() {
		for i := range ds {
			keys = append(keys, p.h)
			key, decides := p.at(&ds[i], ds[i].chosen)
			if decides {
				break
			}
			p.h = key
		}
		e.keys = keys
	}
	for i := len(ds) - 1; i >= 0; i-- {
		d := &ds[i]
		alts := d.appendAlternatives(e.alts[:0])
		e.alts = alts
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
			if i < len(keys) {
				p.h = keys[i]
				if key, decides := p.at(d, a); decides && key%uint64(e.opt.Shard.N) != uint64(e.opt.Shard.K) {
					continue // another part's subtree
				}
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

// pct runs Options.PCT schedules of random priorities (pctGuide).
func (e *explorer) pct() Result {
	e.res.Mode = "pct"
	// The length of one schedule, to place the change points.
	r := e.runOnce(&dfsGuide{}, false)
	if r.failure != nil {
		return e.fail(r)
	}
	k := max(r.steps, 1)
	if sh := e.opt.Shard; sh.Split() && sh.K != 0 {
		// The length probe is schedule 0, part 0's.
		e.res.Schedules--
		e.res.Steps -= int64(r.steps)
		e.res.MaxSteps = 0
	}
	seed := e.opt.Seed*0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D
	for i := 1; i < e.opt.PCT; i++ {
		if sh := e.opt.Shard; sh.Split() && i%sh.N != sh.K {
			continue // another part's schedule
		}
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
