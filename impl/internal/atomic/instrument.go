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

// Every operation below is the same three steps: a scheduling point (the
// explorer may run other goroutines first), the sync/atomic operation, and,
// when the explorer records a trace, a note of the values read or written.
// Outside an exploration the point and the note do nothing. The methods of
// on.go call these with the ordering of their name. The explorer runs
// every operation sequentially consistent, as the normal build does,
// unless it explores in its weak-memory mode (explore.Weak): then each
// operation is also one of a C11 memory model, and a load returns the
// store the model and the search choose, which may be older than the
// latest (explore/weakmode.go).

// Int32 is sync/atomic's Int32, each operation a scheduling point.
type Int32 struct{ v atomic.Int32 }

func (x *Int32) load(o Ordering) int32 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(int32)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Int32) store(val int32, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Int32) swap(new int32, o Ordering) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Int32) compareAndSwap(old, new int32, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

func (x *Int32) add(delta int32, o Ordering) (new int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), new-delta, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Add"), delta, "->", new)
	}
	return new
}

func (x *Int32) and(mask int32, o Ordering) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old&mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("And"), mask, "->", old)
	}
	return old
}

func (x *Int32) or(mask int32, o Ordering) (old int32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old|mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("Or"), mask, "->", old)
	}
	return old
}

// Int64 is sync/atomic's Int64, each operation a scheduling point.
type Int64 struct{ v atomic.Int64 }

func (x *Int64) load(o Ordering) int64 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(int64)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Int64) store(val int64, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Int64) swap(new int64, o Ordering) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Int64) compareAndSwap(old, new int64, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

func (x *Int64) add(delta int64, o Ordering) (new int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), new-delta, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Add"), delta, "->", new)
	}
	return new
}

func (x *Int64) and(mask int64, o Ordering) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old&mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("And"), mask, "->", old)
	}
	return old
}

func (x *Int64) or(mask int64, o Ordering) (old int64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old|mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("Or"), mask, "->", old)
	}
	return old
}

// Uint32 is sync/atomic's Uint32, each operation a scheduling point.
type Uint32 struct{ v atomic.Uint32 }

func (x *Uint32) load(o Ordering) uint32 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(uint32)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Uint32) store(val uint32, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Uint32) swap(new uint32, o Ordering) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Uint32) compareAndSwap(old, new uint32, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

func (x *Uint32) add(delta uint32, o Ordering) (new uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), new-delta, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Add"), delta, "->", new)
	}
	return new
}

func (x *Uint32) and(mask uint32, o Ordering) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old&mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("And"), mask, "->", old)
	}
	return old
}

func (x *Uint32) or(mask uint32, o Ordering) (old uint32) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old|mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("Or"), mask, "->", old)
	}
	return old
}

// Uint64 is sync/atomic's Uint64, each operation a scheduling point.
type Uint64 struct{ v atomic.Uint64 }

func (x *Uint64) load(o Ordering) uint64 {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(uint64)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Uint64) store(val uint64, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Uint64) swap(new uint64, o Ordering) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Uint64) compareAndSwap(old, new uint64, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

func (x *Uint64) add(delta uint64, o Ordering) (new uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	new = x.v.Add(delta)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), new-delta, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Add"), delta, "->", new)
	}
	return new
}

func (x *Uint64) and(mask uint64, o Ordering) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.And(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old&mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("And"), mask, "->", old)
	}
	return old
}

func (x *Uint64) or(mask uint64, o Ordering) (old uint64) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Or(mask)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, old|mask)
	}
	if explore.Tracing() {
		explore.Note(o.op("Or"), mask, "->", old)
	}
	return old
}

// Bool is sync/atomic's Bool, each operation a scheduling point.
type Bool struct{ v atomic.Bool }

func (x *Bool) load(o Ordering) bool {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(bool)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Bool) store(val bool, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Bool) swap(new bool, o Ordering) (old bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Bool) compareAndSwap(old, new bool, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

// Pointer is sync/atomic's Pointer[T], each operation a scheduling point.
type Pointer[T any] struct{ v atomic.Pointer[T] }

func (x *Pointer[T]) load(o Ordering) *T {
	explore.PointAt(uintptr(unsafe.Pointer(x)), false)
	r := x.v.Load()
	if explore.Weak() {
		r = explore.WeakLoad(uintptr(unsafe.Pointer(x)), o.weak(), r).(*T)
	}
	if explore.Tracing() {
		explore.Note(o.op("Load")+" ->", r)
	}
	return r
}

func (x *Pointer[T]) store(val *T, o Ordering) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if explore.Weak() {
		explore.WeakStore(uintptr(unsafe.Pointer(x)), o.weak(), x.v.Load(), val)
	}
	x.v.Store(val)
	if explore.Tracing() {
		explore.Note(o.op("Store"), val)
	}
}

func (x *Pointer[T]) swap(new *T, o Ordering) (old *T) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	old = x.v.Swap(new)
	if explore.Weak() {
		explore.WeakRMW(uintptr(unsafe.Pointer(x)), o.weak(), old, new)
	}
	if explore.Tracing() {
		explore.Note(o.op("Swap"), new, "->", old)
	}
	return old
}

func (x *Pointer[T]) compareAndSwap(old, new *T, success, failure Ordering) (swapped bool) {
	explore.PointAt(uintptr(unsafe.Pointer(x)), true)
	if !explore.Weak() {
		swapped = x.v.CompareAndSwap(old, new)
	} else {
		before := x.v.Load()
		swapped = x.v.CompareAndSwap(old, new)
		explore.WeakCompareAndSwap(uintptr(unsafe.Pointer(x)), before, old, new, swapped, success.weak(), failure.weak())
	}
	if explore.Tracing() {
		explore.Note(success.op("CompareAndSwap")+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

// fence is a fence of the given ordering. Under sequential consistency
// it does nothing, and it is not a scheduling point: it would only add
// schedules. In the weak-memory mode it is an operation of the model (its
// effect is on what the goroutine's later loads and stores carry).
func fence(o Ordering) {
	if explore.Weak() {
		explore.WeakFence(o.weak())
		if explore.Tracing() {
			explore.Note(o.op("Fence"))
		}
	}
}

// weak is o as the explorer's memory model numbers it.
func (o Ordering) weak() explore.Ordering { return explore.Ordering(o - Relaxed) }

// op is the name of operation op with ordering o for a trace: the bare name
// under sequential consistency, where the ordering changes nothing, and
// with the ordering in the weak-memory mode.
func (o Ordering) op(op string) string {
	if explore.Weak() {
		return op + o.String()
	}
	return op
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

// Cell is the plain pointer cell of the normal build (cell_off.go), here
// one whose every access is a scheduling point, so that the explorer
// interleaves at ring slots as it did when they were atomics. It is not
// an atomic of the weak-memory mode: each access is checked there by
// happens-before (explore.WeakCell), and reads the latest store, which in
// a race-free execution is the one store it can read.
type Cell[T any] struct{ v atomic.Pointer[T] }

func (c *Cell[T]) Load() *T {
	explore.PointAt(uintptr(unsafe.Pointer(c)), false)
	p := c.v.Load()
	explore.WeakCell(uintptr(unsafe.Pointer(c)), false)
	if explore.Tracing() {
		explore.Note("Load ->", p)
	}
	return p
}

func (c *Cell[T]) Store(v *T) {
	explore.PointAt(uintptr(unsafe.Pointer(c)), true)
	c.v.Store(v)
	explore.WeakCell(uintptr(unsafe.Pointer(c)), true)
	if explore.Tracing() {
		explore.Note("Store", v)
	}
}

// Take is one scheduling point, a swap: the slot is only ever taken by
// the consumer that claimed it, so splitting it would add schedules
// without adding behaviours.
func (c *Cell[T]) Take() *T {
	explore.PointAt(uintptr(unsafe.Pointer(c)), true)
	p := c.v.Swap(nil)
	explore.WeakCell(uintptr(unsafe.Pointer(c)), true)
	if explore.Tracing() {
		explore.Note("Swap", (*T)(nil), "->", p)
	}
	return p
}

func (c *Cell[T]) Peek() *T { touch(unsafe.Pointer(c), false); return c.v.Load() }
