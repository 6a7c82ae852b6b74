package engine

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/weak"
	"pgregory.net/rapid"
)

// Symmetry in the weak-memory mode (symmetry.go) against the full search
// on generated programs of the weak mode's atomics: a goroutine of its
// own (g0) and two or three members of a Symmetric group running one
// list of loads, stores, adds and fences with drawn orderings on two
// integers, the members' lists drawn mostly of loads and fences (a write
// ends twinship). main may store to the integers first; it may load x0
// after starting g0 and make an acquire or seq_cst fence between the
// members' go statements (then the members start from different views,
// and are never twins). The outcome is what every load
// read (the members' in sorted order) and the final values. At bounds 0,
// 1 and 2 and unbounded, and in the reduced search at 0, 1, 2 and unbounded
// (sleep sets there, not wakeup trees), the search that skips twins
// reaches every outcome the search that does not reaches, and no other.

type symWeakProg struct {
	g0, member []weakOp
	k          int
	pre        []weakOp // main's stores before the members start
	// between: main loads x0 (relaxed) after starting g0, and makes a
	// fence of this ordering between the members' go statements.
	between Ordering
}

func (p symWeakProg) String() string {
	return fmt.Sprintf("main %v (fence between %v), g0 %v, %d x %v", p.pre, p.between, p.g0, p.k, p.member)
}

func genSymWeakProgram(t *rapid.T) symWeakProg {
	var p symWeakProg
	val := 0
	draw := func(label string, member bool) weakOp {
		kinds := []int{wLoad, wStore, wAdd, wFence}
		if member {
			kinds = []int{wLoad, wLoad, wLoad, wFence, wFence, wStore, wAdd, wYield}
		}
		return drawWeakOp(t, label, rapid.SampledFrom(kinds).Draw(t, label), &val)
	}
	for i := range rapid.IntRange(0, 1).Draw(t, "pre") {
		val++
		p.pre = append(p.pre, weakOp{kind: wStore, x: i, val: 10 * val, o: rapid.SampledFrom([]Ordering{Relaxed, Release}).Draw(t, "pre.o")})
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "ops0") {
		p.g0 = append(p.g0, draw(fmt.Sprintf("g0.%d", i), false))
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "opsm") {
		p.member = append(p.member, draw(fmt.Sprintf("m.%d", i), true))
	}
	p.k = rapid.IntRange(2, 3).Draw(t, "members")
	if rapid.IntRange(0, 4).Draw(t, "between") == 0 {
		p.between = rapid.SampledFrom([]Ordering{Acquire, SeqCst}).Draw(t, "between.o")
	}
	return p
}

// body runs the program; out receives each run's outcome.
func (p symWeakProg) body(out *string) func() {
	return func() {
		var w weakWorld
		xs := &w.xs
		for _, o := range p.pre {
			xs[o.x].store(o.val, o.o)
		}
		run := func(ops []weakOp, reads *[]int) {
			for _, o := range ops {
				w.do(o, reads)
			}
		}
		var r0 []int
		g0 := Go("g0", func() { run(p.g0, &r0) })
		var rm int
		if p.between != 0 {
			rm = xs[0].load(Relaxed)
		}
		reads := make([][]int, p.k)
		var ms []*Thread
		for i := range p.k {
			if i == 1 && p.between != 0 {
				// No scheduling point (a store's would let the first
				// member run before Symmetric), but an event the second
				// member's view has and the first's has not (and, after
				// an acquire fence, what g0's store main read carries).
				WeakFence(p.between)
			}
			rs := &reads[i] // written, never read, by the member: not its identity
			ms = append(ms, Go("m", func() { run(p.member, rs) }))
		}
		Symmetric(ms...)
		g0.Join()
		JoinAll(ms...)
		var mr []string
		for _, r := range reads {
			mr = append(mr, fmt.Sprint(r))
		}
		slices.Sort(mr)
		*out = fmt.Sprintf("main read %d, g0 %v, members %s; final %d %d", rm, r0, strings.Join(mr, " "), xs[0].v, xs[1].v)
	}
}

// yields reports whether the members yield. Then a class need not have
// its mirror image, though its outcome does (as with timeouts in
// symmetry_test.go): a member's step after its yield waits for another
// goroutine's progress, and the first member's yield, made as it
// started, was released by main's steps before the second's was.
func (p symWeakProg) yields() bool {
	return slices.ContainsFunc(p.member, func(o weakOp) bool { return o.kind == wYield })
}

// reachedOf runs body under opt (the plain or the reduced search) and
// returns the outcomes its runs reached.
func reachedOf(opt Options, body func(out *string) func()) (map[string]bool, Result) {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	got := map[string]bool{}
	var out string
	e := &explorer{opt: opt, body: body(&out)}
	e.onRun = func(r *run) {
		if !r.tracing && (r.por == nil || !r.por.stopped) {
			got[out] = true
		}
		out = ""
	}
	if opt.Reduce {
		return got, e.reduced()
	}
	return got, e.dfs()
}

// weakOrbits runs every schedule of the plain search of body in the weak
// mode and returns the outcomes and the orbits of the classes it reached
// (a class: the trace with the store each read chose, normalFormAs; its
// orbit: the least over the permutations of the members).
func weakOrbits(opt Options, p symWeakProg, body func(*string) func()) (map[string]bool, map[string]bool, Result) {
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	outs, orbits := map[string]bool{}, map[string]bool{}
	var out string
	res := everySchedule(opt, body(&out), symProg{k: p.k}.members(), func(s symRun) {
		outs[out] = true
		orbits[s.orbit] = true
		out = ""
	})
	return outs, orbits, res
}

// twinViewsDiffer checks, in the weak mode, what the argument in
// symmetry.go says of twins x and y: their vector clocks are equal but
// for their own entries and their spawner's, each has none of the
// other's events, and at every location, with every ordering, they may
// read the same stores. It returns what differs, or "".
func twinViewsDiffer(r *run, x, y int) string {
	if r.mem == nil {
		return ""
	}
	m := r.mem.m
	cx, cy := m.Clock(weak.Thread(x)), m.Clock(weak.Thread(y))
	sp := r.threads[x].spawner.id
	for u := range max(len(cx), len(cy)) {
		switch {
		case u == x || u == y:
			if cx.At(u) != cy.At(x+y-u) {
				return fmt.Sprintf("twins %d and %d: clocks %v and %v", x, y, cx, cy)
			}
		case u != sp && cx.At(u) != cy.At(u):
			return fmt.Sprintf("twins %d and %d: clocks %v and %v", x, y, cx, cy)
		}
	}
	for _, v := range r.mem.locs.values() {
		l := weak.Loc(v)
		for _, o := range []Ordering{Relaxed, Acquire, SeqCst} {
			if a, b := m.Candidates(weak.Thread(x), l, o), m.Candidates(weak.Thread(y), l, o); !slices.Equal(a, b) {
				return fmt.Sprintf("twins %d and %d may read different stores of %s (%v): %v and %v", x, y, m.Name(l), o, a, b)
			}
		}
	}
	return ""
}

// mirrorDiffers checks the premise of the twin rule at twins x and y
// (symmetry.go): the run so far is equivalent to its mirror image, x and
// y swapped. A step is named by its goroutine and its number among that
// goroutine's steps; the run's step (x, i) must happen after exactly the
// steps its mirror (y, i) happens after, with x and y swapped, and have
// made the same choices of an older store or place. It returns what
// differs, or "" (also where the run keeps no steps or stopped analysing
// them).
func mirrorDiffers(r *run, x, y int) string {
	p := r.por
	if p == nil || p.stopped {
		return ""
	}
	type step struct{ tid, local int }
	at := map[step]int{}
	picks := map[int][]int{}
	for i, e := range p.events {
		at[step{e.tid, e.local}] = i
	}
	for _, k := range p.picks {
		if k.c > 0 { // as the class names them (normalFormAs)
			picks[k.ev] = append(picks[k.ev], k.c)
		}
	}
	swap := func(q int) int {
		switch q {
		case x:
			return y
		case y:
			return x
		}
		return q
	}
	for i, e := range p.events {
		j, ok := at[step{swap(e.tid), e.local}]
		if !ok {
			return fmt.Sprintf("twins %d and %d: step %d of goroutine %d has no mirror", x, y, e.local, e.tid)
		}
		f := p.events[j]
		for q := range max(len(e.clock), len(f.clock), x+1, y+1) {
			if e.clock.At(q) != f.clock.At(swap(q)) {
				return fmt.Sprintf("twins %d and %d: the run is not equivalent to its mirror image: step %d of goroutine %d has clock %v, its mirror %v", x, y, e.local, e.tid, e.clock, f.clock)
			}
		}
		if !slices.Equal(picks[i], picks[j]) {
			return fmt.Sprintf("twins %d and %d: step %d of goroutine %d chose stores %v, its mirror %v", x, y, e.local, e.tid, picks[i], picks[j])
		}
	}
	return ""
}

// symWeakPrograms is how many programs the comparison draws in cmd/verify's
// model layer (about 4 s of a core), and symWeakBudget bounds each full
// search compared. An explicit -rapid.checks is obeyed.
const (
	symWeakPrograms = 20
	symWeakBudget   = 1500
)

func TestSymmetryInTheWeakModeOfGeneratedPrograms(t *testing.T) {
	skipUnderRace(t)
	fewerPrograms(t, symWeakPrograms, "symmetry in the weak mode")
	var bad string
	symCheck = func(r *run, x, y int) {
		if bad == "" {
			bad = twinViewsDiffer(r, x, y)
		}
		if bad == "" {
			bad = mirrorDiffers(r, x, y)
		}
	}
	defer func() { symCheck = nil }()
	var plain, reduced symTally
	var twins int64
	rapid.Check(t, func(t *rapid.T) {
		bad = "" // each program's own (rapid runs a failing one again)
		p := genSymWeakProgram(t)
		compare := func(what string, opt Options, tally *symTally) {
			opt.Weak = true
			nopt := opt
			nopt.NoSymmetry = true
			search := reachedOf
			var wantOrbits, gotOrbits map[string]bool
			if !opt.Reduce {
				// The plain search: the orbits of classes too.
				search = func(opt Options, body func(*string) func()) (map[string]bool, Result) {
					got, orbits, res := weakOrbits(opt, p, body)
					if opt.NoSymmetry {
						wantOrbits = orbits
					} else {
						gotOrbits = orbits
					}
					return got, res
				}
			}
			want, wres := search(nopt, p.body)
			if wres.Failure != nil {
				t.Fatalf("%v, %s: the full search failed: %v", p, what, wres.Failure.Message)
			}
			if !wres.Exhaustive {
				return // too big for the budget
			}
			got, gres := search(opt, p.body)
			if gres.Failure != nil || !gres.Exhaustive || gres.Schedules > wres.Schedules {
				t.Fatalf("%v, %s: skipping twins: %d schedules (exhaustive %v, failure %v), the full search %d", p, what, gres.Schedules, gres.Exhaustive, gres.Failure, wres.Schedules)
			}
			if missed, extra := setDiff(want, got); len(missed) > 0 || len(extra) > 0 {
				t.Fatalf("%v, %s: full %d schedules, %d outcomes; skipping twins %d, %d\nmissed: %s\nonly with twins skipped: %s",
					p, what, wres.Schedules, len(want), gres.Schedules, len(got), strings.Join(missed, "; "), strings.Join(extra, "; "))
			}
			for k := range wantOrbits {
				if !p.yields() && !gotOrbits[k] {
					t.Fatalf("%v, %s: skipping twins missed the orbit of classes %s (full: %d schedules, %d orbits; twins skipped: %d, %d)",
						p, what, k, wres.Schedules, len(wantOrbits), gres.Schedules, len(gotOrbits))
				}
			}
			if bad != "" {
				t.Fatalf("%v, %s: %s", p, what, bad)
			}
			if p.between != 0 && gres.Twins != 0 {
				t.Fatalf("%v, %s: members started from different views were twins at %d decisions", p, what, gres.Twins)
			}
			twins += gres.Twins
			tally.searches++
			tally.full += wres.Schedules
			tally.sym += gres.Schedules
			tally.outcomes += len(want)
		}
		for b := 0; b <= 2; b++ {
			compare(fmt.Sprintf("bound %d", b), Options{Preemptions: preemptionsOption(b), MaxSchedules: symWeakBudget}, &plain)
			compare(fmt.Sprintf("reduced, bound %d", b), Options{Reduce: true, Preemptions: preemptionsOption(b), MaxSchedules: symWeakBudget}, &reduced)
		}
		compare("no bound", Options{Preemptions: 64, MaxSchedules: symWeakBudget}, &plain)
		compare("reduced, no bound", Options{Reduce: true, Unbounded: true, MaxSchedules: symWeakBudget}, &reduced)
	})
	t.Logf("weak mode, plain search: %v; reduced search (bounds 0-2 and none): %v; %d decisions with a twin", &plain, &reduced, twins)
	if twins == 0 {
		t.Errorf("no decision had a twin: the comparison compared nothing")
	}
	if os.Getenv("WSCHED_EXPLORE_POR_MEASURE") != "" {
		fmt.Printf("symmetry in the weak mode: plain %v; reduced %v\n", &plain, &reduced)
	}
}

// TestSymmetryInTheWeakModeSeqCstFencesOrderTwins is the program that
// found the seq_cst order missing from the members' histories
// (-rapid.seed=13272686205642661358; docs/explore.md, "Symmetry"): each
// member's first step makes a seq_cst load and a seq_cst fence, which
// writes the seq_cst order (scLoc), so the two members' first steps are
// ordered; their histories were equal all the same, and at bound 2 the
// search that skipped twins missed the orbit BCDBADCA (the member whose
// step came second stores first). Now the second to make its fence
// observes the first's: at every pair of twins the run is equivalent to
// its mirror image, and every outcome and orbit is reached, at bounds 0
// to 2 and without one.
func TestSymmetryInTheWeakModeSeqCstFencesOrderTwins(t *testing.T) {
	p := symWeakProg{
		g0:     []weakOp{{kind: wFence, o: AcqRel}, {kind: wLoad, x: 0, o: Acquire}, {kind: wAdd, x: 0, o: SeqCst}},
		member: []weakOp{{kind: wLoad, x: 0, o: SeqCst}, {kind: wFence, o: SeqCst}, {kind: wStore, x: 0, val: 10, o: Relaxed}},
		k:      2,
	}
	var bad string
	symCheck = func(r *run, x, y int) {
		if bad == "" {
			bad = mirrorDiffers(r, x, y)
		}
	}
	defer func() { symCheck = nil }()
	for _, b := range []int{0, 1, 2, 64} {
		opt := Options{Weak: true, Preemptions: preemptionsOption(b), MaxSchedules: 100000}
		nopt := opt
		nopt.NoSymmetry = true
		want, wantOrbits, wres := weakOrbits(nopt, p, p.body)
		got, gotOrbits, gres := weakOrbits(opt, p, p.body)
		if !wres.Exhaustive || !gres.Exhaustive || wres.Failure != nil || gres.Failure != nil {
			t.Fatalf("bound %d: full %+v, twins skipped %+v", b, wres, gres)
		}
		if bad != "" {
			t.Fatalf("bound %d: %s", b, bad)
		}
		if gres.Twins == 0 || gres.Schedules >= wres.Schedules {
			t.Fatalf("bound %d: skipping twins ran %d schedules with %d decisions with a twin, the full search %d", b, gres.Schedules, gres.Twins, wres.Schedules)
		}
		if missed, extra := setDiff(want, got); len(missed) > 0 || len(extra) > 0 {
			t.Fatalf("bound %d: missed outcomes %v; outcomes only with twins skipped %v", b, missed, extra)
		}
		if missed, extra := setDiff(wantOrbits, gotOrbits); len(missed) > 0 || len(extra) > 0 {
			t.Fatalf("bound %d: full %d schedules, %d orbits; twins skipped %d, %d: missed the orbits %v; only with twins skipped %v",
				b, wres.Schedules, len(wantOrbits), gres.Schedules, len(gotOrbits), missed, extra)
		}
		if b == 2 && !wantOrbits["BCDBADCA"] {
			t.Fatalf("bound 2: the full search no longer reaches the orbit BCDBADCA (%d orbits): the program tests nothing", len(wantOrbits))
		}
		t.Logf("bound %d: full %d schedules, skipping twins %d (%d decisions with a twin); %d orbits, %d outcomes", b, wres.Schedules, gres.Schedules, gres.Twins, len(wantOrbits), len(want))
	}
}
