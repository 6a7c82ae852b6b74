package atomic_test

import (
	stdatomic "sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/internal/atomic"
)

// BenchmarkUint64 shows that a normal build pays nothing for the package:
//
//	go test -bench . ./impl/internal/atomic
//
// Load, Store, CompareAndSwap and Add through it cost what they cost
// through sync/atomic (the types are aliases); under -tags explore each is
// a call into the explorer.
func BenchmarkUint64(b *testing.B) {
	b.Run("impl", func(b *testing.B) {
		var x atomic.Uint64
		for b.Loop() {
			v := x.Load()
			x.Store(v + 1)
			x.CompareAndSwap(v+1, v+2)
			x.Add(1)
		}
	})
	b.Run("sync", func(b *testing.B) {
		var x stdatomic.Uint64
		for b.Loop() {
			v := x.Load()
			x.Store(v + 1)
			x.CompareAndSwap(v+1, v+2)
			x.Add(1)
		}
	})
}

// The wrappers compute what sync/atomic computes, in both builds.
func TestSameResults(t *testing.T) {
	var x atomic.Uint64
	x.Store(5)
	if x.Load() != 5 || x.Add(3) != 8 || x.Swap(1) != 8 || !x.CompareAndSwap(1, 0xF0) || x.CompareAndSwap(1, 2) ||
		x.And(0x30) != 0xF0 || x.Or(0x1) != 0x30 || x.Load() != 0x31 {
		t.Fatalf("Uint64 ops disagree with sync/atomic: %#x", x.Load())
	}
	var b atomic.Bool
	if b.Swap(true) || !b.Load() || !b.CompareAndSwap(true, false) || b.Load() {
		t.Fatal("Bool ops disagree with sync/atomic")
	}
	var p atomic.Pointer[int]
	n := 7
	if p.Swap(&n) != nil || *p.Load() != 7 || !p.CompareAndSwap(&n, nil) || p.Load() != nil {
		t.Fatal("Pointer ops disagree with sync/atomic")
	}
	var i atomic.Int32
	if i.Add(-2) != -2 || i.And(-4) != -2 || i.Load() != -4 {
		t.Fatalf("Int32 ops disagree: %d", i.Load())
	}
}
