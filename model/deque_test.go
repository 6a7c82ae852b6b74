package model

import "testing"

func TestDequeEnds(t *testing.T) {
	d := NewDeque().Push(1).Push(2).Push(3)
	if d.String() != "top[1 2 3]bottom" {
		t.Fatalf("got %v", d)
	}
	d2, v, ok := d.Pop()
	if !ok || v != 3 || d2.String() != "top[1 2]bottom" {
		t.Fatalf("Pop: %v %v %v", d2, v, ok)
	}
	d3, v, ok := d.Steal()
	if !ok || v != 1 || d3.String() != "top[2 3]bottom" {
		t.Fatalf("Steal: %v %v %v", d3, v, ok)
	}
	// Values are immutable: d is unchanged, and pushing onto a popped
	// state does not write into d's backing array.
	d2.Push(9)
	if d.String() != "top[1 2 3]bottom" {
		t.Fatalf("receiver changed: %v", d)
	}
}

func TestDequeStep(t *testing.T) {
	d := NewDeque(5, 6)
	cases := []struct {
		op   DequeOp
		ok   bool
		want string
	}{
		{DequeOp{Kind: DequePop, Value: 6}, true, "top[5]bottom"},
		{DequeOp{Kind: DequePop, Value: 5}, false, ""},
		{DequeOp{Kind: DequeSteal, Value: 5}, true, "top[6]bottom"},
		{DequeOp{Kind: DequeSteal, Outcome: DequeEmpty}, false, ""},
		{DequeOp{Kind: DequeSteal, Outcome: DequeRetry}, true, "top[5 6]bottom"},
		{DequeOp{Kind: DequePop, Outcome: DequeRetry}, false, ""},
		{DequeOp{Kind: DequePush, Value: 7}, true, "top[5 6 7]bottom"},
	}
	for _, c := range cases {
		ok, next := d.Step(c.op)
		if ok != c.ok || (ok && next.String() != c.want) {
			t.Errorf("%v from %v: ok=%v next=%v; want ok=%v next=%s", c.op, d, ok, next, c.ok, c.want)
		}
	}
	if ok, _ := NewDeque().Step(DequeOp{Kind: DequePop, Outcome: DequeEmpty}); !ok {
		t.Error("Pop -> empty on an empty deque must be legal")
	}
}
