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

// SCOrder, LastSC and Known refuse an execution that stopped keeping
// what they read at its last stale choice (Config.Traced unset), rather
// than answer from part of it; with Traced they answer.
func TestAnUntracedExecutionRefusesWhatItStopped(t *testing.T) {
	for _, traced := range []bool{false, true} {
		m := New(Config{MaxStale: 1, Traced: traced})
		x := m.NewAtomic("x", 0)
		a := m.Go(0)
		m.Store(a, x, SeqCst, 1)
		m.Store(a, x, SeqCst, 2)
		if cs := m.Candidates(0, x, SeqCst); len(cs) != 3 {
			t.Fatalf("main's load of x may read %d stores, want 3", len(cs))
		}
		m.Load(0, x, SeqCst, 2) // the initial 0: the one stale choice
		m.Load(0, x, SeqCst, 0) // an SC event after it
		for what, ask := range map[string]func() bool{
			"SCOrder": func() bool { return len(m.SCOrder()) == 4 },
			"LastSC":  func() bool { _, ok := m.LastSC(0); return ok },
			"Known":   func() bool { c, ok := m.Known(0, x, SeqCst); return ok && c.Value == 2 },
		} {
			func() {
				defer func() {
					if r := recover(); (r != nil) == traced {
						t.Errorf("Traced %v: %s panicked: %v", traced, what, r)
					}
				}()
				if !ask() {
					t.Errorf("Traced %v: %s answered wrong", traced, what)
				}
			}()
		}
	}
}
