//go:build explore

package atomic

import (
	"sync/atomic"
	"unsafe"

	"github.com/wsched/wsched/explore"
)

// Enabled reports whether the operations are scheduling points of the
// explorer (the explore build tag).
const Enabled = true

// Every method below is the same three steps: a scheduling point (the
// explorer may run other goroutines first), the sync/atomic operation, and,
// when the explorer records a trace, a note of the values read or written.
// Outside an exploration the point and the note do nothing.

// Int32 is sync/atomic's Int32, each operation a scheduling point.
type Int32 struct{ v atomic.Int32 }

func (x *Int32) Load() int32 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Int32) Store(val int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Int32) Swap(new int32) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Int32) CompareAndSwap(old, new int32) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

func (x *Int32) Add(delta int32) (new int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Tracing() {
		explore.Note("Add", delta, "->", new)
	}
	return new
}

func (x *Int32) And(mask int32) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Tracing() {
		explore.Note("And", mask, "->", old)
	}
	return old
}

func (x *Int32) Or(mask int32) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Tracing() {
		explore.Note("Or", mask, "->", old)
	}
	return old
}

// Int64 is sync/atomic's Int64, each operation a scheduling point.
type Int64 struct{ v atomic.Int64 }

func (x *Int64) Load() int64 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Int64) Store(val int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Int64) Swap(new int64) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Int64) CompareAndSwap(old, new int64) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

func (x *Int64) Add(delta int64) (new int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Tracing() {
		explore.Note("Add", delta, "->", new)
	}
	return new
}

func (x *Int64) And(mask int64) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Tracing() {
		explore.Note("And", mask, "->", old)
	}
	return old
}

func (x *Int64) Or(mask int64) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Tracing() {
		explore.Note("Or", mask, "->", old)
	}
	return old
}

// Uint32 is sync/atomic's Uint32, each operation a scheduling point.
type Uint32 struct{ v atomic.Uint32 }

func (x *Uint32) Load() uint32 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Uint32) Store(val uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Uint32) Swap(new uint32) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Uint32) CompareAndSwap(old, new uint32) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

func (x *Uint32) Add(delta uint32) (new uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Tracing() {
		explore.Note("Add", delta, "->", new)
	}
	return new
}

func (x *Uint32) And(mask uint32) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Tracing() {
		explore.Note("And", mask, "->", old)
	}
	return old
}

func (x *Uint32) Or(mask uint32) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Tracing() {
		explore.Note("Or", mask, "->", old)
	}
	return old
}

// Uint64 is sync/atomic's Uint64, each operation a scheduling point.
type Uint64 struct{ v atomic.Uint64 }

func (x *Uint64) Load() uint64 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Uint64) Store(val uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Uint64) Swap(new uint64) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Uint64) CompareAndSwap(old, new uint64) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

func (x *Uint64) Add(delta uint64) (new uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Tracing() {
		explore.Note("Add", delta, "->", new)
	}
	return new
}

func (x *Uint64) And(mask uint64) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Tracing() {
		explore.Note("And", mask, "->", old)
	}
	return old
}

func (x *Uint64) Or(mask uint64) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Tracing() {
		explore.Note("Or", mask, "->", old)
	}
	return old
}

// Bool is sync/atomic's Bool, each operation a scheduling point.
type Bool struct{ v atomic.Bool }

func (x *Bool) Load() bool {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Bool) Store(val bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Bool) Swap(new bool) (old bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Bool) CompareAndSwap(old, new bool) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

// Pointer is sync/atomic's Pointer[T], each operation a scheduling point.
type Pointer[T any] struct{ v atomic.Pointer[T] }

func (x *Pointer[T]) Load() *T {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Tracing() {
		explore.Note("Load ->", r)
	}
	return r
}

func (x *Pointer[T]) Store(val *T) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note("Store", val)
	}
}

func (x *Pointer[T]) Swap(new *T) (old *T) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Tracing() {
		explore.Note("Swap", new, "->", old)
	}
	return old
}

func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	swapped = x.v.CompareAndSwap(old, new)
	if explore.Tracing() {
		explore.Note("CompareAndSwap", old, new, "->", swapped)
	}
	return swapped
}

// Peek reads the value without a scheduling point or a trace entry. It
// exists only in the explore build, for the readiness checks that the
// explorer evaluates while it decides (explore.Block): those must look at
// shared state without being operations of a goroutine.
//
// A peek from a goroutine's own code (a check that reads several
// counters at once) is a read of the step it belongs to, for the reduced
// search (explore.Touch); while the explorer decides, it is nobody's.
func (x *Int32) Peek() int32 { touch(unsafe.Pointer(x), false); return x.v.Load() }

func (x *Int64) Peek() int64 { touch(unsafe.Pointer(x), false); return x.v.Load() }

func (x *Uint32) Peek() uint32 { touch(unsafe.Pointer(x), false); return x.v.Load() }

func (x *Uint64) Peek() uint64 { touch(unsafe.Pointer(x), false); return x.v.Load() }

func (x *Bool) Peek() bool { touch(unsafe.Pointer(x), false); return x.v.Load() }

func (x *Pointer[T]) Peek() *T { touch(unsafe.Pointer(x), false); return x.v.Load() }

func touch(p unsafe.Pointer, write bool) { explore.Touch(uintptr(p), write) }

// Cell is the plain pointer cell of the normal build (off.go), here an
// atomic one whose every access is a scheduling point, so that the
// explorer interleaves at ring slots as it did when they were atomics.
type Cell[T any] struct{ v Pointer[T] }

func (c *Cell[T]) Load() *T { return c.v.Load() }

func (c *Cell[T]) Store(v *T) { c.v.Store(v) }

// Take is one scheduling point, a swap: the slot is only ever taken by
// the consumer that claimed it, so splitting it would add schedules
// without adding behaviours.
func (c *Cell[T]) Take() *T { return c.v.Swap(nil) }

func (c *Cell[T]) Peek() *T { return c.v.Peek() }
