package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// The reduced search in the weak-memory mode against the plain one, on
// generated programs: two or three goroutines, each one to three loads,
// stores, adds and fences with drawn orderings on two shared integers. An
// outcome is what every load read and what each integer holds at the end.
// Both searches must reach the same outcomes: without a bound (the plain
// search over every interleaving), and at bounds 0, 1 and 2. The outcome,
// not the trace, is compared: in the weak mode a trace is also which store
// each load read, and the outcome is what a reader of the program cares
// about.

// wloc is an integer of the weak-memory mode: the real value is the latest
// store, the model decides what a load reads (weakmode.go).
type wloc struct{ v int }

func (x *wloc) at() uintptr { return uintptr(unsafe.Pointer(x)) }

func (x *wloc) load(o Ordering) int {
	PointAt(x.at(), false)
	return WeakLoad(x.at(), o, x.v).(int)
}

func (x *wloc) store(v int, o Ordering) {
	PointAt(x.at(), true)
	if WeakStore(x.at(), o, x.v, v) {
		x.v = v
	}
}

func (x *wloc) cas(old, new int, o Ordering) bool {
	PointAt(x.at(), true)
	swapped, last := WeakCompareAndSwap(x.at(), x.v, old, new, o, Relaxed)
	if swapped && last {
		x.v = new
	}
	return swapped
}

func (x *wloc) add(d int, o Ordering) int {
	PointAt(x.at(), true)
	old, last := WeakRMW(x.at(), o, x.v, func(v any) any { return v.(int) + d })
	if last {
		x.v = old.(int) + d
	}
	return old.(int)
}

// wlock is a mutex of the weak mode: Unlock releases and Lock acquires it
// in the memory model (as explore/sync's Mutex does), so what a goroutine
// wrote before it unlocked, the next to lock sees.
type wlock struct{ held bool }

func (m *wlock) Lock() {
	BlockOn(uintptr(unsafe.Pointer(m)), true, func() bool { return !m.held }, "lock")
	m.held = true
	WeakAcquire(uintptr(unsafe.Pointer(m)))
}

func (m *wlock) Unlock() {
	PointAt(uintptr(unsafe.Pointer(m)), true)
	WeakRelease(uintptr(unsafe.Pointer(m)))
	m.held = false
}

type weakOp struct {
	kind  int // wLoad, wStore, wAdd, wFence; wYield, wLocked, wWait, wSet
	x     int
	val   int // a store's value: distinct for every store of the program
	o     Ordering
	inner []weakOp // wLocked's operations, run under the lock
}

const (
	wLoad = iota
	wStore
	wAdd
	wFence
	wYield  // a Gosched (the model's Yield): symmetry_weak_test.go's members
	wLocked // lock; inner; unlock (wlock)
	wWait   // wait for the event
	wSet    // set the event (goroutine 0 only)
	wIf     // load; inner only if it read 0: what follows depends on the store read
	wCas    // compare-and-swap of 0 for val; inner only if it swapped
)

func (o weakOp) String() string {
	ord := [...]string{"rlx", "acq", "rel", "acqrel", "sc"}[o.o-Relaxed]
	switch o.kind {
	case wLoad:
		return fmt.Sprintf("load(x%d,%s)", o.x, ord)
	case wStore:
		return fmt.Sprintf("store(x%d=%d,%s)", o.x, o.val, ord)
	case wAdd:
		return fmt.Sprintf("add(x%d,%s)", o.x, ord)
	case wYield:
		return "yield"
	case wLocked:
		return "locked{" + o.innerString() + "}"
	case wWait:
		return "wait"
	case wSet:
		return "set"
	case wIf:
		return fmt.Sprintf("if0(x%d,%s){%s}", o.x, ord, o.innerString())
	case wCas:
		return fmt.Sprintf("cas(x%d,0->%d,%s){%s}", o.x, o.val, ord, o.innerString())
	}
	return fmt.Sprintf("fence(%s)", ord)
}

// innerString is the operations inside a locked, if0 or cas.
func (o weakOp) innerString() string {
	var in []string
	for _, x := range o.inner {
		in = append(in, x.String())
	}
	return strings.Join(in, " ")
}

// drawWeakOp draws an operation of kind kind: its integer and its
// ordering; a store's value is the next of *val, times 10.
func drawWeakOp(t *rapid.T, label string, kind int, val *int) weakOp {
	o := weakOp{kind: kind, x: rapid.IntRange(0, 1).Draw(t, label+"x")}
	switch o.kind {
	case wLoad:
		o.o = rapid.SampledFrom([]Ordering{Relaxed, Acquire, SeqCst}).Draw(t, label+"o")
	case wStore:
		*val++
		o.val = 10 * *val
		o.o = rapid.SampledFrom([]Ordering{Relaxed, Release, SeqCst}).Draw(t, label+"o")
	case wAdd:
		o.o = rapid.SampledFrom([]Ordering{Relaxed, Acquire, Release, AcqRel, SeqCst}).Draw(t, label+"o")
	case wFence:
		o.o = rapid.SampledFrom([]Ordering{Acquire, Release, AcqRel, SeqCst}).Draw(t, label+"o")
	}
	return o
}

func genWeakProgram(t *rapid.T) [][]weakOp {
	n := rapid.IntRange(2, 3).Draw(t, "goroutines")
	gs := make([][]weakOp, n)
	val := 0
	for g := range gs {
		k := rapid.IntRange(1, 3).Draw(t, fmt.Sprint("ops", g))
		for i := range k {
			label := fmt.Sprintf("g%d.%d", g, i)
			gs[g] = append(gs[g], drawWeakOp(t, label, rapid.IntRange(wLoad, wFence).Draw(t, label), &val))
		}
	}
	return gs
}

// weakOutcomes explores the program under opt and returns every outcome
// its runs reached, and every class (a trace with the choices of store
// its steps made, normalForm) with how many runs reached it.
func weakOutcomes(gs [][]weakOp, opt Options) (map[string]bool, map[string]int, Result) {
	seen := map[string]bool{}
	opt.Weak = true
	got, _, res := classes(opt, weakProgram(gs, seen))
	return seen, got, res
}

// weakProgram is the body that runs the program, and adds each run's
// outcome (what each load read, the final values) to seen.
func weakProgram(gs [][]weakOp, seen map[string]bool) func() {
	return weakProgramTo(gs, func(k string) { seen[k] = true })
}

// weakProgramTo is weakProgram, each run's outcome given to record. A
// program that waits for the event (wWait) has goroutine 0 set it at its
// end, so that no waiter is left for ever; one that does not gets no such
// step.
func weakProgramTo(gs [][]weakOp, record func(string)) func() {
	waits := slices.ContainsFunc(gs, func(ops []weakOp) bool {
		return slices.ContainsFunc(ops, func(o weakOp) bool { return o.kind == wWait })
	})
	return func() {
		var w weakWorld
		reads := make([][]int, len(gs))
		var ts []*Thread
		for g, ops := range gs {
			ts = append(ts, Go(fmt.Sprint("g", g), func() {
				for _, o := range ops {
					w.do(o, &reads[g])
				}
				if g == 0 && waits {
					w.e.Set()
				}
			}))
		}
		for _, t := range ts {
			t.Join()
		}
		record(fmt.Sprint(reads, " final ", w.xs[0].v, " ", w.xs[1].v))
	}
}

// weakWorld is what a generated program of the weak mode acts on: two
// integers, a lock and an event.
type weakWorld struct {
	xs [2]wloc
	m  wlock
	e  Event
}

// do performs o, appending what a load or an add read to reads.
func (w *weakWorld) do(o weakOp, reads *[]int) {
	switch o.kind {
	case wLoad:
		*reads = append(*reads, w.xs[o.x].load(o.o))
	case wStore:
		w.xs[o.x].store(o.val, o.o)
	case wAdd:
		*reads = append(*reads, w.xs[o.x].add(1, o.o))
	case wFence:
		WeakFence(o.o)
	case wYield:
		Gosched()
	case wLocked:
		w.m.Lock()
		w.doAll(o.inner, reads)
		w.m.Unlock()
	case wWait:
		w.e.Wait()
	case wSet:
		w.e.Set()
	case wCas:
		if w.xs[o.x].cas(0, o.val, o.o) {
			*reads = append(*reads, 1)
			w.doAll(o.inner, reads)
		} else {
			*reads = append(*reads, 0)
		}
	case wIf:
		v := w.xs[o.x].load(o.o)
		*reads = append(*reads, v)
		if v == 0 {
			w.doAll(o.inner, reads)
		}
	}
}

// doAll performs ops in order.
func (w *weakWorld) doAll(ops []weakOp, reads *[]int) {
	for _, o := range ops {
		w.do(o, reads)
	}
}

// setDiff returns, sorted, the keys of want not in got and those of got
// not in want.
func setDiff(want, got map[string]bool) (missed, extra []string) {
	for k := range want {
		if !got[k] {
			missed = append(missed, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missed)
	slices.Sort(extra)
	return missed, extra
}

// compared counts the programs both searches ran to their end, skipped
// those too big for the plain search: a run that skipped most would prove
// little, and says so.
var compared, skipped int

// weakTally adds up, over the unbounded comparisons, the classes brute
// force reached, the reduced search's schedules and the memory it held.
var weakTally weakCounts

type weakCounts struct {
	programs, classes, schedules, stopped, worst int
	outcomes                                     int // brute force's: what the loads read, the final values
	peakNodes, peakHeld                          int // the memory a search held at most (porStats)
}

func compareWeakOnProgram(t *rapid.T, gs [][]weakOp, what string, popt, ropt Options) (classes int, rres Result) {
	want, wantClasses, pres := weakOutcomes(gs, popt)
	if pres.Failure != nil {
		t.Fatalf("%v, %s: the plain search failed: %v", gs, what, pres.Failure.Message)
	}
	if !pres.Exhaustive {
		skipped++
		return 0, rres // too big for the plain search
	}
	compared++
	var st porStats
	onPorRound = func(s porStats) { st = s }
	got, gotClasses, rres := weakOutcomes(gs, ropt)
	onPorRound = nil
	classes = len(wantClasses)
	if rres.Failure != nil {
		t.Fatalf("%v, %s: the reduced search failed: %v", gs, what, rres.Failure.Message)
	}
	if !rres.Exhaustive {
		t.Fatalf("%v, %s: the reduced search did not end (%d schedules; plain %d)", gs, what, rres.Schedules, pres.Schedules)
	}
	if missed, extra := setDiff(want, got); len(missed) > 0 || len(extra) > 0 {
		t.Fatalf("%v, %s: plain %d schedules, %d outcomes; reduced %d schedules, %d outcomes\nmissed by the reduced search: %s\nreached only by the reduced search: %s",
			gs, what, pres.Schedules, len(want), rres.Schedules, len(got), strings.Join(missed, "; "), strings.Join(extra, "; "))
	}
	// The classes: every one brute force reached, the reduced search
	// reaches; without a bound, no other (with one, it may reach classes
	// whose schedules the bound cuts from brute force).
	for _, k := range sortedKeys(wantClasses) {
		if gotClasses[k] == 0 {
			t.Fatalf("%v, %s: the reduced search missed class %s (plain %d schedules, %d classes; reduced %d schedules, %d classes)",
				gs, what, k, pres.Schedules, len(wantClasses), rres.Schedules, len(gotClasses))
		}
	}
	if ropt.Unbounded {
		for _, k := range sortedKeys(gotClasses) {
			if wantClasses[k] == 0 {
				t.Fatalf("%v, %s: the reduced search ran a class brute force never saw: %s", gs, what, k)
			}
		}
		// One schedule per class, with waits (por_weak_wait_test.go)
		// or without; a run stopped asleep counts, as it costs a
		// schedule. Where what a goroutine does next depends on the
		// store its load read (wIf, wCas), the search starts runs that
		// stop asleep: a race whose later step follows a load that
		// read an older store asks for a goroutine, and the run that
		// goes there reads the latest (docs/explore.md, "What a
		// goroutine does next depends on the store it read"). There
		// each run that ends is a class of its own, and the stopped
		// ones are counted.
		runs := rres.Schedules
		if valueDependent(gs) {
			runs -= rres.Redundant
		}
		if runs != len(wantClasses) {
			t.Fatalf("%v, %s: %d reduced schedules for %d classes (%d stopped by the sleep set)",
				gs, what, rres.Schedules, len(wantClasses), rres.Redundant)
		}
		weakTally.programs++
		weakTally.classes += len(wantClasses)
		weakTally.schedules += rres.Schedules
		weakTally.stopped += rres.Redundant
		weakTally.outcomes += len(want)
		weakTally.worst = max(weakTally.worst, (100*rres.Schedules)/len(wantClasses))
		weakTally.peakNodes = max(weakTally.peakNodes, st.peakNodes)
		weakTally.peakHeld = max(weakTally.peakHeld, st.peakHeld)
	}
	return classes, rres
}

// Without a bound: every outcome of every interleaving and every choice
// of store.
func TestReducedWeakReachesEveryOutcomeOfGeneratedPrograms(t *testing.T) {
	compareWeakUnbounded(t, genWeakProgram, 5000)
}

// genWeakBranchProgram draws the shape of the program that missed a class
// (docs/explore.md, "A step's variants"): goroutine 0 branches on what it
// read (a load that runs one more operation only if it read 0, or a
// compare-and-swap that runs one only if it swapped, por_weak_wait_test.go)
// and then runs a seq_cst fence, which falls in the branch's step when the
// branch runs nothing (a fence is no scheduling point): what that step
// touches depends on the store its load read. Goroutine 1 has one or two
// operations, goroutine 2 one, of every kind, the branches too. No waits.
func genWeakBranchProgram(t *rapid.T) [][]weakOp {
	gs := make([][]weakOp, 3)
	val := 0
	gs[0] = []weakOp{
		drawWeakWaitOp(t, "g0.0", rapid.SampledFrom([]int{wIf, wCas}).Draw(t, "g0.0"), &val),
		{kind: wFence, o: SeqCst},
	}
	kinds := []int{wLoad, wStore, wAdd, wFence, wIf, wCas}
	for g := 1; g < 3; g++ {
		for i := range rapid.IntRange(1, 3-g).Draw(t, fmt.Sprint("ops", g)) {
			label := fmt.Sprintf("g%d.%d", g, i)
			gs[g] = append(gs[g], drawWeakWaitOp(t, label, rapid.SampledFrom(kinds).Draw(t, label), &val))
		}
	}
	return gs
}

// Without a bound, on programs whose step's accesses depend on the store
// its load read: every outcome and class brute force reaches, none
// other, and each run that ends a class of its own (compareWeakOnProgram).
// With a step asleep as one sleeper, not one per store read, it fails on
// its first programs (a class run twice, or missed).
func TestReducedWeakWithBranchesRunsEveryClassOnce(t *testing.T) {
	compareWeakUnbounded(t, genWeakBranchProgram, 50000)
}

// compareWeakUnbounded compares, on the programs gen draws, brute force
// (up to plainBudget schedules; a program past it is skipped) with the
// reduced search without a bound, and logs the classes and schedules.
func compareWeakUnbounded(t *testing.T, gen func(*rapid.T) [][]weakOp, plainBudget int) {
	fewerProgramsUnderRace(t)
	compared, skipped = 0, 0
	weakTally = weakCounts{}
	defer func() {
		w := weakTally
		t.Logf("classes: %d programs, %d outcomes, %d classes, %d reduced schedules (%.3f per class; worst %.2f), %d stopped by the sleep set; "+
			"at most %d decisions on the path (%d bytes each) and %d wakeup-tree nodes (%d bytes each) held",
			w.programs, w.outcomes, w.classes, w.schedules, float64(w.schedules)/float64(max(w.classes, 1)), float64(w.worst)/100, w.stopped,
			w.peakNodes, unsafe.Sizeof(porNode{}), w.peakHeld, unsafe.Sizeof(wuNode{}))
	}()
	rapid.Check(t, func(t *rapid.T) {
		compareWeakOnProgram(t, gen(t), "no bound",
			Options{Preemptions: 64, MaxSchedules: plainBudget},
			Options{Reduce: true, Unbounded: true, MaxSchedules: 2 * plainBudget})
	})
	reportCompared(t)
}

func reportCompared(t *testing.T) {
	t.Logf("%d comparisons run to their end, %d skipped (too big for the plain search)", compared, skipped)
	// About a quarter are skipped without a bound (none with one); half
	// of 50 or more is far out of reach of chance.
	if compared < skipped && compared+skipped >= 50 {
		t.Errorf("most programs were too big for the plain search: %d compared, %d skipped", compared, skipped)
	}
}

// With a bound: every outcome the plain search reaches at bounds 0, 1 and
// 2, and none other.
func TestReducedWeakWithABoundReachesEveryOutcomeOfGeneratedPrograms(t *testing.T) {
	compareWeakBounded(t, genWeakProgram)
}

// compareWeakBounded compares, on the programs gen draws, the plain and
// the reduced search at bounds 0, 1 and 2 (eachBound).
func compareWeakBounded(t *testing.T, gen func(*rapid.T) [][]weakOp) {
	fewerProgramsUnderRace(t)
	compared, skipped = 0, 0
	defer reportCompared(t)
	var tally boundTally
	rapid.Check(t, func(t *rapid.T) {
		gs := gen(t)
		eachBound(func(what string, plain, reduced Options) {
			if classes, res := compareWeakOnProgram(t, gs, what, plain, reduced); classes > 0 {
				tally.add(classes, res)
			}
		})
	})
	tally.report(t)
}
