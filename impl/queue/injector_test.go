//go:build !explore

// White-box tests of the production ring of 256 slots; the explore build's
// ring of 4 has its scenarios in explore/scenarios.

package queue

import (
	"slices"
	"testing"
)

// keeper is an Injector that keeps everything it is given, as a real
// overflow queue does. It copies what PushBatch hands it before returning,
// as the Injector contract requires.
type keeper struct{ kept []*task }

func (k *keeper) Push(t *task)         { k.kept = append(k.kept, t) }
func (k *keeper) PushBatch(ts []*task) { k.kept = append(k.kept, slices.Clone(ts)...) }

// retainer breaks the contract: it keeps the slice PushBatch was given.
type retainer struct{ batches [][]*task }

func (r *retainer) Push(*task)           {}
func (r *retainer) PushBatch(ts []*task) { r.batches = append(r.batches, ts) }

// An Injector that keeps what it gets still holds every overflowed task,
// exactly once and untouched, after the ring has overflowed again and again
// (each overflow reuses the ring's scratch array) and has been drained.
func TestOverflowInjectorKeepsWhatItGets(t *testing.T) {
	r, k := NewRing[task](), &keeper{}
	all := tasks(0, 10*Capacity)
	for _, x := range all {
		r.Push(x, k)
	}
	var popped []*task
	for x := r.Pop(); x != nil; x = r.Pop() {
		popped = append(popped, x)
	}
	// The ring fills, then every MaxSteal further pushes overflow one
	// batch: it ends full, having given away all but Capacity tasks.
	if len(k.kept) != len(all)-Capacity || len(popped) != Capacity {
		t.Fatalf("the Injector kept %d tasks and %d were popped, want %d and %d",
			len(k.kept), len(popped), len(all)-Capacity, Capacity)
	}
	for i, x := range k.kept {
		if x == nil {
			t.Fatalf("kept task %d is nil: the ring reached into the Injector's copy", i)
		}
	}
	got := append(slices.Clone(k.kept), popped...)
	if !slices.Equal(ids(got), seq(0, len(all))) {
		t.Fatalf("kept then popped = %v, want every task once, in order", ids(got))
	}
}

// Why the contract says "must not retain": the slice PushBatch receives is
// the ring's scratch array, cleared as soon as the call returns. An
// Injector that keeps the slice itself is left holding nils.
func TestOverflowSliceIsReusedAfterPushBatch(t *testing.T) {
	r, inj := NewRing[task](), &retainer{}
	for _, x := range tasks(0, Capacity+1) {
		r.Push(x, inj)
	}
	if len(inj.batches) != 1 || len(inj.batches[0]) != MaxSteal {
		t.Fatalf("got %d batches, want one of %d", len(inj.batches), MaxSteal)
	}
	for i, x := range inj.batches[0] {
		if x != nil {
			t.Fatalf("slot %d of the retained slice still holds task %d; the ring no longer reuses its scratch array, so the Injector contract can be relaxed", i, x.id)
		}
	}
}

// Global keeps its side of the contract: it copies the tasks, so a caller
// that reuses the slice after PushBatch does not change what is queued.
func TestGlobalPushBatchDoesNotRetain(t *testing.T) {
	g := NewGlobal[task]()
	ts := tasks(0, 8)
	g.PushBatch(ts)
	copy(ts, tasks(100, 8))
	clear(ts[:4])
	buf := make([]*task, 8)
	if n := g.PopBatch(buf); n != 8 || !slices.Equal(ids(buf), seq(0, 8)) {
		t.Fatalf("PopBatch = %d tasks %v, want the 8 tasks as pushed", n, ids(buf[:n]))
	}
}
