//go:build explore

package atomic_test

import (
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
)

// The weak-memory mode of the explorer, end to end through this package's
// operations: each program below is explored in the weak mode, and the
// explorer must find the outcome the orderings allow and never one they
// forbid. (explore/internal/weak's litmus suite checks the model itself against
// RC11; these check that the explorer and the operations drive it.)

// Each program is explored twice, by the plain search and by the reduced
// one (explore.Options.Reduce), which must agree: a weak outcome one finds
// the other finds, and both end.
func weak(t *testing.T, body func()) explore.Result {
	t.Helper()
	res := explore.Explore(explore.Options{Weak: true, Preemptions: 2}, body)
	red := explore.Explore(explore.Options{Weak: true, Preemptions: 2, Reduce: true}, body)
	if (res.Failure != nil) != (red.Failure != nil) || res.Exhaustive != red.Exhaustive {
		t.Fatalf("the reduced search disagrees with the plain one: plain found %v (exhaustive %v, %d schedules), reduced %v (exhaustive %v, %d schedules)",
			res.Failure != nil, res.Exhaustive, res.Schedules, red.Failure != nil, red.Exhaustive, red.Schedules)
	}
	t.Logf("plain %d schedules, reduced %d", res.Schedules, red.Schedules)
	return res
}

// mp is message passing: data, then a flag; the reader that sees the flag
// must see the data, unless the orderings let it not.
func mp(storeFlag func(*atomic.Uint32), loadFlag func(*atomic.Uint32) uint32, fence bool) func() {
	return func() {
		var data, flag atomic.Uint32
		w := explore.Go("writer", func() {
			data.StoreRelaxed(1)
			if fence {
				atomic.FenceRelease()
			}
			storeFlag(&flag)
		})
		if loadFlag(&flag) == 1 {
			if fence {
				atomic.FenceAcquire()
			}
			explore.Assert(data.LoadRelaxed() == 1, "saw the flag, not the data")
		}
		w.Join()
	}
}

func TestWeakMessagePassing(t *testing.T) {
	rel := func(f *atomic.Uint32) { f.StoreRelease(1) }
	rlx := func(f *atomic.Uint32) { f.StoreRelaxed(1) }
	acq := func(f *atomic.Uint32) uint32 { return f.LoadAcquire() }
	lrx := func(f *atomic.Uint32) uint32 { return f.LoadRelaxed() }
	for _, c := range []struct {
		name    string
		store   func(*atomic.Uint32)
		load    func(*atomic.Uint32) uint32
		fence   bool
		allowed bool // "saw the flag, not the data" is an outcome RC11 allows
	}{
		{"release-acquire", rel, acq, false, false},
		{"relaxed-acquire", rlx, acq, false, true},
		{"release-relaxed", rel, lrx, false, true},
		{"relaxed-relaxed", rlx, lrx, false, true},
		{"fence-fence", rlx, lrx, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := weak(t, mp(c.store, c.load, c.fence))
			if found := res.Failure != nil; found != c.allowed {
				t.Fatalf("weak outcome found: %v, RC11 allows it: %v\n%v", found, c.allowed, res.Failure)
			}
			if !c.allowed && !res.Exhaustive {
				t.Fatalf("not exhaustive: %d schedules", res.Schedules)
			}
			if f := res.Failure; f != nil && !strings.Contains(f.Trace, "reads the location's first value, not the latest: skips step") {
				t.Fatalf("the trace does not show the stale read:\n%s", f.Trace)
			}
			// Each step names the line of the code under test that did
			// it, never a frame of the engine or of this package.
			if f := res.Failure; f != nil && (!strings.Contains(f.Trace, "weak_explore_test.go:") || strings.Contains(f.Trace, "explore/internal/engine/") || strings.Contains(f.Trace, "explore/atomic/instrument.go")) {
				t.Fatalf("the trace's locations are not the test's lines:\n%s", f.Trace)
			}
		})
	}
}

// sb is store buffering, the Dekker pair of the idle protocol: each side
// stores its flag, then loads the other's; both reading 0 is the lost
// wakeup.
func sb(store func(*atomic.Uint32), fence bool, load func(*atomic.Uint32) uint32) func() {
	return func() {
		var x, y atomic.Uint32
		var r1 uint32
		w := explore.Go("other", func() {
			store(&y)
			if fence {
				atomic.FenceSeqCst()
			}
			r1 = load(&x)
		})
		store(&x)
		if fence {
			atomic.FenceSeqCst()
		}
		r0 := load(&y)
		w.Join()
		explore.Assert(r0 == 1 || r1 == 1, "both sides missed the other's store")
	}
}

func TestWeakStoreBuffering(t *testing.T) {
	sc := func(f *atomic.Uint32) { f.StoreSeqCst(1) }
	rel := func(f *atomic.Uint32) { f.StoreRelease(1) }
	rlx := func(f *atomic.Uint32) { f.StoreRelaxed(1) }
	lsc := func(f *atomic.Uint32) uint32 { return f.LoadSeqCst() }
	acq := func(f *atomic.Uint32) uint32 { return f.LoadAcquire() }
	lrx := func(f *atomic.Uint32) uint32 { return f.LoadRelaxed() }
	for _, c := range []struct {
		name    string
		store   func(*atomic.Uint32)
		fence   bool
		load    func(*atomic.Uint32) uint32
		allowed bool
	}{
		{"seq_cst", sc, false, lsc, false},
		{"release-acquire", rel, false, acq, true},
		{"relaxed-with-fences", rlx, true, lrx, false},
		{"release-acquire-with-fences", rel, true, acq, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := weak(t, sb(c.store, c.fence, c.load))
			if found := res.Failure != nil; found != c.allowed {
				t.Fatalf("weak outcome found: %v, RC11 allows it: %v\n%v", found, c.allowed, res.Failure)
			}
			if !c.allowed && !res.Exhaustive {
				t.Fatalf("not exhaustive: %d schedules", res.Schedules)
			}
		})
	}
}

// A plain cell published with a relaxed flag is a data race; with release
// and acquire it is not.
func TestWeakCellRace(t *testing.T) {
	for _, c := range []struct {
		name string
		rel  bool
	}{{"relaxed", false}, {"release-acquire", true}} {
		t.Run(c.name, func(t *testing.T) {
			res := weak(t, func() {
				var slot atomic.Cell[int]
				var flag atomic.Bool
				v := 7
				w := explore.Go("writer", func() {
					slot.Store(&v)
					if c.rel {
						flag.StoreRelease(true)
					} else {
						flag.StoreRelaxed(true)
					}
				})
				seen := false
				if c.rel {
					seen = flag.LoadAcquire()
				} else {
					seen = flag.LoadRelaxed()
				}
				if seen {
					explore.Assert(slot.Load() == &v, "published slot empty")
				}
				w.Join()
			})
			race := res.Failure != nil && strings.Contains(res.Failure.Message, "race")
			if race == c.rel || (res.Failure != nil && !race) {
				t.Fatalf("race found: %v, want %v\n%v", race, !c.rel, res.Failure)
			}
		})
	}
}

// Under sequential consistency (no Weak) the same relaxed message passing
// cannot fail: every load reads the latest store.
func TestSequentialModeReadsTheLatest(t *testing.T) {
	res := explore.Explore(explore.Options{Preemptions: 2}, mp(func(f *atomic.Uint32) { f.StoreRelaxed(1) }, func(f *atomic.Uint32) uint32 { return f.LoadRelaxed() }, false))
	if res.Failure != nil || !res.Exhaustive {
		t.Fatalf("%v", res.Failure)
	}
}

// 2+2W: two goroutines store to x and y in opposite orders; both first
// stores last in modification order (x=1 and y=1 at the end) needs each
// second store placed before the other goroutine's first, executed
// earlier: allowed with release stores, forbidden with seq_cst ones (psc
// would have a cycle). Memory holds the last store, which is what the
// check peeks.
func TestWeak2Plus2W(t *testing.T) {
	rel := func(a *atomic.Uint32, v uint32) { a.StoreRelease(v) }
	sc := func(a *atomic.Uint32, v uint32) { a.StoreSeqCst(v) }
	for _, c := range []struct {
		name    string
		store   func(*atomic.Uint32, uint32)
		allowed bool
	}{{"release", rel, true}, {"seq_cst", sc, false}} {
		t.Run(c.name, func(t *testing.T) {
			res := weak(t, func() {
				var x, y atomic.Uint32
				w := explore.Go("other", func() {
					c.store(&y, 1)
					c.store(&x, 2)
				})
				c.store(&x, 1)
				c.store(&y, 2)
				w.Join()
				explore.Assert(x.Peek() != 1 || y.Peek() != 1, "both first stores last in modification order")
			})
			if found := res.Failure != nil; found != c.allowed {
				t.Fatalf("x=1 y=1 found: %v, RC11 allows it: %v\n%v", found, c.allowed, res.Failure)
			}
			if !c.allowed && !res.Exhaustive {
				t.Fatalf("not exhaustive: %d schedules", res.Schedules)
			}
		})
	}
}

// Store buffering whose loads are relaxed read-modify-writes: each Add
// reads 0 when its store goes before the other goroutine's, executed
// earlier, in modification order. RC11 allows it. Memory holds the last
// store in modification order: the plain store's 1 when the Add went
// before it, else the Add's 11.
func TestWeakStoreBufferingRMW(t *testing.T) {
	res := weak(t, func() {
		var x, y atomic.Uint32
		var r1 uint32
		w := explore.Go("other", func() {
			y.StoreRelaxed(1)
			r1 = x.AddRelaxed(10) - 10
		})
		x.StoreRelaxed(1)
		r0 := y.AddRelaxed(10) - 10
		w.Join()
		explore.Assert((x.Peek() == 11) == (r1 == 1) && (y.Peek() == 11) == (r0 == 1), "memory does not hold the last store: x=%d y=%d, the Adds read %d and %d", x.Peek(), y.Peek(), r1, r0)
		explore.Assert(r0 == 1 || r1 == 1, "both read-modify-writes read the initial value")
	})
	if res.Failure == nil || !strings.Contains(res.Failure.Error(), "both read-modify-writes") {
		t.Fatalf("the outcome RC11 allows was not found (%d schedules): %v", res.Schedules, res.Failure)
	}
}
