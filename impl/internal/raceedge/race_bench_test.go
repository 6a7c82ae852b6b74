//go:build race

package raceedge

import (
	"testing"
	"unsafe"
)

// record is the size of a task record (impl/sched's recycle.go: 48 bytes).
type record struct{ _ [6]uint64 }

var sink *record

// BenchmarkEdgeNewRecord is a remote spawn's and its Wait's annotations on
// a record allocated for the spawn, as impl/sched makes them: Release at
// the spawn, Acquire at the poll, ReleaseMerge at its end, Acquire in
// Wait. Against BenchmarkNewRecord (the allocation alone) it prices the
// detector's sync object that each new record's first Release creates and
// the collection of the record frees (docs/performance.md, "the floor").
func BenchmarkEdgeNewRecord(b *testing.B) {
	for range b.N {
		r := &record{}
		sink = r
		p := unsafe.Pointer(r)
		Release(p)
		Acquire(p)
		ReleaseMerge(p)
		Acquire(p)
	}
}

// BenchmarkNewRecord is BenchmarkEdgeNewRecord's allocation alone.
func BenchmarkNewRecord(b *testing.B) {
	for range b.N {
		sink = &record{}
	}
}

// BenchmarkEdgeSameRecord is the same four annotations on one record,
// whose sync object exists after the first iteration.
func BenchmarkEdgeSameRecord(b *testing.B) {
	r := &record{}
	p := unsafe.Pointer(r)
	for range b.N {
		Release(p)
		Acquire(p)
		ReleaseMerge(p)
		Acquire(p)
	}
	sink = r
}
