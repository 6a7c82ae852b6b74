package weak

import "testing"

// SCOrder is a total order of every seq_cst event that keeps each
// thread's order and every psc edge: in store buffering with seq_cst
// accesses where one load reads the old value of x, that load comes
// before the store of x it did not see (fr), and the other thread's load
// after its store.
func TestSCOrderExtendsPSC(t *testing.T) {
	m := New(Config{MaxStale: 10})
	x, y := m.NewAtomic("x", 0), m.NewAtomic("y", 0)
	a, b := m.Go(0), m.Go(0)
	ev := func(t Thread) SCEvent { c := m.Clock(t); return SCEvent{t, c[t]} }
	m.Store(a, x, SeqCst, 1)
	sx := ev(a)
	m.Store(b, y, SeqCst, 1)
	sy := ev(b)
	cs := m.Candidates(b, x, SeqCst)
	if len(cs) != 2 {
		t.Fatalf("b's load of x may read %d stores, want 2 (the old 0 allowed so far)", len(cs))
	}
	if v := m.Load(b, x, SeqCst, 1); v != 0 {
		t.Fatalf("b read %v, want the old 0", v)
	}
	lx := ev(b)
	if cs := m.Candidates(a, y, SeqCst); len(cs) != 1 {
		t.Fatalf("a's load of y may read %d stores: SB+sc forbids the old 0", len(cs))
	}
	m.Load(a, y, SeqCst, 0)
	ly := ev(a)
	m.Fence(a, SeqCst)
	fa := ev(a)
	order := m.SCOrder()
	pos := map[SCEvent]int{}
	for i, e := range order {
		pos[e] = i
	}
	if len(order) != 5 || len(pos) != 5 {
		t.Fatalf("SCOrder %v: want the 5 seq_cst events once each", order)
	}
	for _, p := range [][2]SCEvent{{sx, ly}, {ly, fa}, {sy, lx}, {lx, sx}, {sy, ly}} {
		if pos[p[0]] >= pos[p[1]] {
			t.Errorf("SCOrder %v puts %v after %v", order, p[0], p[1])
		}
	}
}

// SCOrder and LastSC refuse an execution whose seq_cst order stopped at
// its last stale choice (Config.KeepSC unset), rather than answer from
// part of it; with KeepSC they answer.
func TestSCOrderNeedsTheWholeOrder(t *testing.T) {
	for _, keep := range []bool{false, true} {
		m := New(Config{MaxStale: 1, KeepSC: keep})
		x := m.NewAtomic("x", 0)
		a := m.Go(0)
		m.Store(a, x, SeqCst, 1)
		m.Store(a, x, SeqCst, 2)
		if cs := m.Candidates(0, x, SeqCst); len(cs) != 3 {
			t.Fatalf("main's load of x may read %d stores, want 3", len(cs))
		}
		m.Load(0, x, SeqCst, 2) // the initial 0: the one stale choice
		m.Load(0, x, SeqCst, 0) // an SC event after it
		func() {
			defer func() {
				if r := recover(); (r != nil) == keep {
					t.Errorf("KeepSC %v: SCOrder panicked: %v", keep, r)
				}
			}()
			if order := m.SCOrder(); len(order) != 4 {
				t.Errorf("KeepSC %v: SCOrder %v, want the 4 seq_cst events", keep, order)
			}
		}()
	}
}
