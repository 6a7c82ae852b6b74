package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

// The reduced search against brute force. On small programs the plain
// search with a bound no schedule reaches runs every interleaving; each
// run's Mazurkiewicz trace (the run up to reordering of adjacent steps
// that do not conflict) is named by its normal form. The reduced search
// must reach every trace, and without a bound run each one once.

// loc is a shared integer whose operations name their location, as
// explore/atomic's do under the explore tag.
type loc struct{ v int }

func (x *loc) at() uintptr { return uintptr(unsafe.Pointer(x)) }

func (x *loc) Load() int {
	PointAt(x.at(), false)
	return x.v
}

func (x *loc) Store(v int) {
	PointAt(x.at(), true)
	x.v = v
}

func (x *loc) Add(d int) int {
	PointAt(x.at(), true)
	x.v += d
	return x.v
}

type toy struct {
	name string
	body func()
}

func toys() []toy {
	spawn := func(fs ...func()) {
		var ts []*Thread
		for i, f := range fs {
			ts = append(ts, Go(fmt.Sprint("g", i), f))
		}
		for _, t := range ts {
			t.Join()
		}
	}
	return []toy{
		{"independent counters", func() {
			var x, y loc
			spawn(func() { x.Add(1); x.Add(1) }, func() { y.Add(1); y.Add(1) })
		}},
		{"counters sharing one", func() {
			var x, y, z loc
			spawn(func() { x.Add(1); y.Add(1) }, func() { y.Add(1); z.Add(1) })
		}},
		{"lost update", func() {
			var x loc
			inc := func() { x.Store(x.Load() + 1) }
			spawn(inc, inc)
		}},
		{"message passing", func() {
			var data, flag loc
			spawn(func() { data.Store(1); flag.Store(1) }, func() {
				if flag.Load() == 1 {
					Assert(data.Load() == 1, "stale data")
				}
			})
		}},
		{"three goroutines, two locations", func() {
			var x, y loc
			spawn(func() { x.Store(1); y.Load() },
				func() { y.Store(1); x.Load() },
				func() { x.Load(); y.Load() })
		}},
		{"readers and a writer", func() {
			var x loc
			spawn(func() { x.Load(); x.Load() }, func() { x.Load() }, func() { x.Store(1) })
		}},
		{"three increments", func() {
			var x, y loc
			inc := func() { x.Add(1); y.Load() }
			spawn(inc, inc, inc)
		}},
		{"a lock", func() {
			var m lock
			var x, y loc
			spawn(func() { m.Lock(); x.Add(1); m.Unlock(); y.Load() },
				func() { y.Store(1); m.Lock(); x.Add(1); m.Unlock() })
		}},
		{"an event", func() {
			var e Event
			var x, y loc
			spawn(func() { x.Store(1); e.Set(); y.Load() },
				func() { y.Store(1); e.Wait(); Assert(x.Load() == 1, "x") })
		}},
		{"a spin", func() {
			var flag, x loc
			spawn(func() { x.Store(1); flag.Store(1) },
				func() {
					for flag.Load() == 0 {
						Gosched()
					}
					x.Load()
				})
		}},
		{"a timeout", func() {
			var x loc
			spawn(func() { x.Store(1) },
				func() {
					BlockTimeout(func() bool { return x.v == 1 }, 10, "x set")
					x.Load()
				})
		}},
		// A wait whose condition holds keeps its place in the deadline
		// order: the later timeout fires only after it goes, before or
		// after the Now between the adds.
		{"a ready sleeper ahead of a timeout", func() {
			var x, y, z loc
			odd := func(v *loc) func() bool { return func() bool { return v.v%2 == 1 } }
			spawn(func() { BlockOnTimeout(x.at(), false, odd(&x), 10, "x odd") },
				func() { BlockOnTimeout(y.at(), false, odd(&y), 20, "y odd") },
				func() { x.Add(1); z.Add(1); Now(); z.Add(1) })
		}},
		// A race asks for a branch that goes down one asked for
		// earlier, past steps of g1 on it; there g1's next step
		// commutes with the rest of the new branch. Unless insert
		// knows that step (the branch's node keeps it), the new branch
		// goes after it, and its run ends with g1 asleep at it while
		// every other goroutine is done: a class run twice (the
		// stopped runs of ring/two-thieves and deque/two-thieves).
		{"a branch past a goroutine's steps", func() {
			var x, y loc
			spawn(func() { x.Load() },
				func() { y.Store(1); y.Load(); x.Load() },
				func() { x.Store(1); y.Load() })
		}},
		// A store that makes g0's wait hold, ahead of a timeout
		// armed by g2: at the first decision g1's store sleeps (its
		// subtree ran first) and commutes with g2's arming, but the
		// race to reverse is of that arming with g0's timeout firing,
		// which the store would turn into a wait passing in time,
		// without the clock. Wakeup trees that let the store stand
		// for g2 first never ran g2 arming before the firing (found
		// by TestReducedMissesNoTraceOfLatchPrograms).
		{"a store that stops a timeout firing", func() {
			var x, y loc
			var e Event
			odd := func() bool { return x.v%2 == 1 }
			ts := []*Thread{
				Go("g0", func() { BlockOnTimeout(x.at(), false, odd, 10, "x odd"); e.Set() }),
				Go("g1", func() { x.Store(1); e.Wait() }),
				Go("g2", func() { y.Load(); BlockOnTimeout(x.at(), false, odd, 10, "x odd") }),
			}
			JoinAll(ts...)
		}},
		// A timer that fires only once an earlier one is gone: g0's
		// and g1's timers have one deadline, and at a tie the lower
		// goroutine's comes first; g0's wait passes in time (x1 odd),
		// and only then can g1's timer fire; g1 then stores x1,
		// which g0's wait read. The race of that store with the wait
		// asked for g1 before the wait, through its firing, which
		// could not fire while g0's timer was armed: the run that
		// tried stopped with g0 asleep, a class run twice
		// ([[store(1) timeout(1)] [load(0) timeout(0) store(1)]], 6
		// runs for 5 classes). The pass now ends its timer (passLoc),
		// which the firing reads: the store happens after the wait.
		{"a wait that passes in time lets a later timer fire", func() {
			var x0, x1 loc
			odd := func(x *loc) func() bool { return func() bool { return x.v%2 == 1 } }
			spawn(func() { x1.Store(1); BlockOnTimeout(x1.at(), false, odd(&x1), 10, "x1 odd") },
				func() { x0.Load(); BlockOnTimeout(x0.at(), false, odd(&x0), 10, "x0 odd"); x1.Store(1) })
		}},
		// What a step touches after its operation depends on what
		// the operation read: g1's load, reading 0, goes on to touch
		// c, as g2's step does. At the first decision g0's store
		// sleeps (its subtree ran first) and commutes with g2's step,
		// but the race to reverse is of g2's step with g1's touch of
		// c, which the store, run first, takes away (g1 reads 1 and
		// touches nothing). Wakeup trees that let the store stand
		// for g2 first never ran g2 before g1 reading 0 (the deque
		// clients' thieves: a steal that finds the deque empty ends
		// its call, touching the clients' counter of call
		// boundaries).
		{"a store that changes what a load goes on to touch", func() {
			var x, y, c loc
			spawn(func() { x.Store(1) },
				func() {
					if x.Load() == 0 {
						Touch(c.at(), true)
					}
				},
				func() { y.Store(1); Touch(c.at(), true) })
		}},
		// A store to what a waiting goroutine (g1) waits on, at a
		// decision where that wait could already pass: the store does
		// not stop g1's timeout firing (it could not fire there), but
		// it counted as racing with the firing, which asked for the
		// earliest timeout (g0's) to fire there instead; that run then
		// found g1's and g2's steps asleep, commuting with the firing,
		// and stopped: 9 runs for 8 traces (found by
		// TestReducedMissesNoTraceOfLatchPrograms).
		{"a store to what a ready wait waits on", latchProgram{gs: [][]progOp{
			{{kind: opAdd, v: 1}, {kind: opTimeout, v: 0}, {kind: opTimeout, v: 0}},
			{{kind: opTimeout, v: 1}, {kind: opJoinPrev}},
			{{kind: opStore, v: 1}},
		}, joinAll: true}.body()},
		// g1 joins g0, whose end ran with no decision (g1 was
		// blocked in the Join, g0 alone could go); the Join and the
		// deadline g1 arms after it conflict with g0's arming, whose
		// race was reversed with the Join first, though the Join
		// passes only after g0's end (the latch rule, looking back
		// past that end, never met it): a run that stopped asleep, 2
		// runs for 1 trace (found by
		// TestReducedMissesNoTraceOfLatchPrograms).
		{"a Join of an end that had no decision", latchProgram{gs: [][]progOp{
			{{kind: opSet}, {kind: opTimeout, v: 1}},
			{{kind: opLoad, v: 2}, {kind: opJoinPrev}, {kind: opTimeout, v: 0}},
		}, joinAll: true}.body()},
		// g3's timeout fires first; the race of that firing with g2's
		// store is reversed at the first decision, where g1's step
		// sleeps: it arms a deadline, reading the clock the firing
		// writes, but leaves the firing as it is, and so stands for
		// the store. Counted as conflicting with the firing, it did
		// not, and the store's run found g1 asleep and alone: 6 runs
		// for 5 traces (found by TestReducedMissesNoTraceOfLatchPrograms).
		{"an arming that leaves a firing as it is", latchProgram{gs: [][]progOp{
			{{kind: opSet, v: 1}, {kind: opTimeout, v: 2}},
			{{kind: opStore, v: 2}, {kind: opJoinPrev}, {kind: opWait, v: 2}},
			{{kind: opTimeout, v: 2}},
		}, joinAll: true}.body()},
		// g2's load of x1 races with g1's store of it. In the run
		// where g1 takes the lock first, g2 loads between g1's lock
		// and its store, and g0 locks after g1's unlock, g0's lock
		// races with g1's lock (the unlock is no place to reverse
		// it: g0 waited there); the steps after g1's lock that do not
		// depend on it are g2's load, then g0's lock, and their
		// clocks put the lock after the load, through g1's store and
		// unlock, which the sequence leaves out. Taken so, g2 alone
		// started it, and g0, asleep there (it went first before),
		// stood for nothing: 5 runs for the 4 traces, one stopped
		// asleep (initials, firstWithin).
		{"an order through steps the race leaves out", func() {
			var x0, x1 loc
			var m lock
			spawn(func() { m.Lock(); x0.Load(); m.Unlock() },
				func() { m.Lock(); x1.Store(1); m.Unlock() },
				func() { x1.Load() })
		}},
		{"a goroutine's goroutine", func() {
			var x, y loc
			spawn(func() { y.Load(); Go("g2", func() { x.Store(2) }).Join() },
				func() { x.Store(1); y.Store(1) })
		}},
	}
}

// lock is a mutex as explore/sync's is under the explore tag.
type lock struct{ held bool }

func (m *lock) Lock() {
	BlockOn(uintptr(unsafe.Pointer(m)), true, func() bool { return !m.held }, "lock")
	m.held = true
}

func (m *lock) Unlock() {
	PointAt(uintptr(unsafe.Pointer(m)), true)
	m.held = false
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// classesOf is Classes for a test, which never asks for the weak mode:
// an error fails it.
func classesOf(t interface {
	Helper()
	Fatal(...any)
}, opt Options, body func()) (map[string]int, Result) {
	t.Helper()
	got, res, err := Classes(opt, body)
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

// Without a bound the reduced search reaches every trace that brute force
// finds, and runs each exactly once, none twice nor stopped asleep (the
// toys with waits too: por_wakeup.go).
func TestReducedRunsEveryTraceOnce(t *testing.T) {
	for _, ty := range toys() {
		all, pres := classesOf(t, Options{Preemptions: 64, MaxSchedules: 1 << 20}, ty.body)
		got, rres := classesOf(t, Options{Reduce: true, Unbounded: true, MaxSchedules: 1 << 20}, ty.body)
		if !pres.Exhaustive || !rres.Exhaustive {
			t.Fatalf("%s: not exhaustive: %+v %+v", ty.name, pres, rres)
		}
		for _, k := range sortedKeys(all) {
			if got[k] == 0 {
				t.Errorf("%s: the reduced search missed trace %s", ty.name, k)
			}
		}
		for _, k := range sortedKeys(got) {
			if all[k] == 0 {
				t.Errorf("%s: the reduced search ran a trace brute force never saw: %s", ty.name, k)
			}
			if got[k] > 1 {
				t.Errorf("%s: trace %s run %d times", ty.name, k, got[k])
			}
		}
		if rres.Schedules != len(all) {
			t.Errorf("%s: %d runs for %d traces (%d stopped by the sleep set)", ty.name, rres.Schedules, len(all), rres.Redundant)
		}
		t.Logf("%s: %d interleavings, %d traces; reduced: %d runs (%d stopped by the sleep set)",
			ty.name, pres.Schedules, len(all), rres.Schedules, rres.Redundant)
	}
}

// A goroutine asleep whose step touches a location besides its
// operation, what it touched depending on what the operation read (a
// loadthen: g0's load of x2, reading 0, writes x0), is taken to conflict
// with every step (sleeper): keeping the location instead, named, lets
// g0 sleep past g2's add of x1, and the search never ran g1 (whose load of
// x0, reading 0, writes x1) between that add and g0's step: the race of
// g2's store of x2 with g0's load of it asks for g0 there, g0 asleep
// stands for it, but that sequence, run, would also have shown g0's write
// of x0 racing with g1's load, and g1 going there. Every trace is reached
// (7 runs for the 5 traces); with the sleeper's location named, 4 runs
// reached 4 (trace BDCBBAADA missed), with or without a rule that a
// sleeper does not stand against a race's later step that reads otherwise
// (docs/explore.md, "One schedule per class").
func TestReducedMissesNoTraceOfASleeperThatTouches(t *testing.T) {
	body := program([][]progOp{
		{{kind: opLoad, v: 0}, {kind: opLoadThen, v: 2}},
		{{kind: opLoadThen, v: 0}},
		{{kind: opAdd, v: 1}, {kind: opStore, v: 2}},
	})
	all, pres := classesOf(t, Options{Preemptions: 64, MaxSchedules: 1 << 20}, body)
	got, rres := classesOf(t, Options{Reduce: true, Unbounded: true, MaxSchedules: 1 << 20}, body)
	if !pres.Exhaustive || !rres.Exhaustive {
		t.Fatalf("not exhaustive: %+v %+v", pres, rres)
	}
	for _, k := range sortedKeys(all) {
		if got[k] == 0 {
			t.Errorf("the reduced search missed trace %s (%d traces; reduced: %d runs, %d traces)", k, len(all), rres.Schedules, len(got))
		}
	}
	t.Logf("%d interleavings, %d traces; reduced: %d runs, %d traces (%d stopped by the sleep set)",
		pres.Schedules, len(all), rres.Schedules, len(got), rres.Redundant)
}

// With a bound, the reduced search reaches every trace that has a
// schedule within the bound (it may reach more: a class is run by its
// first schedule, and bounded rounds repeat the rounds before them).
func TestReducedWithABoundMissesNothing(t *testing.T) {
	for _, ty := range toys() {
		for b := 0; b <= 2; b++ {
			pb := b
			if b == 0 {
				pb = -1 // Options says 0 is the default, 2
			}
			want, pres := classesOf(t, Options{Preemptions: pb, MaxSchedules: 1 << 20}, ty.body)
			got, rres := classesOf(t, Options{Reduce: true, Preemptions: pb, MaxSchedules: 1 << 20}, ty.body)
			for _, k := range sortedKeys(want) {
				if got[k] == 0 {
					t.Errorf("%s, bound %d: the reduced search missed trace %s", ty.name, b, k)
				}
			}
			t.Logf("%s, bound %d: plain %d schedules, %d traces; reduced %d schedules, %d traces",
				ty.name, b, pres.Schedules, len(want), rres.Schedules, len(got))
		}
	}
}

// The reduced search's forecast of its last bound is nextRound of the
// bounds before it, each as its own search runs it; a search cut in its
// last bound reports what it ran there, beside the forecast.
func TestReducedForecastsItsLastBoundFromTheOnesBefore(t *testing.T) {
	forecasts := 0
	for _, ty := range toys() {
		var rounds []int
		total := 0
		for b := 0; b <= 3; b++ {
			pb := b
			if b == 0 {
				pb = -1 // Options says 0 is the default, 2
			}
			var log lines
			res := Explore(Options{Reduce: true, Preemptions: pb, MaxSchedules: 1 << 20, Log: &log}, ty.body)
			if !res.Exhaustive {
				t.Fatalf("%s, bound %d: not exhaustive", ty.name, b)
			}
			if want := nextRound(rounds); res.RoundForecast != want {
				t.Errorf("%s, bound %d: forecast %v, want %v from the bounds before it %v", ty.name, b, res.RoundForecast, want, rounds)
			}
			said := fmt.Sprintf("bound %d starts: about %d schedules there", b, TwoDigits(res.RoundForecast))
			if n := len(log); res.RoundForecast > 0 && (n != b-1 || !strings.HasPrefix(log[n-1], said)) || res.RoundForecast == 0 && n != 0 {
				t.Errorf("%s, bound %d (forecast %v): logged %q; want a line as each bound from 2 starts, the last %q, and nothing without a forecast", ty.name, b, res.RoundForecast, log, said)
			}
			if res.RoundSchedules != res.Schedules-total {
				t.Errorf("%s, bound %d: %d schedules at the last bound, want %d (%d in all, %d before it)", ty.name, b, res.RoundSchedules, res.Schedules-total, res.Schedules, total)
			}
			if res.RoundForecast > 0 {
				forecasts++
				if last := res.RoundSchedules - 1; last > 0 {
					cut := Explore(Options{Reduce: true, Preemptions: pb, MaxSchedules: res.Schedules - 1}, ty.body)
					if cut.Exhaustive || cut.RoundSchedules != last || cut.RoundForecast != res.RoundForecast {
						t.Errorf("%s, bound %d, cut a schedule short: exhaustive %v, %d at the last bound (want %d), forecast %v (want %v)",
							ty.name, b, cut.Exhaustive, cut.RoundSchedules, last, cut.RoundForecast, res.RoundForecast)
					}
				}
			}
			rounds = append(rounds, res.RoundSchedules)
			total = res.Schedules
		}
	}
	if forecasts == 0 {
		t.Fatal("no toy has two bounds of schedules before its last: nothing forecast")
	}
	if nextRound([]int{84, 9802}) < 500_000 || nextRound([]int{84, 9802}) > 600_000 {
		t.Errorf("nextRound(84, 9802) = %v, want about 572,000", nextRound([]int{84, 9802}))
	}
}

// TestReducedForecastsBoundOneAsARange checks bound 1's forecast on the
// toys: the range boundOneRange makes of bound 0's schedules and of the
// preemptions past the bound its decisions offered and its races asked
// for (counted here by a search of bound 0 alone), the forecast their
// geometric mean, said as bound 1 starts; bound 2's stays nextRound's.
func TestReducedForecastsBoundOneAsARange(t *testing.T) {
	ranged, none := 0, 0
	for _, ty := range toys() {
		plain := ForecastSearch(Options{Preemptions: 1, EstimateProbes: 1000}, ty.body)
		if len(plain.PerRound) != 2 || plain.PerRound[0] <= 0 {
			t.Fatalf("%s: plain forecast by round %v, want two rounds", ty.name, plain.PerRound)
		}
		zero := Explore(Options{Reduce: true, Preemptions: -1, MaxSchedules: 1 << 20}, ty.body)
		r0, asked, beyond := zero.RoundSchedules, zero.BeyondAsked, zero.Beyond
		if asked < 0 || asked > beyond {
			t.Errorf("%s: bound 0's races asked for %d of %d preemptions", ty.name, asked, beyond)
		}
		if ty.name == "independent counters" && (asked != 0 || beyond == 0) {
			t.Errorf("%s: no race, yet asked for %d of %d preemptions", ty.name, asked, beyond)
		}
		if asked == 0 {
			none++
		}
		var log lines
		res := ExploreScaled(Options{Reduce: true, Preemptions: 1, MaxSchedules: 1 << 20, Log: &log}, plain.PerRound, ty.body)
		p0, p1 := plain.PerRound[0], plain.PerRound[1]
		lo := float64(r0) + float64(asked)/float64(max(beyond, 1))*max(p1-p0, 0)*float64(r0)/p0
		hi := max(p1, lo)
		// Within 1e-9 of each: the search adds up the same terms in
		// another order (the toy "an order through steps the race
		// leaves out": 9.660231660231661 against 9.66023166023166).
		near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(math.Abs(y), 1) }
		if want := math.Sqrt(lo * hi); !res.Exhaustive || !near(res.RoundForecast, want) || !near(res.RoundRange[0], lo) || !near(res.RoundRange[1], hi) {
			t.Errorf("%s: bound 1 forecast %v in %v (exhaustive %v), want %v in [%v %v]: bound 0's %d, %d of %d preemptions asked for, plain rounds %v",
				ty.name, res.RoundForecast, res.RoundRange, res.Exhaustive, want, lo, hi, r0, asked, beyond, plain.PerRound)
			continue
		}
		said := fmt.Sprintf("bound 1 starts: about %d schedules there, forecast from the bounds before it (%d) and the plain search's rounds 0 to 1", TwoDigits(math.Sqrt(lo*hi)), r0)
		between := fmt.Sprintf("between about %d and %d: bound 0's races asked for %d of the %d preemptions", TwoDigits(lo), TwoDigits(hi), asked, beyond)
		if len(log) != 1 || !strings.HasPrefix(log[0], said) || !strings.Contains(log[0], between) {
			t.Errorf("%s: logged %q, want one line, %q... %q", ty.name, log, said, between)
		}
		ranged++
		plain2 := ForecastSearch(Options{Preemptions: 2, EstimateProbes: 1000}, ty.body)
		log = nil
		res2 := ExploreScaled(Options{Reduce: true, Preemptions: 2, MaxSchedules: 1 << 20, Log: &log}, plain2.PerRound, ty.body)
		rounds := []int{zero.RoundSchedules, res.RoundSchedules}
		if res2.RoundForecast != nextRound(rounds) || res2.RoundRange != [2]float64{} {
			t.Errorf("%s: bound 2 forecast %v (range %v), want nextRound's %v and no range", ty.name, res2.RoundForecast, res2.RoundRange, nextRound(rounds))
		}
		if nextRound(rounds) > 0 && (len(log) != 2 || strings.Contains(log[1], "plain")) {
			t.Errorf("%s: logged %q; want bound 2's line to give nextRound's forecast alone", ty.name, log)
		}
	}
	if ranged == 0 || none == len(toys()) {
		t.Fatalf("%d toy forecasts, %d toys with no preemption asked for", ranged, none)
	}
	lo, hi := boundOneRange(84, 964, 2633, []float64{84, 20_000})
	if math.Abs(lo-(84+964.0/2633*19_916)) > 1e-6 || hi != 20_000 {
		t.Errorf("boundOneRange(84; 964 of 2633; 84, 20,000) = %v, %v, want about 7,376 and 20,000", lo, hi)
	}
	if lo, hi := boundOneRange(10, 0, 0, []float64{10, 5}); lo != 10 || hi != 10 {
		t.Errorf("boundOneRange with no preemption offered and a plain round 1 below round 0 = %v, %v, want bound 0's 10 for both", lo, hi)
	}
	for _, c := range []struct {
		r0    int
		plain []float64
	}{{0, []float64{1, 3}}, {5, nil}, {5, []float64{0, 3}}, {5, []float64{2}}} {
		if lo, hi := boundOneRange(c.r0, 1, 2, c.plain); lo != 0 || hi != 0 {
			t.Errorf("boundOneRange(%d; %v) = %v, %v: a range with no bound 0 or no plain forecast of both rounds", c.r0, c.plain, lo, hi)
		}
	}
}

// lines is a Logger that keeps what it is told.
type lines []string

func (l *lines) Logf(format string, args ...any) { *l = append(*l, fmt.Sprintf(format, args...)) }
