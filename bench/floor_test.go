package bench

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// BenchmarkFloor prices the hardware operations a scheduler's hot path is made of, in the
// same run as the workloads, so that cmd/report can say how far each workload is from them
// (the page's "How far from the floor"):
//
//   - op=locked-rmw: one uncontended atomic add (a LOCK-prefixed instruction on amd64; every
//     sync/atomic store, swap, add and compare-and-swap is one);
//   - op=alloc-16B: one heap allocation of a 16-byte object holding a pointer, with its share
//     of garbage collection;
//   - op=cacheline-transfer: one move of a cache line from one core to the other, half of a
//     round trip in which two goroutines take turns writing a shared word (each spins on
//     it until the other's write arrives).
//
// The transfer needs two goroutines running at once: with GOMAXPROCS 1, or on a machine
// whose other core is busy, it measures goroutine switches instead, and the page says
// which GOMAXPROCS it ran at.
func BenchmarkFloor(b *testing.B) {
	b.Run("op=locked-rmw", func(b *testing.B) {
		var w atomic.Uint64
		for range b.N {
			w.Add(1)
		}
		sinkFloor = w.Load()
	})
	b.Run("op=alloc-16B", func(b *testing.B) {
		for i := range b.N {
			floorObj = &floorCell{next: floorObj, n: i}
			if i&1023 == 0 {
				floorObj = nil // keep the live heap small: the cost is allocating, not retaining
			}
		}
	})
	b.Run("op=cacheline-transfer", func(b *testing.B) {
		var turn atomic.Int64 // even: the benchmark goroutine's turn, odd: the partner's
		done := make(chan struct{})
		n := int64(b.N)
		go func() {
			defer close(done)
			for i := int64(1); i < 2*n; i += 2 {
				spinUntil(&turn, i)
				turn.Store(i + 1)
			}
		}()
		b.ResetTimer()
		for i := int64(0); i < 2*n; i += 2 {
			spinUntil(&turn, i)
			turn.Store(i + 1)
		}
		spinUntil(&turn, 2*n)
		b.StopTimer()
		<-done
		// b.N round trips are 2*b.N transfers: report per transfer.
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*n), "ns/transfer")
	})
}

// spinUntil waits for turn to reach v, yielding now and then so that a partner without a
// core of its own still gets to run.
func spinUntil(turn *atomic.Int64, v int64) {
	for spins := 0; turn.Load() != v; spins++ {
		if spins&1023 == 1023 {
			runtime.Gosched()
		}
	}
}

type floorCell struct {
	next *floorCell
	n    int
}

var (
	sinkFloor uint64
	floorObj  *floorCell
)
