package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The reduced search against the plain one on generated programs: two or
// three goroutines, each a few operations on three shared integers, a
// lock and an event, with a wait that may time out. At preemption bounds
// 0, 1 and 2, every trace the plain search reaches, the reduced search
// must reach. The hand-written toys above each show one pattern; these
// mix them, as a real scenario does (a lock taken more than once, a
// goroutine woken late, a timeout firing in the middle).

type progOp struct {
	kind  int // opLoad, opStore, opAdd, opLocked, opWait, opSet, opTimeout, opLoadThen
	v     int // the integer
	inner []progOp
}

const (
	opLoad = iota
	opStore
	opAdd
	opLocked  // lock; inner; unlock
	opWait    // wait for the event
	opSet     // set the event (goroutine 0 only)
	opTimeout // wait for integer v to be odd, or time out
	// load integer v and, if it was even, add 1 to the next one in the
	// same step (no scheduling point between): what the step touches
	// after its operation depends on what the operation read, as a
	// steal that finds the deque empty ends its call and its goroutine
	opLoadThen
	nOps
)

func (o progOp) String() string {
	names := [...]string{"load", "store", "add", "locked", "wait", "set", "timeout", "loadthen", "check"} // check: symmetry_test.go
	s := fmt.Sprintf("%s(%d)", names[o.kind], o.v)
	if o.kind == opLocked {
		var in []string
		for _, x := range o.inner {
			in = append(in, x.String())
		}
		s = "locked{" + strings.Join(in, " ") + "}"
	}
	return s
}

// genOp draws an operation of goroutine g (nested: inside a lock); with
// then, opLoadThen among the others.
func genOp(t *rapid.T, label string, g int, nested, then bool) progOp {
	kinds := []int{opLoad, opStore, opAdd}
	if then {
		kinds = append(kinds, opLoadThen)
	}
	if !nested {
		kinds = append(kinds, opLocked, opTimeout)
		if g == 0 {
			kinds = append(kinds, opSet)
		} else {
			kinds = append(kinds, opWait)
		}
	}
	o := progOp{kind: rapid.SampledFrom(kinds).Draw(t, label), v: rapid.IntRange(0, 2).Draw(t, label+"v")}
	if o.kind == opLocked {
		n := rapid.IntRange(1, 2).Draw(t, label+"n")
		for i := range n {
			o.inner = append(o.inner, genOp(t, fmt.Sprintf("%s.%d", label, i), g, true, then))
		}
	}
	return o
}

// progWorld is what the operations of a generated program act on.
type progWorld struct {
	xs [3]loc
	m  lock
	e  Event
}

// do performs o; with a log, it appends what o observed (a value read,
// whether a wait ended in time) to it.
func (w *progWorld) do(o progOp, log *[]int) {
	see := func(v int) {
		if log != nil {
			*log = append(*log, v)
		}
	}
	switch o.kind {
	case opLoad:
		see(w.xs[o.v].Load())
	case opStore:
		w.xs[o.v].Store(1)
	case opAdd:
		see(w.xs[o.v].Add(1))
	case opLocked:
		w.m.Lock()
		for _, x := range o.inner {
			w.do(x, log)
		}
		w.m.Unlock()
	case opLoadThen:
		v := w.xs[o.v].Load()
		see(v)
		if v%2 == 0 {
			next := &w.xs[(o.v+1)%len(w.xs)]
			Touch(next.at(), true)
			next.v++
		}
	case opWait:
		w.e.Wait()
	case opSet:
		w.e.Set()
	case opTimeout:
		x := &w.xs[o.v]
		if BlockOnTimeout(x.at(), false, func() bool { return x.v%2 == 1 }, 10, "odd") {
			see(1)
		} else {
			see(0)
		}
	}
}

// program builds the body: goroutine 0 sets the event at its end if no
// op of its did (waiters must not deadlock), every goroutine runs its ops.
func program(gs [][]progOp) func() {
	return programEach(gs, func(_ int, w *progWorld, o progOp) { w.do(o, nil) }, nil)
}

// programEach is program with each op of goroutine i run by do(i, w, o),
// and end(w), if not nil, called once every goroutine has ended.
func programEach(gs [][]progOp, do func(i int, w *progWorld, o progOp), end func(w *progWorld)) func() {
	return func() {
		var w progWorld
		var ts []*Thread
		for i, ops := range gs {
			last := i == 0
			ts = append(ts, Go(fmt.Sprint("g", i), func() {
				for _, o := range ops {
					do(i, &w, o)
				}
				if last {
					w.e.Set()
				}
			}))
		}
		for _, t := range ts {
			t.Join()
		}
		if end != nil {
			end(&w)
		}
	}
}

// genProgram draws two or three goroutines of one to three operations.
func genProgram(t *rapid.T) [][]progOp { return genProgramOf(t, false) }

// genProgramOf is genProgram, with opLoadThen among the operations if
// then is set. The tests that count schedules per class draw none: the
// location such a step touches after its operation is named by no step
// before the decision, in the programs, so a goroutine asleep with that
// step is taken to conflict with every step, and the search may run a
// class twice (never miss one).
func genProgramOf(t *rapid.T, then bool) [][]progOp {
	n := rapid.IntRange(2, 3).Draw(t, "goroutines")
	gs := make([][]progOp, n)
	for g := range gs {
		k := rapid.IntRange(1, 3).Draw(t, fmt.Sprint("ops", g))
		for i := range k {
			gs[g] = append(gs[g], genOp(t, fmt.Sprintf("g%d.%d", g, i), g, false, then))
		}
	}
	return gs
}

// compareOnProgram checks that the reduced search under opt reaches every
// trace the plain search reaches under popt; programs too big for the
// plain search are skipped.
func compareOnProgram(t *rapid.T, gs [][]progOp, what string, popt, ropt Options) {
	compareOnBody(t, program(gs), gs, what, popt, ropt)
}

// compareOnBody is compareOnProgram for a body, which prog names.
func compareOnBody(t *rapid.T, body func(), prog any, what string, popt, ropt Options) (want, got map[string]int, rres Result) {
	want, pres := classesOf(t, popt, body)
	if !pres.Exhaustive {
		return nil, nil, rres
	}
	got, rres = classesOf(t, ropt, body)
	if !rres.Exhaustive {
		t.Fatalf("%v, %s: the reduced search did not end (%d schedules; plain %d)", prog, what, rres.Schedules, pres.Schedules)
	}
	for _, k := range sortedKeys(want) {
		if got[k] == 0 {
			t.Fatalf("%v, %s: the reduced search missed trace %s (plain: %d schedules, %d traces; reduced: %d, %d)",
				prog, what, k, pres.Schedules, len(want), rres.Schedules, len(got))
		}
	}
	return want, got, rres
}

// Without a bound: every trace of every interleaving, on programs that
// may draw opLoadThen ([[loadthen(2) load(0)] [store(2)] [load(0)]]: a
// goroutine asleep at a decision let stand for a race's sequence, though
// run first it changes what the race's first step goes on to touch, and
// the search never ran the sequence: startsOrCommutes).
func TestReducedMissesNoTraceOfGeneratedPrograms(t *testing.T) {
	fewerProgramsUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		compareOnProgram(t, genProgramOf(t, true), "no bound",
			Options{Preemptions: 64, MaxSchedules: 3000},
			Options{Reduce: true, Unbounded: true, MaxSchedules: 6000})
	})
}

// With a bound: every trace the plain search reaches at bounds 0, 1 and
// 2. Each rule of the bounded reduced search about timeouts, waits and
// places over the bound was added for a program this test found; after
// the last it passed 3,000 programs, but nothing says the next program is
// not a few thousand further. It runs only when asked
// (WSCHED_EXPLORE_BOUNDED_PROPERTY=1), as the tool for finding it.
func TestReducedWithABoundMissesNoTraceOfGeneratedPrograms(t *testing.T) {
	if os.Getenv("WSCHED_EXPLORE_BOUNDED_PROPERTY") == "" {
		t.Skip("runs only when asked: WSCHED_EXPLORE_BOUNDED_PROPERTY=1 looks for a program the bounded reduced search gets wrong (docs/explore.md)")
	}
	var tally boundTally
	rapid.Check(t, func(t *rapid.T) {
		gs := genProgram(t)
		eachBound(func(what string, plain, reduced Options) {
			if want, _, res := compareOnBody(t, program(gs), gs, what, plain, reduced); len(want) > 0 {
				tally.add(len(want), res)
			}
		})
	})
	tally.report(t)
}

// boundTally adds up, per bound (0, 1, 2: eachBound's), the programs
// compared, their classes within the bound (the traces, or in the weak
// mode the classes, that the plain search reaches there), the reduced
// search's schedules at the bound (its last round) and over its rounds,
// and the most schedules at the bound a class of one program; report
// logs them under WSCHED_EXPLORE_POR_MEASURE (docs/explore.md, "Under a
// bound: schedules per class").
type boundTally [3]struct {
	programs, classes, last, all int
	worst                        float64
}

// add counts one program's search at res.Bound, which the search ended
// (compareOnBody and compareWeakOnProgram fail the test otherwise).
func (bt *boundTally) add(classes int, res Result) {
	x := &bt[res.Bound]
	x.programs, x.classes, x.last, x.all = x.programs+1, x.classes+classes, x.last+res.RoundSchedules, x.all+res.Schedules
	x.worst = max(x.worst, float64(res.RoundSchedules)/float64(classes))
}

func (bt *boundTally) report(t *testing.T) {
	if !measureOnly {
		return
	}
	for b, x := range bt {
		t.Logf("bound %d: %d programs, %d classes; the reduced search ran %d schedules at the bound (%.3f a class, at most %.2f), %d over its rounds",
			b, x.programs, x.classes, x.last, float64(x.last)/float64(max(x.classes, 1)), x.worst, x.all)
	}
}

// eachBound calls compare at bounds 0, 1 and 2 with the options of the
// plain search and of the reduced one.
func eachBound(compare func(what string, plain, reduced Options)) {
	for b := 0; b <= 2; b++ {
		pb := b
		if b == 0 {
			pb = -1 // Options says 0 is the default, 2
		}
		compare(fmt.Sprintf("bound %d", b),
			Options{Preemptions: pb, MaxSchedules: 20000},
			Options{Reduce: true, Preemptions: pb, MaxSchedules: 40000})
	}
}
