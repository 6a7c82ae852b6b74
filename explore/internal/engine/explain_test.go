package engine

import (
	"regexp"
	"strings"
	"testing"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/weak"
)

// A trace that explains itself: every read names the store it read, a
// read of another goroutine's store that orders nothing names the
// missing synchronises-with edge, and a data race is two steps naming
// each other.

// Every read names its store, in the plain mode too (the location's
// last store) and in the weak mode (the model's choice).
func TestEveryReadNamesItsStore(t *testing.T) {
	for _, weak := range []bool{false, true} {
		replay := "sc/-"
		if weak {
			replay = "weak;stale=2;history=7/-"
		}
		res := Explore(Options{Weak: weak, Replay: replay}, messagePassing(SeqCst, SeqCst))
		if res.Failure != nil {
			t.Fatalf("weak=%v: seq_cst message passing failed: %v", weak, res.Failure)
		}
		lines := 0
		for _, l := range strings.Split(res.Trace, "\n") {
			// step, goroutine, line, the location's name, then the
			// operation.
			f := strings.Fields(l)
			if len(f) < 5 || !strings.HasPrefix(f[4], "Load") {
				continue
			}
			// The location is the line that called the operation,
			// not the engine's hook.
			if !strings.HasPrefix(f[2], "explore/internal/engine/replay_test.go:") {
				t.Errorf("weak=%v: the read's location is %s, not the test's line that called it", weak, f[2])
			}
			lines++
			if !strings.Contains(l, " from ") {
				t.Errorf("weak=%v: a read that does not name its store: %q", weak, l)
			}
		}
		if lines == 0 {
			t.Fatalf("weak=%v: no read in the trace:\n%s", weak, res.Trace)
		}
		// The reader reads the flag after the writer ran to its end
		// (the default schedule): from the writer's store, step 2.
		if !strings.Contains(res.Trace, "LoadSeqCst -> 1") || !strings.Contains(res.Trace, "from 2 (writer)") {
			t.Errorf("weak=%v: the flag's load does not name the writer's store, step 2:\n%s", weak, res.Trace)
		}
	}
}

// An acquire load of a relaxed store, and a relaxed load of a release
// store, name the synchronises-with edge that is missing.
func TestTraceNamesTheMissingSynchronisesWith(t *testing.T) {
	for _, c := range []struct {
		st, ld Ordering
		want   string
	}{
		{Relaxed, Acquire, "'s LoadAcquire (reader) read step 3's StoreRelaxed (writer): no release, so nothing before step 3 is made visible by it"},
		{Release, Relaxed, "'s LoadRelaxed (reader) read step 3's StoreRelease (writer): no acquire"},
	} {
		res := Explore(Options{Weak: true}, messagePassing(c.st, c.ld))
		f := res.Failure
		if f == nil || f.Kind != kindAssert {
			t.Fatalf("%v store, %v load: want the assertion, got %+v", c.st, c.ld, f)
		}
		if !strings.Contains(f.Trace, "missing synchronises-with (a read of another goroutine's store that orders nothing):") || !strings.Contains(f.Trace, c.want) {
			t.Errorf("%v store, %v load: the trace does not name the missing edge %q:\n%s", c.st, c.ld, c.want, f.Trace)
		}
		missing := 0
		for _, s := range f.Data().Steps {
			if s.Missing != "" {
				missing++
				if s.ReadsFrom != 3 || s.G != 2 {
					t.Errorf("the missing edge is on step %+v, want the reader's read of step 3", s)
				}
			}
		}
		if missing != 1 {
			t.Errorf("%v store, %v load: %d missing edges, want 1:\n%s", c.st, c.ld, missing, f.Trace)
		}
	}
	// Release and acquire: the edge is there, nothing is missing.
	res := Explore(Options{Weak: true, Replay: "weak;stale=2;history=7/-"}, messagePassing(Release, Acquire))
	if res.Failure != nil || strings.Contains(res.Trace, "missing") {
		t.Fatalf("release/acquire: %v\n%s", res.Failure, res.Trace)
	}
}

// tcell is a plain cell: each access is checked for a data race.
type tcell struct{ v int }

func (c *tcell) at() uintptr { return uintptr(unsafe.Pointer(c)) }

func (c *tcell) write(v int) {
	PointAt(c.at(), true)
	c.v = v
	WeakCell(c.at(), true)
	if Tracing() {
		NoteAt(c.at(), "Store", v)
	}
}

func (c *tcell) read() int {
	PointAt(c.at(), false)
	v := c.v
	WeakCell(c.at(), false)
	if Tracing() {
		NoteAt(c.at(), "Load", "->", v)
	}
	return v
}

// A data race is two steps, both accesses, each naming the other.
func TestDataRaceIsTwoSteps(t *testing.T) {
	res := Explore(Options{Weak: true}, func() {
		var data tcell
		var flag tloc
		w := Go("writer", func() {
			data.write(1)
			flag.store(1, Relaxed)
		})
		r := Go("reader", func() {
			if flag.load(Relaxed) == 1 {
				data.read()
			}
		})
		w.Join()
		r.Join()
	})
	f := res.Failure
	if f == nil || f.Kind != kindRace {
		t.Fatalf("want the data race, got %+v", f)
	}
	var races []traceStep
	for _, s := range f.Data().Steps {
		if s.Race > 0 {
			races = append(races, s)
		}
	}
	if len(races) != 2 || races[0].Race != races[1].N || races[1].Race != races[0].N || races[0].G == races[1].G {
		t.Fatalf("want two racing steps of two goroutines naming each other, got %+v\n%s", races, f.Trace)
	}
	last := f.Data().Steps[len(f.Data().Steps)-1]
	if last.N != races[1].N || last.Op != "Load" || races[0].Op != "Store" {
		t.Fatalf("the racing read is not the last step: %+v\n%s", last, f.Trace)
	}
	if !strings.Contains(f.Trace, "DATA RACE with step") || !strings.Contains(f.Trace, "explain_test.go") {
		t.Fatalf("the trace does not mark both accesses with their source lines:\n%s", f.Trace)
	}
	// The message names the cell's first access and both racing ones by
	// their lines: the search's runs name none (WeakCell), the failure's
	// traced replay does.
	line := `explore/internal/engine/explain_test\.go:\d+`
	msg := regexp.MustCompile(`^data race on the plain cell first accessed at ` + line + `: the write by writer at ` + line + ` is not ordered before the read by reader at ` + line + ` `)
	if !msg.MatchString(f.Message) {
		t.Fatalf("the message does not name the accesses' lines: %s", f.Message)
	}
}

// An atomic location is named by the line of code that first touched it
// in a traced run (a failure's replay, Options.Replay), and by its number
// in a search's runs, which are not traced (memory.loc).
func TestWeakLocationNames(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Weak: true, Replay: "weak;stale=2;history=7/-"}, `^explore/internal/engine/replay_test\.go:\d+$`},
		{Options{Weak: true, Preemptions: 0}, `^location 0$`},
	} {
		var names []string
		res := Explore(c.opt, func() {
			var x tloc
			x.store(1, Release)
			r := current.Load()
			l, _ := r.mem.locs.lookup(x.at())
			names = append(names, r.mem.m.Name(weak.Loc(l)))
		})
		if res.Failure != nil {
			t.Fatal(res.Failure)
		}
		if len(names) == 0 {
			t.Fatalf("%+v: no run", c.opt)
		}
		for _, n := range names {
			if !regexp.MustCompile(c.want).MatchString(n) {
				t.Errorf("%+v: the location is named %q, want %s", c.opt, n, c.want)
			}
		}
	}
}

// The weak mode's trace lists the seq_cst events in a seq_cst order the
// execution is consistent with: every seq_cst step once, each
// goroutine's in program order, and none of another ordering.
func TestTraceListsTheSeqCstOrder(t *testing.T) {
	res := Explore(Options{Weak: true, Replay: "weak;stale=2;history=7/-"}, func() {
		var x, y, z tloc
		a := Go("a", func() { x.store(1, SeqCst); y.load(SeqCst); z.store(1, Relaxed) })
		b := Go("b", func() { y.store(1, SeqCst); tfence(SeqCst); x.load(SeqCst) })
		a.Join()
		b.Join()
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	var order string
	for _, l := range strings.Split(res.Trace, "\n") {
		if v, ok := strings.CutPrefix(l, "seq_cst order (one the execution is consistent with): "); ok {
			order = v
		}
	}
	// a runs to its end first (the default schedule), then b.
	if order != "2 (a) < 3 (a) < 7 (b) < 8 (b) < 9 (b)" {
		t.Fatalf("seq_cst order %q:\n%s", order, res.Trace)
	}
}

// A traced run keeps the seq_cst order whole past its last stale choice
// (weak.Config.Traced), where an untraced one stops growing it: a failure
// found at MaxStale 1, after its one stale read, is traced with the
// seq_cst store that follows that read in the order.
func TestTraceKeepsTheSeqCstOrderPastTheLastStaleChoice(t *testing.T) {
	res := Explore(Options{Weak: true, MaxStale: 1}, func() {
		var x, y, z tloc
		a := Go("a", func() { y.store(1, SeqCst); x.store(1, Relaxed) })
		b := Go("b", func() {
			s := y.load(SeqCst)
			r := x.load(Relaxed) // 0 after s == 1: the stale choice
			z.store(1, SeqCst)
			if s == 1 && r == 0 {
				Failf("x read 0 after y read 1")
			}
		})
		a.Join()
		b.Join()
	})
	if res.Failure == nil {
		t.Fatal("no failure: the stale read of x was never made")
	}
	var order string
	for _, l := range strings.Split(res.Failure.Trace, "\n") {
		if v, ok := strings.CutPrefix(l, "seq_cst order (one the execution is consistent with): "); ok {
			order = v
		}
	}
	if strings.Count(order, "<") != 2 {
		t.Fatalf("seq_cst order %q, want a's store of y, b's load of y and b's store of z:\n%s", order, res.Failure.Trace)
	}
}

// tfence is a fence that notes itself, as explore/atomic's do.
func tfence(o Ordering) {
	WeakFence(o)
	if Tracing() {
		Note("Fence" + o.String())
	}
}
