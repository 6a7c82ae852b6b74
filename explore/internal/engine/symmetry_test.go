package engine

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Symmetry (symmetry.go) against the full search on generated programs: a
// goroutine of its own (g0, which sets the event) and two or three
// members of a Symmetric group running one list of operations. At bounds
// 0, 1 and 2 and unbounded, every outcome the full search reaches (the
// final integers and what each goroutine observed, the members' in
// sorted order: the outcome up to a permutation of the members), and
// every failure, the search that skips twins reaches too. Where the
// members wait with no timeout, the same holds of traces: every trace of
// the full search, renamed by the permutation of the members that gives
// the least normal form (its orbit), is reached. (With timeouts it need
// not: two members timed out at one deadline fire in the order of their
// numbers, a step that moves the clock, so a trace where the higher one
// fired first and then lost a race has no mirror image, though the state
// it reaches has.) The schedules saved are measured.

// opCheck fails the schedule when integer v is 2 or more (a member's op
// only, at the top level).
const opCheck = nOps

// Data a member owns (symmetry.go, ownLoc): opOwn adds 1 to the
// member's own integer, made as it starts, and logs what it got;
// opPublish (a member's) puts a pointer to it in a shared box; opPeek
// (g0's) reads the box and adds 1 to the integer published there, if any,
// logging what it got (-1 if none).
const (
	opOwn = nOps + 1 + iota
	opPublish
	opPeek
)

type symProg struct {
	g0, member []progOp
	k          int // members
}

func (p symProg) String() string { return fmt.Sprintf("g0 %v, %d x %v", p.g0, p.k, p.member) }

// genSymProgramOwn is genSymProgram with some of the members' operations
// on their own data, some publishing it, and some of g0's reading what
// was published.
func genSymProgramOwn(t *rapid.T) symProg {
	p := genSymProgram(t, true)
	for i := range p.member {
		switch rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("m.%d.own", i)) {
		case 0, 1:
			p.member[i] = progOp{kind: opOwn}
		case 2:
			p.member[i] = progOp{kind: opPublish}
		}
	}
	if rapid.Bool().Draw(t, "own") {
		p.member = append(p.member, progOp{kind: opOwn})
	}
	for i := range p.g0 {
		if rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("g0.%d.peek", i)) == 0 {
			p.g0[i] = progOp{kind: opPeek}
		}
	}
	return p
}

func genSymProgram(t *rapid.T, checks bool) symProg {
	var p symProg
	for i := range rapid.IntRange(1, 3).Draw(t, "ops0") {
		p.g0 = append(p.g0, genOp(t, fmt.Sprintf("g0.%d", i), 0, false, false))
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "opsm") {
		o := genOp(t, fmt.Sprintf("m.%d", i), 1, false, false)
		if checks && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("m.%d.check", i)) == 0 {
			o = progOp{kind: opCheck, v: o.v}
		}
		p.member = append(p.member, o)
	}
	p.k = rapid.IntRange(2, 3).Draw(t, "members")
	return p
}

// members are the goroutine numbers of the group: main is 0, g0 1.
func (p symProg) members() []int {
	var ms []int
	for i := range p.k {
		ms = append(ms, 2+i)
	}
	return ms
}

// body runs the program; out receives each run's outcome.
func (p symProg) body(out *string) func() {
	return func() {
		var w progWorld
		var box loc  // its address stands for pub's
		var pub *loc // a member's own integer, published
		var log0 []int
		g0 := Go("g0", func() {
			for _, o := range p.g0 {
				if o.kind == opPeek {
					PointAt(box.at(), false)
					if x := pub; x != nil {
						log0 = append(log0, x.Add(1))
					} else {
						log0 = append(log0, -1)
					}
					continue
				}
				w.do(o, &log0)
			}
			w.e.Set()
		})
		logs := make([][]int, p.k)
		var ms []*Thread
		for i := range p.k {
			log := &logs[i] // written, never read, by the member: not its identity
			ms = append(ms, Go("m", func() {
				mine := new(loc)
				for _, o := range p.member {
					switch o.kind {
					case opOwn:
						*log = append(*log, mine.Add(1))
						continue
					case opPublish:
						PointAt(box.at(), true)
						pub = mine
						continue
					}
					if o.kind == opCheck {
						if v := w.xs[o.v].Load(); v >= 2 {
							*out = fmt.Sprintf("failed: integer %d is %d", o.v, v)
							Failf("integer %d is %d", o.v, v)
						}
						continue
					}
					w.do(o, log)
				}
			}))
		}
		Symmetric(ms...)
		g0.Join()
		JoinAll(ms...)
		var mlogs []string
		for _, l := range logs {
			mlogs = append(mlogs, fmt.Sprint(l))
		}
		slices.Sort(mlogs)
		*out = fmt.Sprintf("xs %d %d %d; g0 saw %v; members saw %s", w.xs[0].v, w.xs[1].v, w.xs[2].v, log0, strings.Join(mlogs, " "))
	}
}

func (p symProg) timeouts() bool {
	return slices.ContainsFunc(p.member, func(o progOp) bool { return o.kind == opTimeout })
}

// orbitForm is the least normal form of r's trace over the permutations
// of the members.
func orbitForm(p *porRun, members []int) string {
	n := members[len(members)-1] + 1
	best := ""
	for _, perm := range permutations(members) {
		as := make([]int, n)
		for i := range as {
			as[i] = i
		}
		for i, m := range members {
			as[m] = perm[i]
		}
		if f := normalFormAs(p, as); best == "" || f < best {
			best = f
		}
	}
	return best
}

func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{append([]int(nil), xs...)}
	}
	var out [][]int
	for i := range xs {
		rest := append(append([]int(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// symRun is what one run of a search reached: its orbit, whether it
// failed, and whether a higher-numbered member took the group's first
// step (where the members are twins until then, as in the planted
// failure below, a schedule the twin rule skips; a timeout firing for
// the higher one first is not such a choice).
type symRun struct {
	orbit      string
	failed     bool
	higherLead bool
}

// everySchedule runs every schedule of the plain search at opt's bound
// (past failures, unlike dfs) and reports each.
func everySchedule(opt Options, body func(), members []int, see func(symRun)) Result {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	e := &explorer{opt: opt, body: body, record: true}
	e.onRun = func(r *run) {
		see(symRun{orbitForm(r.por, members), r.failure != nil, higherLead(r.por, members)})
	}
	var prefix []int
	for {
		r := e.runOnce(&dfsGuide{prefix: prefix}, false)
		if prefix = e.nextPrefix(r.decisions, opt.Preemptions); prefix == nil {
			break
		}
		if e.res.Schedules >= opt.MaxSchedules {
			return e.res
		}
	}
	e.res.Exhaustive = true
	return e.res
}

// higherLead reports whether the first member to take a step is not the
// lowest-numbered one.
func higherLead(p *porRun, members []int) bool {
	for _, ev := range p.events {
		for _, m := range members {
			if ev.tid == m {
				return m != members[0]
			}
		}
	}
	return false
}

type symTally struct{ searches, full, sym, outcomes int }

func (s *symTally) String() string {
	return fmt.Sprintf("%d searches, %d outcomes; schedules: full %d, skipping twins %d (%.2fx fewer)",
		s.searches, s.outcomes, s.full, s.sym, float64(s.full)/float64(max(s.sym, 1)))
}

// compareSymmetry runs program p under the full search and the one that
// skips twins at opt's bound and compares what they reach.
func compareSymmetry(t *rapid.T, p symProg, what string, opt Options, tally *symTally) {
	type reached struct{ outcomes, orbits map[string]bool }
	search := func(opt Options) (reached, Result) {
		got := reached{map[string]bool{}, map[string]bool{}}
		var out string
		res := everySchedule(opt, p.body(&out), p.members(), func(s symRun) {
			got.outcomes[out] = true
			got.orbits[s.orbit] = true
			out = ""
		})
		return got, res
	}
	fopt := opt
	fopt.NoSymmetry = true
	full, fres := search(fopt)
	if !fres.Exhaustive {
		return
	}
	sym, sres := search(opt)
	if !sres.Exhaustive || sres.Schedules > fres.Schedules {
		t.Fatalf("%v, %s: skipping twins ran %d schedules (exhaustive %v), the full search %d", p, what, sres.Schedules, sres.Exhaustive, fres.Schedules)
	}
	for k := range full.outcomes {
		if !sym.outcomes[k] {
			t.Fatalf("%v, %s: skipping twins missed the outcome %q (full: %d schedules, %d outcomes; twins skipped: %d, %d)",
				p, what, k, fres.Schedules, len(full.outcomes), sres.Schedules, len(sym.outcomes))
		}
	}
	if !p.timeouts() {
		for k := range full.orbits {
			if !sym.orbits[k] {
				t.Fatalf("%v, %s: skipping twins missed the orbit of traces %s (full: %d schedules, %d orbits; twins skipped: %d, %d)",
					p, what, k, fres.Schedules, len(full.orbits), sres.Schedules, len(sym.orbits))
			}
		}
	}
	tally.searches++
	tally.full += fres.Schedules
	tally.sym += sres.Schedules
	tally.outcomes += len(full.outcomes)
}

// symPrograms is how many programs the comparison draws (cmd/verify's
// model layer runs it so, about 4 s on a loaded core). An explicit
// -rapid.checks is obeyed: 1,000 passed when it was written.
const symPrograms = 40

func TestSymmetryMissesNoOutcomeOfGeneratedPrograms(t *testing.T) {
	skipUnderRace(t)
	fewerPrograms(t, symPrograms, "symmetry's comparison")
	budget := symBudget
	var tally symTally
	rapid.Check(t, func(t *rapid.T) {
		p := genSymProgram(t, true)
		for b := 0; b <= 2; b++ {
			compareSymmetry(t, p, fmt.Sprintf("bound %d", b), Options{Preemptions: preemptionsOption(b), MaxSchedules: budget}, &tally)
		}
		compareSymmetry(t, p, "no bound", Options{Preemptions: 64, MaxSchedules: budget}, &tally)
	})
	t.Logf("symmetry on generated programs: %v", &tally)
	if os.Getenv("WSCHED_EXPLORE_POR_MEASURE") != "" {
		fmt.Printf("symmetry on generated programs: %v\n", &tally)
	}
}

// A failure planted where the twin rule cuts: two members each add 1 to
// a counter; the first to get 1 publishes a flag, the other must find it
// set. It fails when the first is preempted between its add and its
// store: whichever member is first. The full search fails in schedules
// led by either member; the search that skips twins runs none led by the
// higher one, and still fails, in the mirror of each.
func TestSymmetryFindsAFailureInTheTwinsMirror(t *testing.T) {
	checkPlantedFailure(t, Options{}, plantedTwinsFailure)
}

// plantedTwinsFailure is the body of that failure: members a and b
// (goroutines 1 and 2).
func plantedTwinsFailure() {
	var c, f loc
	member := func() {
		if c.Add(1) == 1 {
			f.Store(1)
		} else if f.Load() == 0 {
			Failf("the second member found the flag unset")
		}
	}
	a, b := Go("a", member), Go("b", member)
	Symmetric(a, b)
	JoinAll(a, b)
}

// The same failure in the weak-memory mode, with the orderings message
// passing needs (an acquire-release add, a release store, an acquire
// load): the second member may also read the flag's initial value after
// the first stored it, another way to fail.
func TestSymmetryFindsAFailureInTheTwinsMirrorWeak(t *testing.T) {
	weakOn.Store(true)
	defer weakOn.Store(false)
	body := func() {
		var c, f wloc
		member := func() {
			if c.add(1, AcqRel) == 0 {
				f.store(1, Release)
			} else if f.load(Acquire) == 0 {
				Failf("the second member found the flag unset")
			}
		}
		a, b := Go("a", member), Go("b", member)
		Symmetric(a, b)
		JoinAll(a, b)
	}
	checkPlantedFailure(t, Options{Weak: true}, body)
}

// checkPlantedFailure runs body, whose two members (goroutines 1 and 2)
// fail where the twin rule cuts, under the full search and the one that
// skips twins, and checks that the second fails in the mirror of every
// failure of the first, running nothing led by the higher member.
func checkPlantedFailure(t *testing.T, opt Options, body func()) {
	t.Helper()
	members := []int{1, 2}
	type tally struct{ runs, failed, higherFailed int }
	fullFails, symFails := map[string]bool{}, map[string]bool{}
	var full, sym tally
	nopt := opt
	nopt.NoSymmetry = true
	fres := everySchedule(nopt, body, members, func(s symRun) {
		full.runs++
		if s.failed {
			full.failed++
			fullFails[s.orbit] = true
			if s.higherLead {
				full.higherFailed++
			}
		}
	})
	sres := everySchedule(opt, body, members, func(s symRun) {
		sym.runs++
		if s.higherLead {
			t.Errorf("skipping twins ran a schedule led by b: %s", s.orbit)
		}
		if s.failed {
			sym.failed++
			symFails[s.orbit] = true
		}
	})
	if !fres.Exhaustive || !sres.Exhaustive {
		t.Fatalf("not exhaustive: %+v %+v", fres, sres)
	}
	if full.higherFailed == 0 {
		t.Fatalf("the full search failed in no schedule led by b (%+v): the plant is not where the rule cuts", full)
	}
	for k := range fullFails {
		if !symFails[k] {
			t.Errorf("skipping twins never failed in the orbit %s", k)
		}
	}
	if sym.runs >= full.runs {
		t.Errorf("skipping twins ran %d schedules, the full search %d", sym.runs, full.runs)
	}
	res := Explore(opt, body)
	if res.Failure == nil {
		t.Fatalf("Explore with twins skipped found no failure (%d schedules)", res.Schedules)
	}
	t.Logf("full search: %d schedules at bound 2, %d fail (%d led by b); skipping twins: %d schedules, %d fail, none led by b; Explore fails at schedule %d: %s",
		full.runs, full.failed, full.higherFailed, sym.runs, sym.failed, res.Schedules, res.Failure.Message)
}

// symBudget bounds the full search of a generated program: a program
// whose full search is longer is not compared at that bound (most of
// the test's time went to a few such programs).
const symBudget = 3000

// A group declared after one of its members ran is refused, in the
// schedules where it ran: its history did not start with the group's.
func TestSymmetricRefusesAMemberThatRan(t *testing.T) {
	res := Explore(Options{}, func() {
		var x loc
		member := func() { x.Load() }
		a := Go("a", member)
		x.Store(1) // a may run its load here
		b := Go("b", member)
		Symmetric(a, b)
		JoinAll(a, b)
	})
	if res.Failure == nil || !strings.Contains(res.Failure.Message, "has run already") {
		t.Fatalf("declared after a member ran: %+v", res.Failure)
	}
}

// The parts of a sharded search skip the same twins as the whole search:
// they still add up to it, schedule for schedule (shard_test.go).
func TestShardsAddUpOnSymmetricPrograms(t *testing.T) {
	skipUnderRace(t)
	fewerPrograms(t, 20, "sharded symmetric programs")
	rapid.Check(t, func(t *rapid.T) {
		p := genSymProgram(t, true)
		var out string
		opt := Options{MaxSchedules: 5000}
		if res := Explore(opt, p.body(&out)); res.Failure == nil && !res.Exhaustive {
			return // past the budget: the parts would not add up to a cut search
		}
		for _, n := range []int{2, 3} {
			checkShards(t, p.String(), opt, p.body(&out), n)
		}
	})
}

// skipUnderRace skips a comparison on generated programs in a race build:
// it runs without the race detector in cmd/verify's model layer (the
// explorer runs one goroutine of a program at a time: the detector has
// little to add, and the comparison would add to go test -race's time).
func skipUnderRace(t *testing.T) {
	if raceBuild {
		t.Skip("runs without the race detector, in cmd/verify's model layer (engineGenerated)")
	}
}

// reachedBy runs p under opt (the plain or the reduced search) and
// returns the outcomes its runs reached and whether it failed.
func reachedBy(opt Options, p symProg) (map[string]bool, Result) { return reachedOf(opt, p.body) }

// The bounded reduced search with twins skipped (por_search.go, untwin)
// against the same search without, and against the plain search without:
// on every program, at bounds 0, 1 and 2, every outcome either reaches
// it reaches too, and it fails exactly when the reduced search without
// twins skipped does. 1,000 programs passed when it was written.
func TestSymmetryInTheReducedSearchOfGeneratedPrograms(t *testing.T) {
	skipUnderRace(t)
	fewerPrograms(t, symPrograms, "symmetry in the reduced search")
	var with, without int
	rapid.Check(t, func(t *rapid.T) {
		p := genSymProgram(t, true)
		for b := 0; b <= 2; b++ {
			pb := preemptionsOption(b)
			opt := Options{Reduce: true, Preemptions: pb, MaxSchedules: 3000}
			nopt := opt
			nopt.NoSymmetry = true
			want, wres := reachedBy(nopt, p)
			if !wres.Exhaustive && wres.Failure == nil {
				continue
			}
			got, gres := reachedBy(opt, p)
			if (wres.Failure == nil) != (gres.Failure == nil) {
				t.Fatalf("%v, bound %d: failure without twins skipped %v, with %v", p, b, wres.Failure, gres.Failure)
			}
			if wres.Failure != nil {
				continue
			}
			if !gres.Exhaustive {
				t.Fatalf("%v, bound %d: not exhaustive with twins skipped", p, b)
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("%v, bound %d: the reduced search with twins skipped missed %q (%d schedules; without: %d)", p, b, k, gres.Schedules, wres.Schedules)
				}
			}
			popt := Options{Preemptions: pb, MaxSchedules: 3000, NoSymmetry: true}
			if full, fres := reachedBy(popt, p); fres.Exhaustive {
				for k := range full {
					if !got[k] {
						t.Fatalf("%v, bound %d: the reduced search with twins skipped missed %q, which the plain search reached (reduced without twins skipped: %v)", p, b, k, want[k])
					}
				}
			}
			with += gres.Schedules
			without += wres.Schedules
		}
	})
	t.Logf("bounded reduced search: %d schedules without twins skipped, %d with", without, with)
}

// preemptionsOption is Options.Preemptions for bound b (0 there means
// the default, 2; a negative value means 0).
func preemptionsOption(b int) int {
	if b == 0 {
		return -1
	}
	return b
}
