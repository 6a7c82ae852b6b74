package model

import (
	"testing"
)

// ring returns the ids from..to inclusive.
func ids(from, to int) []int {
	var xs []int
	for i := from; i <= to; i++ {
		xs = append(xs, i)
	}
	return xs
}

func stateWith(rings ...[]int) QueueState {
	s := NewQueueState(len(rings))
	copy(s.Rings, rings)
	return s
}

func TestQueueModelSteal(t *testing.T) {
	seq, conc := QueueModel{}, QueueModel{Concurrent: true}
	s := stateWith(ids(1, 5), nil)
	steal := QueueInput{Kind: OpSteal, Ring: 0, Dst: 1}

	cases := []struct {
		name string
		m    QueueModel
		in   QueueInput
		out  QueueOutput
		ok   bool
	}{
		{"exact half", seq, steal, QueueOutput{Task: 1, N: 3}, true},
		{"fewer, sequential", seq, steal, QueueOutput{Task: 1, N: 2}, false},
		{"fewer, concurrent", conc, steal, QueueOutput{Task: 1, N: 2}, true},
		{"more than half", conc, steal, QueueOutput{Task: 1, N: 4}, false},
		{"not the oldest", conc, steal, QueueOutput{Task: 2, N: 1}, false},
		{"fail uncontended", conc, steal, QueueOutput{}, false},
		{"fail contended", conc, QueueInput{Kind: OpSteal, Ring: 0, Dst: 1, Contended: true}, QueueOutput{}, true},
		{"fail contended, sequential", seq, QueueInput{Kind: OpSteal, Ring: 0, Dst: 1, Contended: true}, QueueOutput{}, false},
	}
	for _, c := range cases {
		ok, next := c.m.Step(s, c.in, c.out)
		if ok != c.ok {
			t.Errorf("%s: %s allowed=%v, want %v", c.name, c.in.Describe(c.out), ok, c.ok)
		}
		if !ok && !next.Equal(s) {
			t.Errorf("%s: a refused step changed the state", c.name)
		}
	}

	ok, next := seq.Step(s, steal, QueueOutput{Task: 1, N: 3})
	if !ok || !next.Equal(stateWith(ids(4, 5), ids(2, 3))) {
		t.Fatalf("after steal: %v", next)
	}
	if !s.Equal(stateWith(ids(1, 5), nil)) {
		t.Fatalf("Step changed its input state: %v", s)
	}
}

func TestQueueModelStealNeedsRoom(t *testing.T) {
	// The thief holds 250: taking 10 would append 9 (> 6 free slots).
	s := stateWith(ids(1, 20), ids(100, 349))
	out, _, ok := QueueModel{}.Expect(s, QueueInput{Kind: OpSteal, Ring: 0, Dst: 1})
	if !ok || out.N != 0 {
		t.Fatalf("steal into a nearly full ring: %+v ok=%v, want a refusal", out, ok)
	}
	// With room for exactly n-1 it succeeds.
	s = stateWith(ids(1, 20), ids(100, 346))
	out, _, ok = QueueModel{}.Expect(s, QueueInput{Kind: OpSteal, Ring: 0, Dst: 1})
	if !ok || out.N != 10 {
		t.Fatalf("steal with room for n-1: %+v ok=%v, want n=10", out, ok)
	}
}

func TestQueueModelOverflow(t *testing.T) {
	m := QueueModel{Concurrent: true}
	s := stateWith(ids(1, RingCapacity))
	push := QueueInput{Kind: OpPush, Ring: 0, Task: 999}

	if ok, _ := m.Step(s, push, QueueOutput{N: 0}); ok {
		t.Fatal("push into a full ring stored its task")
	}
	if ok, _ := m.Step(s, QueueInput{Kind: OpPush, Ring: 0, Task: 999, Contended: true}, QueueOutput{N: 1}); ok {
		t.Fatal("push returned 1 on a ring with no claimed slots")
	}
	ok, next := m.Step(s, push, QueueOutput{N: RingMaxSteal})
	if !ok || len(next.Rings[0]) != RingMaxSteal+1 || len(next.Transit[0]) != RingMaxSteal {
		t.Fatalf("overflow: ok=%v %v", ok, next)
	}
	// The Injector must then receive exactly the oldest half, in order.
	if ok, _ := m.Step(next, QueueInput{Kind: OpGlobalPushBatch, Tasks: ids(2, 129), Overflow: true}, QueueOutput{}); ok {
		t.Fatal("overflow batch with the wrong tasks accepted")
	}
	ok, next = m.Step(next, QueueInput{Kind: OpGlobalPushBatch, Tasks: ids(1, 128), Overflow: true}, QueueOutput{})
	if !ok || len(next.Transit[0]) != 0 || len(next.Global) != RingMaxSteal {
		t.Fatalf("overflow batch: ok=%v %v", ok, next)
	}

	// A ring with a steal in flight looks, in the model, like a ring with
	// fewer tasks: a contended push may then send only its own task.
	s = stateWith(ids(1, RingCapacity-3))
	ok, next = m.Step(s, QueueInput{Kind: OpPush, Ring: 0, Task: 999, Contended: true}, QueueOutput{N: 1})
	if !ok || len(next.Transit[0]) != 1 || len(next.Rings[0]) != RingCapacity-3 {
		t.Fatalf("push beside a steal in flight: ok=%v %v", ok, next)
	}
}

func TestQueueModelGlobal(t *testing.T) {
	m := QueueModel{}
	s := NewQueueState(1)
	_, s, _ = m.Expect(s, QueueInput{Kind: OpGlobalPushBatch, Tasks: ids(1, 3)})
	_, s, _ = m.Expect(s, QueueInput{Kind: OpGlobalPush, Task: 4})
	if ok, _ := m.Step(s, QueueInput{Kind: OpGlobalPopBatch, Max: 2}, QueueOutput{Tasks: []int{2, 1}}); ok {
		t.Fatal("PopBatch out of order accepted")
	}
	out, s, _ := m.Expect(s, QueueInput{Kind: OpGlobalPopBatch, Max: 2})
	if len(out.Tasks) != 2 || out.Tasks[0] != 1 || out.Tasks[1] != 2 {
		t.Fatalf("PopBatch: %v", out.Tasks)
	}
	if out, _, _ := m.Expect(s, QueueInput{Kind: OpGlobalLen}); out.N != 2 {
		t.Fatalf("Len: %d", out.N)
	}
	if ok, _ := m.Step(s, QueueInput{Kind: OpGlobalPush, Task: 5, Overflow: true}, QueueOutput{}); ok {
		t.Fatal("overflow push with nothing in transit accepted")
	}
}

func TestQueueStateHashMatchesEqual(t *testing.T) {
	a := stateWith(ids(1, 3), ids(4, 4))
	b := stateWith(ids(1, 3), ids(4, 4))
	c := stateWith(ids(1, 4), nil)
	if !a.Equal(b) || a.Hash() != b.Hash() {
		t.Fatal("equal states differ")
	}
	if a.Equal(c) || a.Hash() == c.Hash() {
		t.Fatal("states that hold tasks in different rings compare or hash equal")
	}
}

// TestQueueStateHashSeesTheMiddle: states whose global queues differ only
// in the order of two tasks in the middle, as the orders of two concurrent
// pushes do, must hash apart; porcupine keeps states of one hash in one
// list and compares them one by one.
func TestQueueStateHashSeesTheMiddle(t *testing.T) {
	a, b := NewQueueState(0), NewQueueState(0)
	a.Global = ids(1, 100)
	b.Global = ids(1, 100)
	b.Global[49], b.Global[50] = b.Global[50], b.Global[49]
	if a.Equal(b) {
		t.Fatal("states with two tasks swapped compare equal")
	}
	if a.Hash() == b.Hash() {
		t.Fatal("states with two tasks swapped in the middle of the global queue hash equal")
	}
}
