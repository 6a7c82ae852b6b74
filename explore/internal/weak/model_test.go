package weak

import (
	"errors"
	"strings"
	"testing"
)

// Unit tests of the model's API, beyond what the litmus outcomes show.

func values(cs []Candidate) []Value {
	var out []Value
	for _, c := range cs {
		out = append(out, c.Value)
	}
	return out
}

func TestCandidatesNewestFirst(t *testing.T) {
	m := New(Config{MaxStale: 10})
	x := m.NewAtomic("x", 0)
	w, r := m.Go(0), m.Go(0)
	m.Store(w, x, Relaxed, 1)
	m.Store(w, x, Relaxed, 2)
	cs := m.Candidates(r, x, Relaxed)
	if got := values(cs); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 0 {
		t.Fatalf("candidates %v, want [2 1 0]", got)
	}
	if cs[0].Age != 0 || cs[2].Age != 2 || cs[2].Writer != -1 || cs[0].Writer != w {
		t.Fatalf("candidate ages/writers wrong: %+v", cs)
	}
	if cs[0].Seq <= cs[1].Seq || cs[2].Seq != 0 {
		t.Fatalf("candidate Seq not increasing with the store's operation: %+v", cs)
	}
	// The writer itself cannot read older than its own store.
	if got := values(m.Candidates(w, x, Relaxed)); len(got) != 1 || got[0] != 2 {
		t.Fatalf("writer's candidates %v, want [2]", got)
	}
}

func TestHistoryBound(t *testing.T) {
	m := New(Config{History: 3, MaxStale: 10})
	x := m.NewAtomic("x", 0)
	w, r := m.Go(0), m.Go(0)
	for i := 1; i <= 10; i++ {
		m.Store(w, x, Relaxed, i)
	}
	if got := values(m.Candidates(r, x, Relaxed)); len(got) != 3 || got[0] != 10 || got[2] != 8 {
		t.Fatalf("candidates %v, want the 3 newest [10 9 8]", got)
	}
	if m.Latest(x) != 10 {
		t.Fatalf("Latest = %v, want 10", m.Latest(x))
	}
}

func TestStaleBound(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want int
	}{{Config{}, 2}, {Config{MaxStale: 1}, 1}, {Config{MaxStale: -1}, 0}} {
		m := New(tc.cfg)
		x := m.NewAtomic("x", 0)
		w := m.Go(0)
		m.Store(w, x, Relaxed, 1)
		reads := 0
		for {
			r := m.Go(0) // a fresh thread may read the initial value
			cs := m.Candidates(r, x, Relaxed)
			if len(cs) == 1 {
				break
			}
			if v := m.Load(r, x, Relaxed, 1); v != 0 {
				t.Fatalf("stale read returned %v, want 0", v)
			}
			reads++
		}
		if reads != tc.want || m.StaleReads() != tc.want {
			t.Errorf("%+v: %d stale reads offered (StaleReads %d), want %d", tc.cfg, reads, m.StaleReads(), tc.want)
		}
	}
}

// A store is certainly seen after the reader's second yield since it was
// made, not at the first: one yield between two steps of a protocol does
// not hide a stale read C11 allows.
func TestYieldSeesLatestOneYieldLate(t *testing.T) {
	m := New(Config{MaxStale: 10})
	x := m.NewAtomic("x", 0)
	y := m.NewAtomic("y", 0)
	w, r := m.Go(0), m.Go(0)
	m.Store(w, x, Relaxed, 1)
	m.Store(w, y, Relaxed, 1)
	if n := len(m.Candidates(r, x, Relaxed)); n != 2 {
		t.Fatalf("before Yield: %d candidates, want 2", n)
	}
	m.Yield(r)
	for _, l := range []Loc{x, y} {
		if got := values(m.Candidates(r, l, Relaxed)); len(got) != 2 {
			t.Fatalf("after one Yield: candidates of %s %v, want [1 0]", m.Name(l), got)
		}
	}
	// A store after the first yield may be missed after the second.
	m.Store(w, x, Relaxed, 2)
	m.Yield(r)
	for _, l := range []Loc{x, y} {
		if got := values(m.Candidates(r, l, Relaxed)); got[len(got)-1] != 1 {
			t.Fatalf("after two Yields: candidates of %s %v, want none older than 1", m.Name(l), got)
		}
	}
	if got := values(m.Candidates(r, x, Relaxed)); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Fatalf("a store between the Yields: candidates %v, want [2 1]", got)
	}
	m.Yield(r)
	if got := values(m.Candidates(r, x, Relaxed)); len(got) != 1 || got[0] != 2 {
		t.Fatalf("after three Yields: candidates %v, want [2]", got)
	}
	// Yield creates no happens-before.
	c := m.NewCell("d")
	if err := m.Write(w, c, "w"); err != nil {
		t.Fatal(err)
	}
	m.Yield(r)
	m.Yield(r)
	if err := m.Read(r, c, "r"); err == nil {
		t.Fatal("Yield ordered a plain write before a read")
	}
}

func TestCASCandidatesSkipExpected(t *testing.T) {
	m := New(Config{MaxStale: 10})
	x := m.NewAtomic("x", 0)
	w, r := m.Go(0), m.Go(0)
	m.Store(w, x, Relaxed, 1)
	m.Store(w, x, Relaxed, 2)
	// Expecting 1: the latest (2) fails; 0 is a stale failure; 1 is not
	// offered (reading it, the CAS could not fail).
	if got := values(m.CASCandidates(r, x, 1, Relaxed)); len(got) != 2 || got[0] != 2 || got[1] != 0 {
		t.Fatalf("CASCandidates %v, want [2 0]", got)
	}
	old, ok := m.CompareAndSwap(r, x, 1, 9, AcqRel, Relaxed, 1)
	if ok || old != 0 || m.StaleReads() != 1 {
		t.Fatalf("stale failed CAS = %v, %v (stale reads %d), want 0, false, 1", old, ok, m.StaleReads())
	}
	old, ok = m.CompareAndSwap(r, x, 2, 9, AcqRel, Relaxed, 0)
	if !ok || old != 2 || m.Latest(x) != 9 {
		t.Fatalf("CAS on the latest = %v, %v, latest %v; want 2, true, 9", old, ok, m.Latest(x))
	}
}

func TestRMWReadsLatest(t *testing.T) {
	m := New(Config{})
	x := m.NewAtomic("x", int64(0))
	a, b := m.Go(0), m.Go(0)
	m.RMW(a, x, Relaxed, func(v Value) Value { return v.(int64) + 5 })
	if old := m.RMW(b, x, Relaxed, func(v Value) Value { return v.(int64) + 1 }); old != int64(5) {
		t.Fatalf("RMW read %v, want 5 (the latest)", old)
	}
	if m.Latest(x) != int64(6) {
		t.Fatalf("Latest %v, want 6", m.Latest(x))
	}
}

func TestRaceReportsBothSites(t *testing.T) {
	m := New(Config{})
	c := m.NewCell("slot")
	a, b := m.Go(0), m.Go(0)
	if err := m.Write(a, c, "ring.go:10"); err != nil {
		t.Fatal(err)
	}
	err := m.Read(b, c, "ring.go:20")
	var r *Race
	if !errors.As(err, &r) {
		t.Fatalf("Read = %v, want a *Race", err)
	}
	if r.Cell != "slot" || r.First.Site != "ring.go:10" || !r.First.Write || r.First.Thread != a ||
		r.Second.Site != "ring.go:20" || r.Second.Write || r.Second.Thread != b {
		t.Fatalf("race %+v", r)
	}
	for _, s := range []string{"slot", "write by thread 1 at ring.go:10", "read by thread 2 at ring.go:20"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q lacks %q", err, s)
		}
	}
	// A write racing with an earlier read names the read.
	err = m.Write(a, c, "ring.go:30")
	if !errors.As(err, &r) || r.First.Site != "ring.go:20" || r.First.Write || r.Second.Site != "ring.go:30" {
		t.Fatalf("write after an unordered read: %v", err)
	}
}

func TestGoAndJoinOrder(t *testing.T) {
	m := New(Config{})
	c := m.NewCell("d")
	if err := m.Write(0, c, "parent"); err != nil {
		t.Fatal(err)
	}
	child := m.Go(0)
	if err := m.Read(child, c, "child"); err != nil {
		t.Fatalf("a write before the go statement races with the goroutine: %v", err)
	}
	if err := m.Write(child, c, "child"); err != nil {
		t.Fatal(err)
	}
	if err := m.Read(0, c, "parent"); err == nil {
		t.Fatal("the parent's read before Join is ordered after the child's write")
	}
	m.Exit(child)
	m.Join(0, child)
	if err := m.Read(0, c, "parent"); err != nil {
		t.Fatalf("after Join: %v", err)
	}
}

func TestMutexOrders(t *testing.T) {
	m := New(Config{})
	c := m.NewCell("d")
	mu := m.NewSync()
	a, b := m.Go(0), m.Go(0)
	m.Acquire(a, mu)
	if err := m.Write(a, c, "a"); err != nil {
		t.Fatal(err)
	}
	m.Release(a, mu)
	m.Acquire(b, mu)
	if err := m.Write(b, c, "b"); err != nil {
		t.Fatalf("writes in two critical sections race: %v", err)
	}
	m.Release(b, mu)
	// Outside the lock, a's next write races with b's.
	if err := m.Write(a, c, "a again"); err == nil {
		t.Fatal("a write outside the lock is ordered after the other thread's")
	}
}

func TestSnapshotCarriesView(t *testing.T) {
	m := New(Config{MaxStale: 10})
	c := m.NewCell("d")
	x := m.NewAtomic("x", 0)
	a, b := m.Go(0), m.Go(0)
	if err := m.Write(a, c, "a"); err != nil {
		t.Fatal(err)
	}
	m.Store(a, x, Relaxed, 1)
	v := m.Snapshot(a) // a channel send
	m.Store(a, x, Relaxed, 2)
	m.AcquireView(b, v) // the receive
	if err := m.Read(b, c, "b"); err != nil {
		t.Fatalf("read after the receive: %v", err)
	}
	// Coherence came along too: b may not read x older than 1.
	if got := values(m.Candidates(b, x, Relaxed)); len(got) != 2 || got[1] != 1 {
		t.Fatalf("candidates after the receive %v, want [2 1]", got)
	}
}

func TestSeqCstFenceCreatesNoHappensBefore(t *testing.T) {
	// The fences order reads (SB+scfences), but a plain cell written
	// before one and read after the other still races: RC11's SC
	// fences are not synchronisation (Miri treats them as one, which
	// would hide this race).
	m := New(Config{})
	c := m.NewCell("d")
	a, b := m.Go(0), m.Go(0)
	if err := m.Write(a, c, "a"); err != nil {
		t.Fatal(err)
	}
	m.Fence(a, SeqCst)
	m.Fence(b, SeqCst)
	if err := m.Read(b, c, "b"); err == nil {
		t.Fatal("two seq_cst fences ordered a plain write before a read")
	}
}

func TestInvalidOrderingsPanic(t *testing.T) {
	m := New(Config{})
	x := m.NewAtomic("x", 0)
	for name, f := range map[string]func(){
		"acquire store":  func() { m.Store(0, x, Acquire, 1) },
		"acq_rel store":  func() { m.Store(0, x, AcqRel, 1) },
		"release load":   func() { m.Candidates(0, x, Release) },
		"acq_rel load":   func() { m.Load(0, x, AcqRel, 0) },
		"relaxed fence":  func() { m.Fence(0, Relaxed) },
		"release CAS":    func() { m.CASCandidates(0, x, 0, Release) },
		"no such thread": func() { m.Store(7, x, Relaxed, 1) },
		"no such loc":    func() { m.Store(0, 9, Relaxed, 1) },
		"bad candidate":  func() { m.Load(0, x, Relaxed, 3) },
	} {
		func() {
			defer func() {
				p := recover()
				if p == nil || !strings.HasPrefix(p.(string), "weak: ") {
					t.Errorf("%s: panic %v, want a weak: panic", name, p)
				}
			}()
			f()
		}()
	}
}
