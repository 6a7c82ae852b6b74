//go:build !explore

// White-box tests of the production ring of 256 slots; the explore build's
// ring of 4 has its scenarios in explore/scenarios.

package queue

import (
	"slices"
	"testing"
)

func TestGlobalFIFOAndBatchOrder(t *testing.T) {
	g := NewGlobal[task]()
	buf := make([]*task, 8)
	if g.PopBatch(buf) != 0 || g.Len() != 0 {
		t.Fatal("new Global not empty")
	}
	all := tasks(0, 1000)
	g.Push(all[0])
	g.PushBatch(all[1:500])
	for _, x := range all[500:700] {
		g.Push(x)
	}
	g.PushBatch(all[700:])
	g.PushBatch(nil)
	if g.Len() != 1000 {
		t.Fatalf("Len = %d, want 1000", g.Len())
	}
	var got []*task
	sizes := []int{0, 1, 3, 64, 7, 1000}
	for call := 0; g.Len() > 0 && call < 10_000; call++ {
		n := sizes[call%len(sizes)]
		buf := make([]*task, n)
		k := g.PopBatch(buf)
		if k != min(n, 1000-len(got)) {
			t.Fatalf("PopBatch(len %d) = %d with %d left", n, k, 1000-len(got))
		}
		got = append(got, buf[:k]...)
		if g.Len() != 1000-len(got) {
			t.Fatalf("Len = %d after taking %d", g.Len(), len(got))
		}
	}
	if !slices.Equal(ids(got), seq(0, 1000)) {
		t.Fatalf("Global order %v", ids(got))
	}
	if g.PopBatch(buf) != 0 {
		t.Fatal("PopBatch from drained Global returned tasks")
	}
}

// checkGlobalCleared verifies that every slot outside the live window is nil.
func checkGlobalCleared(t *testing.T, g *Global[task]) {
	t.Helper()
	for i := range len(g.buf) {
		live := (i-g.head+len(g.buf))%len(g.buf) < g.n
		if !live && g.buf[i] != nil {
			t.Fatalf("slot %d outside the live window [%d, +%d) holds task %d", i, g.head, g.n, g.buf[i].id)
		}
		if live && g.buf[i] == nil {
			t.Fatalf("slot %d inside the live window [%d, +%d) is empty", i, g.head, g.n)
		}
	}
}

// PopBatch clears what it takes, also when the buffer is too small to
// shrink (a shrink copies only the live tasks and would hide it).
func TestGlobalClearsWithoutShrinking(t *testing.T) {
	g := NewGlobal[task]()
	g.PushBatch(tasks(0, 50))
	if len(g.buf) != minGlobalCap {
		t.Fatalf("buffer of %d slots, want %d", len(g.buf), minGlobalCap)
	}
	buf := make([]*task, 7)
	for g.PopBatch(buf) > 0 {
		checkGlobalCleared(t, g)
		g.Push(&task{id: 100})
		g.PopBatch(buf[:1])
		checkGlobalCleared(t, g)
	}
}

// A buffer up to keptGlobalCap is kept when the queue drains (no
// reallocation per burst); a larger one shrinks back to keptGlobalCap.
func TestGlobalClearsAndShrinks(t *testing.T) {
	g := NewGlobal[task]()
	g.PushBatch(tasks(0, 5_000))
	small := len(g.buf)
	buf := make([]*task, 100)
	for g.PopBatch(buf) > 0 {
		checkGlobalCleared(t, g)
	}
	if len(g.buf) != small {
		t.Fatalf("drained Global of %d slots shrank to %d; buffers up to %d are kept", small, len(g.buf), keptGlobalCap)
	}
	g.PushBatch(tasks(0, 4*keptGlobalCap+1))
	big := len(g.buf)
	for g.n > keptGlobalCap {
		g.PopBatch(buf)
	}
	if len(g.buf) >= big || len(g.buf) < g.n {
		t.Fatalf("buffer of %d slots for %d tasks after draining from %d", len(g.buf), g.n, big)
	}
	checkGlobalCleared(t, g)
	for g.PopBatch(buf) > 0 {
	}
	if g.n != 0 || len(g.buf) != keptGlobalCap {
		t.Fatalf("drained Global keeps %d slots, want %d", len(g.buf), keptGlobalCap)
	}
	for i, x := range g.buf {
		if x != nil {
			t.Fatalf("drained Global still points at a task in slot %d", i)
		}
	}
}

// PopBatch across the end of the circular buffer keeps the order.
func TestGlobalWrapsItsBuffer(t *testing.T) {
	g := NewGlobal[task]()
	next, want := 0, 0
	buf := make([]*task, 5)
	for round := range 2000 {
		g.PushBatch(tasks(next, 3+round%5))
		next += 3 + round%5
		k := g.PopBatch(buf)
		for _, x := range buf[:k] {
			if x.id != want {
				t.Fatalf("round %d: got %d, want %d", round, x.id, want)
			}
			want++
		}
	}
}
