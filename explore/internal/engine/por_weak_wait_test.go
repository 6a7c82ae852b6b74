package engine

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Waits in the weak-memory mode: the reduced search against brute force
// on generated programs of the weak mode's atomics (por_weak_test.go's)
// that also take a lock around one or two of them and wait for an event
// that goroutine 0 sets. The lock and the event order memory as a real
// program's do (Unlock and Set release, Lock and Wait acquire), so a
// store before a Set is the only one a load after the Wait may read
// when nothing else wrote since: the waits cut stale reads as well as
// interleavings. The programs without waits are those of
// TestReducedWeakReachesEveryOutcomeOfGeneratedPrograms; these ask what
// the search does at a wait, where it may have to run a goroutine asleep
// or blocked (the latch rule, the blocked goroutine's wake) in a memory
// whose reads depend on the order.

// genWeakWaitProgram draws two goroutines of one to three operations, or
// three of one or two: loads, stores, adds and fences; a lock around one
// or two loads, stores or adds; a load or a compare-and-swap that runs a
// load, store or add only if it read 0 or swapped (what a goroutine does
// next depends on the store it read, as in a steal that finds a task);
// goroutine 0 may set the event, the others may wait for it. At least one
// goroutine waits or locks.
func genWeakWaitProgram(t *rapid.T) [][]weakOp {
	n := rapid.IntRange(2, 3).Draw(t, "goroutines")
	gs := make([][]weakOp, n)
	val := 0
	most := 5 - n // three goroutines of up to three steps are mostly too many for brute force
	for g := range gs {
		kinds := []int{wLoad, wStore, wAdd, wFence, wLocked, wLocked, wIf, wCas, wCas}
		if g == 0 {
			kinds = append(kinds, wSet)
		} else {
			kinds = append(kinds, wWait, wWait)
		}
		for i := range rapid.IntRange(1, most).Draw(t, fmt.Sprint("ops", g)) {
			label := fmt.Sprintf("g%d.%d", g, i)
			gs[g] = append(gs[g], drawWeakWaitOp(t, label, rapid.SampledFrom(kinds).Draw(t, label), &val))
		}
	}
	if !weakWaits(gs) {
		// Every program of this test waits: put a wait first in the
		// last goroutine (one with no waits is the other test's).
		gs[n-1] = append([]weakOp{{kind: wWait}}, gs[n-1]...)
	}
	return gs
}

// drawWeakWaitOp is drawWeakOp with the kinds of the waits and the
// branches: a locked, if0 or cas op draws its inner operations, the
// event's need nothing more.
func drawWeakWaitOp(t *rapid.T, label string, kind int, val *int) weakOp {
	switch kind {
	case wWait, wSet:
		return weakOp{kind: kind}
	case wIf, wCas:
		// A load's orderings for if0, a read-modify-write's for cas
		// (whose value is the next store's); one operation inside.
		base := wLoad
		if kind == wCas {
			base = wAdd
		}
		o := drawWeakOp(t, label, base, val)
		o.kind = kind
		if kind == wCas {
			*val++
			o.val = 10 * *val
		}
		l := label + ".0"
		o.inner = []weakOp{drawWeakOp(t, l, rapid.IntRange(wLoad, wAdd).Draw(t, l), val)}
		return o
	case wLocked:
		o := weakOp{kind: wLocked}
		for i := range rapid.IntRange(1, 2).Draw(t, label+"n") {
			l := fmt.Sprintf("%s.%d", label, i)
			o.inner = append(o.inner, drawWeakOp(t, l, rapid.IntRange(wLoad, wAdd).Draw(t, l), val))
		}
		return o
	}
	return drawWeakOp(t, label, kind, val)
}

// valueDependent reports whether a goroutine of gs goes on otherwise
// after a load by what it read (wIf, wCas).
func valueDependent(gs [][]weakOp) bool {
	return slices.ContainsFunc(gs, func(ops []weakOp) bool {
		return slices.ContainsFunc(ops, func(o weakOp) bool { return o.kind == wIf || o.kind == wCas })
	})
}

// weakWaits reports whether a goroutine of gs locks or waits.
func weakWaits(gs [][]weakOp) bool {
	return slices.ContainsFunc(gs, func(ops []weakOp) bool {
		return slices.ContainsFunc(ops, func(o weakOp) bool { return o.kind == wLocked || o.kind == wWait })
	})
}

// Without a bound: every outcome and every class brute force reaches,
// none other, and as many reduced schedules as classes.
func TestReducedWeakWithWaitsRunsEveryClassOnce(t *testing.T) {
	compareWeakUnbounded(t, genWeakWaitProgram, 20000)
}

// With a bound: every outcome and class the plain search reaches at
// bounds 0, 1 and 2.
func TestReducedWeakWithWaitsAndABoundReachesEveryClass(t *testing.T) {
	compareWeakBounded(t, genWeakWaitProgram)
}

// Toys, each a program a generated-program test found, each failing on
// the search before its fix; each is run with the weak mode's search
// (source sets) and with wakeup trees (weakWakeupTrees). The first two,
// found by this file's test: [[load(x1) locked{load(x0)}]
// [locked{store(x1)}]]: g1's unlock races with g0's lock, which waited
// there; the source sets asked for g0 at the unlock (its load goes first),
// a class run twice, until the rule that reverses such a race with the
// lock before it (heldAt) held without a bound in the weak mode too: 6
// runs for 4 classes before. The second is the plain toy "an order through
// steps the race leaves out" (por_test.go) in the weak mode: 7 runs for 6
// classes before (initials).
//
// The third has no wait (found with three goroutines of up to three
// operations, more than the tests draw): g1's add of x0 commutes with
// every step, went first, and then slept while g2's load went first
// instead; with the others ended it was the one goroutine left, its step
// taken without a decision, and the run went on to its end, a class run
// twice (38 runs for 36 classes, none stopped). A forced step of a
// goroutine asleep now stops the run, as a decision where every goroutine
// that could go is asleep does. The wakeup trees never start such a run:
// they ask, at the race, whether a goroutine asleep there commutes with
// the whole reversing sequence; the source sets do not, and stop one.
// They stopped two until a stopped run's loads asked for no other store:
// each other choice there was run again through the stopped part, whose
// decisions a replay does not check against the sleep set (the second
// stopped run; on the weak linearizability clients, classes run twice).
//
// The fourth, found by the same scratch generator with wakeup trees:
// [[load(x1) set load(x0,acq)] [wait add(x0,acqrel) wait] [wait wait]],
// 19 runs, 2 of its 21 classes missed (BBCCB(1)DBACADA and
// BBCCB(1)DDBACAA: the load of x0 reading the store before the add, then
// g2 before g0's end). A branch ran through the load's decision of which
// store it reads; the rest of the branch went to the first choice's runs
// and was gone when the search came back for the second (a store's node
// keeps it now: porNode.wut).
//
// The fifth and sixth missed a class, both searches, found by a scratch
// generator of three goroutines of up to three operations: g0's
// compare-and-swap of x0 swaps and ends its step at the add, or fails and
// runs on into the seq_cst fence, which orders it against g2's seq_cst
// load. g0 slept as one step with what the last run of it touched (the
// swap's variant: no fence), g2's load did not wake it, and the class where
// g2's load comes before g0's failed swap and fence (CDBAAA) was never
// run: 11 of 12. A step sleeps one variant per store its load read now
// (sleeper.choice), and g0, partly asleep, reads only the store whose
// variant is awake. The seventh is the smallest of that shape
// TestReducedWeakWithBranchesRunsEveryClassOnce found with the fix taken
// out: 5 of its 6 classes before.
func TestReducedWeakRunsEachClassOfASmallProgramOnce(t *testing.T) {
	for _, p := range []struct {
		gs [][]weakOp
		// stopped: the runs the source sets (the weak mode's search)
		// stop asleep; treeStopped: those the wakeup trees
		// (weakWakeupTrees) stop.
		stopped, treeStopped int
	}{
		{gs: [][]weakOp{
			{{kind: wLoad, x: 1, o: Relaxed}, {kind: wLocked, inner: []weakOp{{kind: wLoad, x: 0, o: Relaxed}}}},
			{{kind: wLocked, inner: []weakOp{{kind: wStore, x: 1, val: 10, o: Relaxed}}}},
		}},
		{gs: [][]weakOp{
			{{kind: wLocked, inner: []weakOp{{kind: wLoad, x: 0, o: Relaxed}}}},
			{{kind: wLocked, inner: []weakOp{{kind: wStore, x: 1, val: 10, o: Relaxed}}}},
			{{kind: wLoad, x: 1, o: Relaxed}},
		}},
		{gs: [][]weakOp{
			{{kind: wStore, x: 1, val: 10, o: Relaxed}, {kind: wLoad, x: 1, o: Relaxed}, {kind: wFence, o: AcqRel}},
			{{kind: wAdd, x: 0, o: Relaxed}, {kind: wAdd, x: 1, o: Relaxed}},
			{{kind: wLoad, x: 1, o: Relaxed}},
		}, stopped: 1},
		{gs: [][]weakOp{
			{{kind: wLoad, x: 1, o: Relaxed}, {kind: wSet}, {kind: wLoad, x: 0, o: Acquire}},
			{{kind: wWait}, {kind: wAdd, x: 0, o: AcqRel}, {kind: wWait}},
			{{kind: wWait}, {kind: wWait}},
		}},
		{gs: [][]weakOp{
			{{kind: wCas, x: 0, val: 10, o: SeqCst, inner: []weakOp{{kind: wAdd, x: 0, o: Relaxed}}}, {kind: wFence, o: SeqCst}},
			{{kind: wStore, x: 0, val: 20, o: Relaxed}},
			{{kind: wLoad, x: 1, o: SeqCst}},
		}, stopped: 1, treeStopped: 1},
		{gs: [][]weakOp{
			{{kind: wFence, o: SeqCst}, {kind: wCas, x: 0, val: 10, o: SeqCst, inner: []weakOp{{kind: wAdd, x: 0, o: Relaxed}}}, {kind: wFence, o: SeqCst}},
			{{kind: wStore, x: 0, val: 20, o: Relaxed}},
			{{kind: wLoad, x: 1, o: SeqCst}},
		}, stopped: 1, treeStopped: 1},
		{gs: [][]weakOp{
			{{kind: wIf, x: 1, o: SeqCst, inner: []weakOp{{kind: wLoad, x: 0, o: Relaxed}}}, {kind: wFence, o: SeqCst}},
			{{kind: wStore, x: 1, val: 10, o: Relaxed}},
			{{kind: wLoad, x: 0, o: SeqCst}},
		}, stopped: 1, treeStopped: 1},
	} {
		gs := p.gs
		_, all, pres := weakOutcomes(gs, Options{Preemptions: 64, MaxSchedules: 1 << 20})
		if !pres.Exhaustive {
			t.Fatalf("%v: brute force not exhaustive: %+v", gs, pres)
		}
		for _, trees := range []bool{false, true} {
			stopped, how := p.stopped, "source sets"
			if trees {
				stopped, how = p.treeStopped, "wakeup trees"
			}
			weakWakeupTrees = trees
			_, got, rres := weakOutcomes(gs, Options{Reduce: true, Unbounded: true, MaxSchedules: 1 << 20})
			weakWakeupTrees = false
			if !rres.Exhaustive {
				t.Fatalf("%v, %s: not exhaustive: %+v", gs, how, rres)
			}
			for _, k := range sortedKeys(all) {
				if got[k] == 0 {
					t.Errorf("%v, %s: the reduced search missed class %s", gs, how, k)
				}
			}
			for _, k := range sortedKeys(got) {
				if all[k] == 0 || got[k] > 1 {
					t.Errorf("%v, %s: class %s run to its end %d times (brute force: %d)", gs, how, k, got[k], all[k])
				}
			}
			if rres.Schedules != len(all)+stopped || rres.Redundant != stopped {
				t.Errorf("%v, %s: %d runs for %d classes (%d stopped by the sleep set), want %d stopped",
					gs, how, rres.Schedules, len(all), rres.Redundant, stopped)
			}
			t.Logf("%v: %d schedules, %d classes; reduced, %s: %d runs (%d stopped by the sleep set)",
				gs, pres.Schedules, len(all), how, rres.Schedules, rres.Redundant)
		}
	}
}
