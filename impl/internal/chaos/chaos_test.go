package chaos

import (
	"sync/atomic"
	"testing"
)

// BenchmarkPoint shows what a yield point costs: compare
//
//	go test -bench Point ./impl/internal/chaos
//	go test -tags chaos -bench Point ./impl/internal/chaos
//
// Without the tag the loop body is a single atomic add, the same as
// BenchmarkBaseline: the hook compiles to nothing.
func BenchmarkPoint(b *testing.B) {
	var x atomic.Uint64
	for b.Loop() {
		Point()
		x.Add(1)
	}
}

func BenchmarkBaseline(b *testing.B) {
	var x atomic.Uint64
	for b.Loop() {
		x.Add(1)
	}
}
