package engine

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"
)

// The reduced search: the decisions of the current path with the
// alternatives the runs' analyses (por_run.go) asked for, the guide that
// replays a path and goes on with the default or a choice not asleep, and
// the search's rounds, one per preemption bound or one unbounded with
// sleep sets.

// sleeper is a goroutine asleep (sleep sets): the step it would take,
// explored already from an earlier state, is independent of everything
// run since, so running it now would repeat a class. Its step is its
// pending operation (a goroutine asleep does not move), or everything if
// that step touched an address besides its operation when it was
// explored: the addresses of an earlier run are not this run's.
//
// In the weak mode what a step touches can depend on which store its
// load reads (a compare-and-swap that fails runs on to the next
// operation, one that succeeds does not), so a goroutine whose step
// read stores sleeps one variant per store (choice, of the of its load
// offered): each wakes on its own accesses, the goroutine is asleep
// while every variant is, and a goroutine partly asleep reads only the
// stores of its variants awake (porGuide.store). One sleeper for the
// whole step, woken by the accesses of whichever variant ran last,
// missed classes: docs/explore.md, "A step's variants".
type sleeper struct {
	tid   int
	wide  bool
	extra []access // named locations its step touched besides its operation
	// choice is the store the step's first load read, of of; -1: the
	// sleeper is the whole step.
	choice, of int
}

func (z sleeper) conflicts(r *run, e *stepSummary) bool {
	t := r.threads[z.tid]
	return z.wide || t.pendAll || e.all || overlaps(e.acc, t.pend) || overlaps(e.acc, z.extra)
}

// porSearch is the state of one reduced search: the decisions of the
// current path, each with the alternatives the runs asked for.
type porSearch struct {
	bound   int  // the preemption bound, or -1 for none
	sleep   bool // use sleep sets (only without a bound)
	nodes   []porNode
	prefix  []int
	stopped int // runs stopped by the sleep set
	// beyond counts, at each decision the search has left for good
	// (next), the choices there that cost more preemptions than the
	// bound allows (the scheduling points a search one bound higher may
	// preempt at), and beyondAsked those of them its runs' races asked
	// for: bound 1's forecast reads bound 0's (boundOneRange).
	beyond, beyondAsked int
	// optimal: the alternatives are wakeup trees (por_wakeup.go), not
	// single goroutines; only with sleep sets, in the plain mode.
	optimal bool
	// carry is the wakeup subtree the run's next decision starts from,
	// once the run is past its prefix (armed).
	carry []*wuNode
	armed bool
	// ran is the last run's record, which the next run keeps the
	// analysis of its replayed steps from (por_keep.go); nil under
	// Options.Dependencies, which counts each run's races.
	ran *porRun
	// shard is a part's bookkeeping in a sharded search (por_shard.go);
	// nil in the whole search.
	shard *porShard
	porStats
}

// porStats is what a search held and dropped, for measuring it.
type porStats struct {
	held, peakHeld int // wakeup-tree nodes held now, and at most
	peakNodes      int // the longest path of decisions held
	// dropped counts wakeup-tree branches the search could not follow
	// (their goroutine could not go, or was asleep, when replayed).
	dropped int
	// kept counts the replayed steps whose analysis was the last run's,
	// and diverged the runs whose replay was not (por_keep.go).
	kept, diverged int
}

// unboundedSearch is the search of every execution: sleep sets, and in
// the plain mode wakeup trees.
func unboundedSearch(weak bool) *porSearch {
	return &porSearch{bound: -1, sleep: true, optimal: !sourceSetsOnly && (!weak || weakWakeupTrees)}
}

// weakWakeupTrees gives the weak mode's unbounded search wakeup trees too,
// instead of source sets: measured against them, not the default
// (docs/explore.md, "Wakeup trees in the weak mode").
var weakWakeupTrees bool

// sourceSetsOnly makes the unbounded search ask for single goroutines
// (source sets) instead of wakeup trees: the search before wakeup trees,
// kept to measure against.
var sourceSetsOnly bool

type porNode struct {
	// kind and schedule are the decision's (decision.go). A load's node
	// (kind kindStore: which store a load reads, weakmode.go) has every
	// choice in enabled: every one is run (bt is all of them), as the
	// plain search runs them, but those whose variant of the step is
	// asleep and all of them in a run stopped (porGuide.store: done), and
	// none costs a preemption. Which store a
	// load may read depends on the steps before it that conflict with it
	// (the stores to its location, what its goroutine synchronised with,
	// the seq_cst events: scLoc) and, through the seq_cst order, on other
	// goroutines' stale choices; but a choice is offered exactly when the
	// execution stays RC11 consistent, which does not depend on the order
	// of the steps, so every order of one class reaches the same
	// executions, the choice is the load's own, like a value read from
	// input, and the reduction of the steps around it stands.
	kind byte
	schedule
	preBefore int // preemptions before this decision on the path
	chosen    int
	bt, done  uint64
	sleep0    []sleeper // the sleep set when first reached
	// wut is the wakeup tree still to explore here (optimal search):
	// branches in the order they are run, each a goroutine and the
	// subtree the decisions after it follow. At a store's node, which
	// has no tree of its own, it is the rest of the branch the run was
	// following when the load reached here: each later choice of store
	// follows it too (a copy; the last choice takes it).
	wut []*wuNode
	// wide: the explored choices here whose step touched an address
	// besides its operation; extra: the named locations (threadLoc) the
	// others touched.
	wide  uint64
	extra map[int][]access
	// vars (the weak mode): the explored choices here whose step's
	// first load had stores to choose from, one record per store read.
	vars []stepVariant
	// twinOf maps each twin of the decision (schedule.twins) to the
	// goroutine run in its place (symmetry.go).
	twinOf map[int]int
	// mirror (wakeup trees): the twins counted as explored because the
	// goroutine they twin was (por_symmetry.go).
	mirror uint64
}

// stepVariant is what goroutine tid's step touched besides its operation
// when its first load read store choice of of.
type stepVariant struct {
	tid, choice, of int
	wide            bool
	extra           []access
}

// record keeps what goroutine tid's step, explored at n, touched besides
// its operation: for the whole step, or, if its first load read store
// choice (not -1) of of, for that variant, merged with what the variant
// touched in earlier runs (a later load of the same step may have read
// another store).
func (n *porNode) record(tid, choice, of int, s stepSummary, npend int) {
	if choice >= 0 {
		n.recordVariant(tid, choice, of, s, npend)
		return
	}
	if s.all {
		n.wide |= 1 << tid
	}
	for _, a := range s.acc[npend:] {
		if a.loc >= maxNamedLoc {
			n.wide |= 1 << tid
		}
	}
	if len(s.acc) > npend && n.wide&(1<<tid) == 0 {
		if n.extra == nil {
			n.extra = map[int][]access{}
		}
		n.extra[tid] = append([]access(nil), s.acc[npend:]...) // s.acc is reused by the next run
	}
}

func (n *porNode) recordVariant(tid, choice, of int, s stepSummary, npend int) {
	var v *stepVariant
	for i := range n.vars {
		if n.vars[i].tid == tid && n.vars[i].choice == choice {
			v = &n.vars[i]
			break
		}
	}
	if v == nil {
		n.vars = append(n.vars, stepVariant{tid: tid, choice: choice, of: of})
		v = &n.vars[len(n.vars)-1]
	}
	v.wide = v.wide || s.all
	for _, a := range s.acc[npend:] {
		if a.loc >= maxNamedLoc {
			v.wide = true
		}
		if !slices.Contains(v.extra, a) {
			v.extra = append(v.extra, a) // a copy: s.acc is reused by the next run
		}
	}
}

// sleepersOf appends to ss the sleepers of goroutine q's step explored at
// n: one per store its load read, or one for the whole step.
func (n *porNode) sleepersOf(ss []sleeper, q int) []sleeper {
	whole := true
	for _, v := range n.vars {
		if v.tid == q {
			ss = append(ss, sleeper{tid: q, wide: v.wide, extra: v.extra, choice: v.choice, of: v.of})
			whole = false
		}
	}
	if whole {
		ss = append(ss, sleeper{tid: q, wide: n.wide&(1<<q) != 0, extra: n.extra[q], choice: -1})
	}
	return ss
}

// over reports whether running c at n exceeds the preemption bound.
func (n *porNode) over(c, bound int) bool {
	cost := n.preBefore
	if n.costs(c) {
		cost++
	}
	return cost > bound
}

func (n *porNode) costs(c int) bool {
	return n.kind == kindGoroutine && n.schedule.costs(c)
}

// asleep is the goroutines asleep in ss: the whole step, or every store
// its load has to choose from.
func asleep(ss []sleeper) uint64 {
	var m, part uint64
	for _, z := range ss {
		if z.choice < 0 {
			m |= 1 << z.tid
		} else {
			part |= 1 << z.tid
		}
	}
	for p := part &^ m; p != 0; p &= p - 1 {
		q := bits.TrailingZeros64(p)
		if z, of := asleepStores(ss, q); z == uint64(1)<<of-1 {
			m |= 1 << q
		}
	}
	return m
}

// asleepStores is the stores (bits: choices) goroutine q's next load is
// not to read, its step's variants asleep in ss, out of of; every one
// (of 64) if its whole step is asleep.
func asleepStores(ss []sleeper, q int) (z uint64, of int) {
	for _, s := range ss {
		switch {
		case s.tid != q:
		case s.choice < 0:
			return ^uint64(0), 64
		default:
			z |= 1 << s.choice
			of = max(of, s.of)
		}
	}
	return z, of
}

// sleepAt appends to ss the sleep set of node n when c is explored
// there: its own, and the choices explored there before c. A run keeps
// its sleep set in memory of its own (porRun.sleep, which wakeSleepers
// filters in place) and insert reads one from scratch memory, so that
// neither allocates at each decision. ss must not share memory with
// n.sleep0, which wakeSleepers' filter would then overwrite.
func (n *porNode) sleepAt(ss []sleeper, c int) []sleeper {
	ss = append(ss, n.sleep0...)
	for m := n.done &^ (1 << c) &^ n.mirror; m != 0; m &= m - 1 {
		ss = n.sleepersOf(ss, bits.TrailingZeros64(m))
	}
	if n.mirror == 0 {
		return ss // no twin counted as explored (mirrorSleepers)
	}
	return append(ss, n.mirrorSleepers(c)...)
}

// porGuide replays the search's prefix, then takes the default choice,
// or, with sleep sets, the first one not asleep.
type porGuide struct{ s *porSearch }

// store: which store a load reads. Every choice is run, but those of a
// step's variants asleep (sleeper), and none once the run is stopped.
func (g *porGuide) store(r *run, l load) int {
	s, i := g.s, len(r.decisions)
	if i < len(s.prefix) {
		if i == len(s.prefix)-1 {
			s.armed = true // the carry (next) starts after this step
		}
		return s.prefix[i]
	}
	all := uint64(1)<<l.n - 1
	s.nodes = append(s.nodes[:i], porNode{kind: kindStore, schedule: schedule{enabled: all, cur: -1, timer: -1}, bt: all, preBefore: r.preempts})
	n := &s.nodes[i]
	var z uint64 // the choices asleep
	if s.sleep && !r.por.stopped && r.por.open && i == r.por.stepDecs {
		// The step's first load: its goroutine may be partly asleep.
		z, _ = asleepStores(r.por.sleep, r.por.events[len(r.por.events)-1].tid)
		if z &= all; z == all {
			// The goroutine is asleep and went all the same: a step
			// without a decision while the others only yielded
			// (porRun.alone), which goes on as a whole step asleep
			// does.
			z = 0
		}
	}
	c := 0
	if r.por.stopped {
		// The run repeats a class: its other choices here would
		// repeat it again, replayed through the part that stopped
		// (where the prefix's decisions no longer look at the sleep
		// set).
		n.done = all
	} else {
		c = bits.TrailingZeros64(all &^ z)
		n.done = z | 1<<c
	}
	n.chosen = c
	if s.optimal && len(s.carry) > 0 && l.n > 1 && !r.por.stopped {
		n.wut = s.clone(s.carry)
	}
	return c
}

func (g *porGuide) goroutine(r *run, d schedule) int {
	s, i := g.s, len(r.decisions)
	if i < len(s.prefix) {
		c := s.prefix[i]
		if s.sleep {
			r.por.sleep = s.nodes[i].sleepAt(r.por.sleep[:0], c)
		}
		if i == len(s.prefix)-1 {
			s.armed = true // the carry (next) starts after this step
		}
		return c
	}
	// The node is made in place, in the path's memory (a porNode built
	// and then appended is copied twice); nothing reads s.nodes[i]
	// until it is made.
	if i < cap(s.nodes) {
		s.nodes = s.nodes[:i+1]
	} else {
		s.nodes = append(s.nodes[:i], porNode{})
	}
	n := &s.nodes[i]
	*n = porNode{kind: kindGoroutine, schedule: d, preBefore: r.preempts}
	if d.twins != 0 {
		n.twinOf = r.twinBases(&d)
	}
	if s.sleep {
		n.sleep0 = append([]sleeper(nil), r.por.sleep...)
	}
	c := d.defaultChoice()
	if s.optimal && !r.por.stopped {
		n.wut, s.carry = s.carry, nil
		if n.twins != 0 {
			s.mirrorTwins(r, n)
		}
		if b := s.take(n); b != nil {
			c, s.carry = b.tid, b.kids
		} else if x, ok := n.twinOf[c]; ok && n.twins&(1<<c) != 0 {
			c = x // the default is a twin (curTwins): the goroutine it twins
		}
	}
	if z := asleep(n.sleep0); z&(1<<c) != 0 {
		c = -1
		for _, a := range n.alternatives() {
			if z&(1<<a) == 0 {
				c = a
				break
			}
		}
		if c < 0 {
			// Every goroutine that could go is asleep: this run
			// repeats a class. Finish it as it goes, unanalysed.
			if !r.por.stopped {
				s.stopped++
			}
			r.por.stopped = true
			c = d.defaultChoice()
			n.done = d.enabled
		}
	}
	if r.por.stopped {
		n.done = d.enabled
	}
	if r.por.stopped && s.optimal {
		s.drop(s.carry)
		s.carry = nil
	}
	s.choose(n, c)
	s.peakNodes = max(s.peakNodes, len(s.nodes))
	if s.sleep {
		r.por.sleep = n.sleepAt(r.por.sleep[:0], c) // sleep0 is a copy: the memory is free
	}
	return c
}

// next is the prefix of the next run: the deepest decision with an
// alternative asked for and not yet run (within the bound), or nil.
func (s *porSearch) next() []int {
	for k := len(s.nodes) - 1; k >= 0; k-- {
		n := &s.nodes[k]
		if b := s.take(n); b != nil {
			s.choose(n, b.tid)
			s.carry = b.kids
			return s.cut(k)
		}
		cand := s.asked(n)
		for m := cand; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			if s.bound >= 0 && n.over(c, s.bound) {
				continue
			}
			if s.shard != nil && s.shard.skip(k, c) {
				n.done |= 1 << c // another part's subtree
				continue
			}
			s.choose(n, c)
			s.carry = nil
			if n.kind == kindStore && n.wut != nil {
				// The branch goes on after the load, whichever store
				// it reads; the last choice takes it, the others a copy.
				if s.carry = n.wut; cand&^(1<<c) != 0 {
					s.carry = s.clone(n.wut)
				} else {
					n.wut = nil
				}
			}
			return s.cut(k)
		}
		s.countBeyond(n, cand) // nothing left within the bound: k is left
	}
	return nil
}

// asked is what the runs asked for at decision n and the search has yet
// to run there: not run, a twin replaced by the goroutine it twins, none
// asleep; next runs those within the bound.
func (s *porSearch) asked(n *porNode) uint64 {
	cand := n.bt &^ n.done & n.enabled
	if n.twins != 0 {
		cand = n.untwin(cand)
	}
	if s.sleep {
		cand &^= asleep(n.sleep0)
	}
	return cand
}

// countBeyond adds decision n's choices past the bound to s.beyond, and
// those of them asked for (in cand) to s.beyondAsked, as the search
// leaves n: a decision is left once, and then bt holds every choice its
// runs asked for there.
func (s *porSearch) countBeyond(n *porNode, cand uint64) {
	if s.bound < 0 {
		return
	}
	for m := n.enabled &^ n.twins; m != 0; m &= m - 1 {
		if c := bits.TrailingZeros64(m); n.over(c, s.bound) {
			s.beyond++
			if cand&(1<<c) != 0 {
				s.beyondAsked++
			}
		}
	}
}

// cut ends the path at decision k and returns its choices, the prefix of
// the next run, in the memory of the last run's prefix (which nothing
// reads once that run ended).
func (s *porSearch) cut(k int) []int {
	s.nodes = s.nodes[:k+1]
	pre := slices.Grow(s.prefix[:0], k+1)[:k+1]
	for j := range k + 1 {
		pre[j] = s.nodes[j].chosen
	}
	return pre
}

// reduced is the reduced search: bound 0, 1, ... Preemptions as the plain
// search does, or, with Unbounded, one search of every execution.
func (e *explorer) reduced() Result {
	e.res.Mode = "dpor"
	if e.opt.Unbounded {
		e.res.Bound = -1
		if !e.porRound(unboundedSearch(e.opt.Weak)) {
			return e.res
		}
		e.res.Exhaustive = true
		return e.res
	}
	var rounds []int // the schedules of each bound's search
	var last *porSearch
	began := time.Now()
	for b := 0; b <= e.opt.Preemptions; b++ {
		e.res.Bound = b
		fc, how := nextRound(rounds), ""
		e.res.RoundRange = [2]float64{}
		if b == 1 {
			if lo, hi := boundOneRange(rounds[0], last.beyondAsked, last.beyond, e.plainRounds); lo > 0 {
				fc, e.res.RoundRange = math.Sqrt(lo*hi), [2]float64{lo, hi}
				how = fmt.Sprintf(" and the plain search's rounds 0 to 1 (about %d to %d), between about %d and %d: bound 0's races asked for %d of the %d preemptions its decisions offered; "+
					"that share of the plain rounds' growth is the low end, the plain round 1 the high end",
					TwoDigits(e.plainRounds[0]), TwoDigits(e.plainRounds[1]), TwoDigits(lo), TwoDigits(hi), last.beyondAsked, last.beyond)
			}
		}
		e.res.RoundForecast = fc
		start := e.res.Schedules
		if fc > 0 && e.opt.Log != nil {
			per := time.Since(began) / time.Duration(max(start, 1))
			e.opt.Log.Logf("bound %d starts: about %d schedules there, forecast from the bounds before it (%s)%s, about %v at their rate; an order of magnitude",
				b, TwoDigits(fc), strings.Trim(fmt.Sprint(rounds), "[]"), how, (time.Duration(fc) * per).Round(time.Second))
		}
		last = &porSearch{bound: b}
		if e.opt.Shard.Split() {
			last.shard = newPorShard(e.opt.Shard, b)
		}
		ok := e.porRound(last)
		if last.shard != nil {
			e.res.Subtrees = append(e.res.Subtrees, last.shard.subs...)
			e.res.Probes += last.shard.probes
		}
		e.res.RoundSchedules = e.res.Schedules - start
		e.res.Beyond, e.res.BeyondAsked = last.beyond, last.beyondAsked
		if !ok {
			return e.res
		}
		rounds = append(rounds, e.res.RoundSchedules)
	}
	e.res.Exhaustive = true
	return e.res
}

// The reduced search has no forecast before it starts: its branches are
// the races its own runs reverse, so there is no tree for Knuth's walks
// (estimate.go) to sample. Its rounds are the sampler instead: bound 1's
// from bound 0 and the plain search's forecast of its rounds, where the
// caller has one (boundOneRange), and from bound 2 on as follows. The search
// at bound b runs the schedules with at most b preemptions the races ask
// for; with L places a preemption can go and k goroutines to give the
// core to, about (L k)^b / b! of them, so the rounds grow by a ratio that
// falls as 1/b: R(b) ~ R(b-1)^2 / R(b-2) * (b-1)/b. The rounds before
// the last are a small part of the work (runtime/remote-spawn: 84 and
// 9,802 before 591,780; 9% at the median, 29% at most), so the forecast
// of each round from 2, made when the ones before it end, comes before
// most of the work. Measured on the reduced searches that end
// (docs/explore.md, "The reduced search's forecast"), on rounds of 1,000
// schedules or more: median error 14%, 63 of 77 within 35%, the worst
// -53% and +362%: an order of magnitude, as Knuth's is.

// TwoDigits rounds x to two significant digits, at least 1: an
// estimate's precision (explore's reports write it with commas).
func TwoDigits(x float64) int64 {
	p := math.Pow(10, math.Floor(math.Log10(max(x, 1)))-1)
	return max(int64(math.Round(x/p)*p), 1)
}

// nextRound forecasts the schedules of the next bound's search from those
// of the bounds before it; 0 when there are fewer than two.
func nextRound(rounds []int) float64 {
	n := len(rounds)
	if n < 2 || rounds[n-2] == 0 {
		return 0
	}
	r1, r2 := float64(rounds[n-2]), float64(rounds[n-1])
	return r2 * r2 / r1 * float64(n-1) / float64(n)
}

// boundOneRange forecasts bound 1's search from bound 0's (r0 schedules,
// whose races asked for asked of the beyond choices that cost a
// preemption at its decisions) and the plain search's forecast of its
// rounds (plain, ExploreScaled's), as a range. Every schedule of bound 1
// that bound 0 did not run preempts once, at one of those choices, and
// runs within bound 0 after it; the plain search runs them all, its round
// 1 growing over round 0 by plain[1]-plain[0]. The reduced search runs
// the preemptions its races ask for: at least the ones bound 0's asked for
// (bound 1's runs may ask for more at the same decisions), at most all of
// them. So, with the schedules under a preemption taken as many as the
// plain search has (the growth per preemption) and scaled by what bound 0
// ran of the plain round 0, the low end is bound 0 and asked/beyond of
// the plain growth; the high end is the plain round 1 itself, whose
// schedules hold one of each class the reduced search runs (in the weak
// mode bound 0 may run fewer than the plain round 0, and the growth
// scaled by that share fell below the count: rule2-batch-mate, 80,000
// for 139,418). The forecast is their geometric mean, and reduced logs
// the range as bound 1 starts. Measured on the reduced searches of
// explore/scenarios at bound 1 (docs/explore.md, "The reduced search's
// forecast, from its own rounds"), rounds of 1,000 schedules or more: in
// the plain mode 25 of 28 inside the range (all 28 within 10% of it),
// the forecast within a factor of two of all 28 (median error 21%); in
// the weak mode 11 of 11 inside, 10 within a factor of two (30%). The
// forecast before, bound 0 scaled by the plain rounds' growth (near the
// high end), was +130% at the median on the explore layer's reduced
// runtime scenarios. lo and hi are 0 when there is no bound 0 or no plain
// forecast of both rounds.
func boundOneRange(r0, asked, beyond int, plain []float64) (lo, hi float64) {
	if r0 <= 0 || len(plain) < 2 || plain[0] <= 0 || plain[1] <= 0 {
		return 0, 0
	}
	share := 0.0
	if beyond > 0 {
		share = float64(asked) / float64(beyond)
	}
	growth := max(plain[1]-plain[0], 0) * float64(r0) / plain[0]
	lo = float64(r0) + share*growth
	return lo, max(plain[1], lo)
}

// porRound runs one reduced search to its end; false if it stopped on a
// failure or the budget.
func (e *explorer) porRound(s *porSearch) bool {
	defer func() {
		e.res.Redundant += s.stopped
		if onPorRound != nil {
			onPorRound(s.porStats)
		}
	}()
	for {
		s.armed = s.prefix == nil
		r := e.runOnce(&porGuide{s}, false)
		if s.shard != nil {
			s.shard.ran(s, r.steps)
		}
		if r.failure != nil {
			e.fail(r)
			return false
		}
		if e.deps == nil {
			s.ran = r.por
		}
		if s.shard != nil && s.shard.root == nil && !e.probeSubtrees(s) {
			return false
		}
		s.drop(s.carry) // a branch longer than the run (it ended first)
		s.carry = nil
		s.prefix = s.next()
		if s.prefix == nil {
			return true
		}
		if e.res.Schedules >= e.opt.MaxSchedules {
			return false
		}
	}
}

// untwin replaces each twin asked for at n (symmetry.go) by the lowest
// goroutine it is a twin of, which the run of that choice mirrors, and
// drops it where that one ran already.
func (n *porNode) untwin(cand uint64) uint64 {
	for m := cand & n.twins; m != 0; m &= m - 1 {
		y := bits.TrailingZeros64(m)
		cand &^= 1 << y
		if x, ok := n.twinOf[y]; ok && n.done&(1<<x) == 0 {
			cand |= 1 << x
		}
	}
	return cand
}
