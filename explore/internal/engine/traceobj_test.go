package engine

import (
	"regexp"
	"strings"
	"testing"
	"unsafe"
)

// Objects in a trace have stable names: a pointer prints as its object's
// name at every step, so that a node that comes back prints as the same
// name coming back (the ABA); a location inside a named object prints as
// the object and the field; a pointer to plain data shows what it
// pointed to when the step ran.

// tnode is a node with an atomic value and link, as a stack's.
type tnode struct {
	val  tloc
	next tptr
}

// tptr is an atomic pointer that notes its operations.
type tptr struct{ p any }

func (x *tptr) at() uintptr { return uintptr(unsafe.Pointer(x)) }

func (x *tptr) store(p any) {
	PointAt(x.at(), true)
	x.p = p
	if Tracing() {
		NoteAt(x.at(), "StoreRelaxed", p)
	}
}

// tval is plain data with a method the trace must not call.
type tval struct {
	id  int
	tag string
}

func (tval) String() string { panic("the trace called a method of the data") }

// tpair holds two locations the code reaches by the same expression.
type tpair struct {
	head tptr
	vals [2]tloc
	more []tloc // elements outside the object
}

func TestTraceNamesObjectsByIdentity(t *testing.T) {
	res := Explore(Options{Replay: "sc/-"}, func() {
		q, r := &tpair{more: make([]tloc, 3)}, &tpair{}
		Object("q", q)
		n1, n2 := &tnode{}, &tnode{}
		// The same expression reaches both pairs' locations.
		for _, p := range []*tpair{q, r} {
			p.vals[1].store(1, Relaxed)
			p.head.store(n1)
		}
		n1.val.store(7, Relaxed)
		q.head.store(n2)
		n1.next.store(n2)
		q.head.store(n1) // n1 comes back
		v := 5
		q.head.store(&v)
		v = 6 // after the step: the step printed 5
		q.head.store(&v)
		q.more[2].store(1, Relaxed)
		q.head.store(&tval{7, "x"})
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	var lines []string
	for _, l := range strings.Split(res.Trace, "\n") {
		if regexp.MustCompile(`^\s+\d+  `).MatchString(l) {
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		"q.vals[1] StoreRelaxed 1",
		"q.head StoreRelaxed t1",
		// r was not named, nor pointed to by a value: its locations
		// go by the expression the code used (here none: locN).
		"loc3 StoreRelaxed 1",
		"loc4 StoreRelaxed t1",
		"t1.val StoreRelaxed 7",
		"q.head StoreRelaxed t2",
		"t1.next StoreRelaxed t2",
		"q.head StoreRelaxed t1",
		"q.head StoreRelaxed i1(5)",
		"q.head StoreRelaxed i1(6)",
		"q.more[2] StoreRelaxed 1",
		// A second type whose name starts with t: its whole name.
		"q.head StoreRelaxed tval1{7 x}",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d steps, want %d:\n%s", len(lines), len(want), res.Trace)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("step %d: %q, want %q in it", i+1, lines[i], w)
		}
	}
	if !strings.Contains(res.Trace, "objects: t = engine.tnode, i = int, tval = engine.tval") {
		t.Errorf("no legend of the objects' names:\n%s", res.Trace)
	}
}
