package goid

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Sinks, so that no loop below is optimised away.
var (
	sinkWord  uint64
	sinkWord2 uint64
	sinkFlag  uint32
)

// BenchmarkCost prices one operation of each kind in the build it runs in,
// so that, run with -race, the ratios within one run say what the race
// detector charges: for a plain write (an instrumented access), for each
// sync/atomic operation (a call into the detector that orders the
// goroutines for it), for a Guard's Enter and Exit (a check's own word,
// unseen by the detector) and for what
// the detector does not see at all (runtime.Gosched, Go's own scheduling,
// is uninstrumented runtime code).
//
//	go test -race -run '^$' -bench Cost ./internal/goid
func BenchmarkCost(b *testing.B) {
	b.Run("op=plain-write", func(b *testing.B) {
		for i := range b.N {
			sinkWord = uint64(i)
		}
	})
	b.Run("op=atomic-load", func(b *testing.B) {
		for range b.N {
			sinkWord2 += atomic.LoadUint64(&sinkWord)
		}
	})
	b.Run("op=atomic-store", func(b *testing.B) {
		for i := range b.N {
			atomic.StoreUint64(&sinkWord, uint64(i))
		}
	})
	b.Run("op=atomic-add", func(b *testing.B) {
		for range b.N {
			atomic.AddUint64(&sinkWord, 1)
		}
	})
	b.Run("op=atomic-cas", func(b *testing.B) {
		for i := range b.N {
			atomic.CompareAndSwapUint64(&sinkWord, uint64(i), uint64(i+1))
		}
	})
	b.Run("op=atomic-cas+store", func(b *testing.B) {
		// What a Guard's Enter and Exit cost through sync/atomic.
		for range b.N {
			if atomic.CompareAndSwapUint32(&sinkFlag, 0, 1) {
				atomic.StoreUint32(&sinkFlag, 0)
			}
		}
	})
	b.Run("op=guard-enter+exit", func(b *testing.B) {
		var g Guard
		for range b.N {
			g.Enter("two owners")
			g.Exit()
		}
	})
	b.Run("op=gosched", func(b *testing.B) {
		for range b.N {
			runtime.Gosched()
		}
	})
}
