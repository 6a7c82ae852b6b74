package litmus

import (
	"strconv"
	"strings"
	"testing"
)

// The forbidden outcome of MP with release/acquire is never produced, and
// Explain says so; the allowed stale read of MP+rlx is explained with the
// read of data taken from the initial value although data=1 was stored.
func TestExplainNamesTheStoreRead(t *testing.T) {
	mp := func(flagStore, flagLoad Ordering) Test {
		return Test{Name: "MP", Threads: [][]Op{
			{Store("data", 1, Relaxed), Store("flag", 1, flagStore)},
			{Load("a", "flag", flagLoad), Load("b", "data", Relaxed)},
		}}
	}
	if _, ok := mp(Release, Acquire).Explain("b=0 a=1"); ok {
		t.Fatal("MP+rel+acq: a=1 b=0 explained, but RC11 forbids it")
	}
	ex, ok := mp(Relaxed, Relaxed).Explain("b=0 a=1")
	if !ok {
		t.Fatal("MP+rlx: a=1 b=0 not produced")
	}
	if ex.Outcome != "a=1 b=0" {
		t.Errorf("outcome %q, want the registers in the order they appear: a=1 b=0", ex.Outcome)
	}
	var a, b *Step
	for i := range ex.Steps {
		switch ex.Steps[i].Op.reg {
		case "a":
			a = &ex.Steps[i]
		case "b":
			b = &ex.Steps[i]
		}
	}
	if a == nil || b == nil {
		t.Fatalf("loads missing from the execution:\n%v", ex)
	}
	if a.From < 0 || ex.Steps[a.From].Op.loc != "flag" || a.Stale {
		t.Errorf("a should read the latest store of flag:\n%v", ex)
	}
	if b.From != -1 || !b.Stale {
		t.Errorf("b should read data's initial value, stale:\n%v", ex)
	}
}

// An RMW reads the store just before its own; a CAS's read names the
// store it read too, and a guarded operation whose guard fails is marked
// skipped.
func TestExplainRMWs(t *testing.T) {
	tt := Test{Name: "RMW", Threads: [][]Op{
		{Add("a", "x", 1, Relaxed)},
		{CAS("b", "x", 1, 5, SeqCst, Relaxed), Store("y", 1, Relaxed).When("b", 0)},
	}, Final: []string{"x", "y"}}
	outs, n := tt.Outcomes()
	if got := strings.Join(outs, "; "); got != "a=0 b=0 x=1 y=1; a=0 b=1 x=5 y=0" {
		t.Errorf("outcomes %s (%d executions)", got, n)
	}
	ex, ok := tt.Explain("a=0 b=1 x=5 y=0")
	if !ok {
		t.Fatal("a=0 b=1 x=5 y=0 not produced")
	}
	if len(ex.Steps) != 3 || ex.Steps[0].Op.kind != opAdd || ex.Steps[1].From != 0 || !ex.Steps[2].Skipped {
		t.Errorf("want the add, then the CAS reading the add's store, then the skipped store:\n%v", ex)
	}
}

// StoreReg stores the value its register holds when it runs: y ends with
// what a read, in every execution, and the step records that value.
func TestStoreRegStoresTheRegister(t *testing.T) {
	tt := Test{Name: "forward", Threads: [][]Op{
		{Store("x", 2, Relaxed)},
		{Load("a", "x", Relaxed), StoreReg("y", "a", Relaxed)},
	}, Final: []string{"y"}}
	outs, n := tt.Outcomes()
	if got := strings.Join(outs, "; "); got != "a=0 y=0; a=2 y=2" {
		t.Errorf("outcomes %s (%d executions), want a=0 y=0; a=2 y=2", got, n)
	}
	ex, ok := tt.Explain("a=2 y=2")
	if !ok {
		t.Fatal("a=2 y=2 not produced")
	}
	last := ex.Steps[len(ex.Steps)-1]
	if last.Value != 2 || last.Op.String() != "y.Store(a, Relaxed)" {
		t.Errorf("want the last step to be y.Store(a, Relaxed) storing 2:\n%v", ex)
	}
}

// A data race names both accesses by the steps the execution prints, and
// marks both.
func TestExplainNamesBothSidesOfARace(t *testing.T) {
	tt := Test{Name: "MP+plain", Threads: [][]Op{
		{Write("d"), Store("flag", 1, Relaxed)},
		{Load("a", "flag", Relaxed), Read("d")},
	}}
	ex, ok := tt.Explain("a=1 race")
	if !ok {
		t.Fatal("MP+plain with a relaxed flag: a=1 with a race not produced")
	}
	var marked []int
	for i, s := range ex.Steps {
		if s.Race != "" {
			marked = append(marked, i+1)
		}
	}
	text := ex.String()
	if len(marked) != 2 || ex.Steps[marked[0]-1].Op.kind != opWrite || ex.Steps[marked[1]-1].Op.kind != opRead {
		t.Fatalf("want the write and the read marked, got steps %v:\n%s", marked, text)
	}
	want := "the write by T1 (step " + itoa(marked[0]) + ") is not ordered before the read by T2 (step " + itoa(marked[1]) + ")"
	if !strings.Contains(text, want) || strings.Contains(text, "operation") {
		t.Fatalf("the race does not name its steps (%q):\n%s", want, text)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
