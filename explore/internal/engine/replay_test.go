package engine

import (
	"strings"
	"testing"
	"unsafe"
)

// tloc is an integer of the weak-memory mode that notes its operations,
// as explore/atomic's types do, so that traces show them.
type tloc struct{ v int }

func (x *tloc) at() uintptr { return uintptr(unsafe.Pointer(x)) }

func (x *tloc) load(o Ordering) int {
	PointAt(x.at(), false)
	v := x.v
	if Weak() {
		v = WeakLoad(x.at(), o, x.v).(int)
	}
	if Tracing() {
		NoteAt(x.at(), "Load"+o.String(), "->", v)
	}
	return v
}

func (x *tloc) store(v int, o Ordering) {
	PointAt(x.at(), true)
	// As explore/atomic: memory keeps the last store in
	// modification order.
	if !Weak() || WeakStore(x.at(), o, x.v, v) {
		x.v = v
	}
	if Tracing() {
		NoteAt(x.at(), "Store"+o.String(), v)
	}
}

// messagePassing publishes data through flag with the orderings given;
// the reader fails if it sees the flag and not the data.
func messagePassing(st, ld Ordering) func() {
	return func() {
		var data, flag tloc
		w := Go("writer", func() {
			data.store(1, Relaxed)
			flag.store(1, st)
		})
		r := Go("reader", func() {
			if flag.load(ld) == 1 {
				Assert(data.load(Relaxed) == 1, "saw the flag but not the data")
			}
		})
		w.Join()
		r.Join()
	}
}

// relaxedMP is the failing message passing of the weak mode, found.
func relaxedMP(t *testing.T) (func(), *Failure) {
	t.Helper()
	body := messagePassing(Relaxed, Relaxed)
	res := Explore(Options{Weak: true}, body)
	if res.Failure == nil || res.Failure.Kind != kindAssert {
		t.Fatalf("relaxed message passing: want an assertion, got %+v", res.Failure)
	}
	return body, res.Failure
}

func TestWeakTokenRecordsModeAndReplays(t *testing.T) {
	body, f := relaxedMP(t)
	if !strings.HasPrefix(f.Token, "weak;stale=2;history=7/") || !strings.Contains(f.Token, ":s") {
		t.Fatalf("token %q: want the weak mode, its parameters and a store choice", f.Token)
	}
	rep := Explore(Options{Weak: true, Replay: f.Token}, body)
	if rep.Failure == nil || rep.Failure.Message != f.Message || rep.Failure.Trace != f.Trace {
		t.Fatalf("replay of %q did not reproduce the failure and its trace: %+v", f.Token, rep.Failure)
	}
	// One step, one number: the stale read is the load's own step, which
	// names the store it read and the newer one it skipped.
	if !strings.Contains(f.Trace, "reads the location's first value, not the latest: skips step 2 (writer)") ||
		!strings.Contains(f.Trace, "no newer store happens before this read") {
		t.Fatalf("the stale read is not explained:\n%s", f.Trace)
	}
	d := f.trace
	stale := 0
	for _, s := range d.Steps {
		if s.Stale {
			stale++
			if s.ReadsFrom != 0 || len(s.Skipped) != 1 || s.Skipped[0] != 2 {
				t.Fatalf("stale step %+v: want reads_from 0 (the first value), skipped [2]", s)
			}
		}
	}
	if stale != 1 {
		t.Fatalf("%d stale reads in the trace data, want 1:\n%s", stale, f.Trace)
	}
}

// A release store read by an acquire load is a synchronises-with edge of
// the trace.
func TestTraceNamesSynchronisesWith(t *testing.T) {
	body := messagePassing(Release, Acquire)
	// Writer first, then the reader: the default schedule runs main, then
	// the writer to its end.
	res := Explore(Options{Weak: true, Replay: "weak;stale=2;history=7/-"}, body)
	if res.Failure != nil {
		t.Fatalf("release/acquire message passing failed: %v", res.Failure)
	}
	if !strings.Contains(res.Trace, "synchronises-with") || !strings.Contains(res.Trace, "StoreRelease) -> step") {
		t.Fatalf("no synchronises-with edge in the trace:\n%s", res.Trace)
	}
}

// A store placed before a newer one in modification order (2+2W: each
// goroutine's first store ends last) says so in the trace.
func TestTraceNamesAPlacedStore(t *testing.T) {
	body := func() {
		var x, y tloc
		a := Go("A", func() { x.store(1, Relaxed); y.store(2, Relaxed) })
		y.store(1, Relaxed)
		x.store(2, Relaxed)
		a.Join()
		Assert(x.v != 1 || y.v != 1, "2+2W: x = 1 and y = 1 at the end")
	}
	res := Explore(Options{Weak: true}, body)
	f := res.Failure
	if f == nil || f.Kind != "assertion" {
		t.Fatalf("2+2W with relaxed stores: want the outcome x = y = 1 found, got %+v", f)
	}
	if !strings.Contains(f.Trace, "goes before the newest 1 store(s) of its location in modification order") {
		t.Fatalf("the trace does not say which store was placed before a newer one:\n%s", f.Trace)
	}
	if res := Explore(Options{Weak: true, Replay: f.Token}, body); res.Failure == nil || res.Failure.Kind != "assertion" {
		t.Fatalf("the 2+2W schedule does not replay: %+v", res.Failure)
	}
}

// Each way a replay can leave its token fails as "replay diverged at step
// N", with the reason.
func TestReplayDivergesLoudly(t *testing.T) {
	wbody, wf := relaxedMP(t)
	racy := racyCounter
	passing := func() {
		var x toyInt
		a := Go("A", func() { x.Add(1) })
		x.Add(1)
		a.Join()
	}
	for _, c := range []struct {
		name string
		opt  Options
		body func()
		want string
	}{
		{"weak token, plain run", Options{Replay: wf.Token}, wbody,
			"replay diverged at step 0: the token was recorded in the weak-memory mode with up to 2 stale reads and 7 stores kept per location (build tags explore,weak), and this run is sequentially consistent"},
		{"plain token, weak run", Options{Weak: true, Replay: "sc/1:g2"}, racy,
			"replay diverged at step 0: the token was recorded sequentially consistent (build tags explore), and this run is in the weak-memory mode"},
		{"other parameters", Options{Weak: true, MaxStale: 1, Replay: wf.Token}, wbody,
			"replay diverged at step 0: the token was recorded in the weak-memory mode with up to 2 stale reads"},
		{"store choice in the plain mode", Options{Replay: "sc/3:s1"}, racy,
			"replay diverged at step 0: explore: bad replay token \"sc/3:s1\": decision 3 chooses a store, which only the weak mode does"},
		{"unknown decision kind", Options{Replay: "sc/3:m1"}, racy,
			"unknown decision kind 'm' at decision 3"},
		{"unknown parameter", Options{Weak: true, Replay: "weak;stale=2;history=7;order=1/-"}, wbody,
			"unknown parameter \"order\""},
		{"goroutine that cannot run", Options{Replay: "sc/1:g7"}, racy,
			"replay diverged at step 3: decision 1 wants goroutine 7, but only {A, B} can go"},
		{"store past the candidates", Options{Weak: true, Replay: strings.Replace(wf.Token, ":s1", ":s5", 1)}, wbody,
			"wants store 5 of a read that has 2 to choose from"},
		{"a decision of another kind", Options{Weak: true, Replay: "weak;stale=2;history=7/0:s1"}, wbody,
			"replay diverged at step 2: decision 0 is a choice of goroutine here, but the token lists a choice of the store a read reads (s1) for it"},
		{"run ends first", Options{Replay: "sc/40:g1"}, passing,
			"the run ended after 1 decision(s), but the token lists decision 40"},
		{"run fails first", Options{Replay: "sc/1:g2,40:g1"}, racy,
			"before the token's decision 40 (it failed with assertion: x = 1 after two increments)"},
	} {
		res := Explore(c.opt, c.body)
		f := res.Failure
		if f == nil || f.Kind != kindDiverged || !strings.HasPrefix(f.Message, "replay diverged at step ") || !strings.Contains(f.Message, c.want) {
			t.Errorf("%s: want a divergence saying %q, got %+v", c.name, c.want, f)
		}
	}
}

func TestTokenRoundTrip(t *testing.T) {
	for _, tok := range []string{"sc/-", "sc/1:g2,40:g1", "weak;stale=2;history=7/37:g1,39:s1,45:s1"} {
		p, err := ParseToken(tok)
		if err != nil || p.String() != tok {
			t.Errorf("%q: parsed %+v (%v), written back %q", tok, p, err, p.String())
		}
	}
	// A token of before the mode was recorded reads as the plain mode.
	if p, err := ParseToken("17:2,40:1"); err != nil || p.Weak || p.Choices[17] != (Choice{kindGoroutine, 2}) {
		t.Errorf("old token: %+v, %v", p, err)
	}
}

// A switch that follows a choice of store is not a timeout firing: a
// goroutine's choice of the latest store (0) before a forced switch to
// goroutine 0 is a load decision, with no timer.
func TestSwitchAfterAChoiceOfStoreIsNoTimeout(t *testing.T) {
	res := Explore(Options{Weak: true, Preemptions: -1}, func() {
		var x tloc
		a := Go("a", func() { x.store(1, Relaxed) })
		b := Go("b", func() { x.load(Relaxed) })
		a.Join()
		b.Join()
		Failf("stop")
	})
	f := res.Failure
	if f == nil || !strings.Contains(f.Trace, "main runs") {
		t.Fatalf("want the stop with a switch back to main in its trace, got %+v", f)
	}
	if strings.Contains(f.Trace, "timeout") {
		t.Errorf("a timeout fires in a scenario without deadlines:\n%s", f.Trace)
	}
}
