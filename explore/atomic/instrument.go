//go:build explore

package atomic

import (
	"sync/atomic"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/engine"
)

// Enabled reports whether the operations are scheduling points of the
// explorer (the explore build tag).
const Enabled = true

// Every operation is the same three steps: a scheduling point (the
// explorer may run other goroutines first), the sync/atomic operation, and,
// when the explorer records a trace, a note of the values read or written.
// Outside an exploration the point and the note do nothing. The methods of
// on.go call these with the ordering of their name. The explorer runs
// every operation sequentially consistent, as the normal build does,
// unless it explores in its weak-memory mode (engine.Weak): then each
// operation is also one of a C11 memory model, and a load returns the
// store the model and the search choose, which may be older than the
// latest (explore/internal/engine/weakmode.go).

// The operations, once for every type: raw is the sync/atomic value, p
// the wrapper's address (the location the explorer and its memory model
// know it by). Each type's lowercase methods, which call these, are
// written by gen.go (types_on.go, stat_on.go).
type raw[V any] interface {
	Load() V
	Store(V)
	Swap(V) V
	CompareAndSwap(old, new V) bool
}

func load[V any, A raw[V]](a A, p unsafe.Pointer, o Ordering) V {
	engine.PointAt(uintptr(p), false)
	r := a.Load()
	if engine.Weak() {
		r = engine.WeakLoad(uintptr(p), o, r).(V)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("Load", o), "->", r)
	}
	return r
}

func store[V any, A raw[V]](a A, p unsafe.Pointer, val V, o Ordering) {
	engine.PointAt(uintptr(p), true)
	// In the weak mode the store may go before the latest one in
	// modification order; memory keeps the last.
	if !engine.Weak() || engine.WeakStore(uintptr(p), o, a.Load(), val) {
		a.Store(val)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("Store", o), val)
	}
}

func swap[V any, A raw[V]](a A, p unsafe.Pointer, new V, o Ordering) (old V) {
	engine.PointAt(uintptr(p), true)
	if engine.Weak() {
		old = weakRMW(a, p, o, func(V) V { return new })
	} else {
		old = a.Swap(new)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("Swap", o), new, "->", old)
	}
	return old
}

func compareAndSwap[V any, A raw[V]](a A, p unsafe.Pointer, old, new V, success, failure Ordering) (swapped bool) {
	engine.PointAt(uintptr(p), true)
	if !engine.Weak() {
		swapped = a.CompareAndSwap(old, new)
	} else {
		// The model decides which store the CAS reads; memory takes its
		// store only if it went last in modification order.
		var last bool
		swapped, last = engine.WeakCompareAndSwap(uintptr(p), a.Load(), old, new, success, failure)
		if swapped && last {
			a.Store(new)
		}
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("CompareAndSwap", success)+failure.String(), old, new, "->", swapped)
	}
	return swapped
}

// weakRMW is a read-modify-write writing f(old) in the weak mode: the
// model decides which store it reads (the latest, or an older one, its
// own store then going right after it), and memory takes the store only
// if it went last in modification order. It returns the value read.
func weakRMW[V any, A raw[V]](a A, p unsafe.Pointer, o Ordering, f func(V) V) V {
	old, last := engine.WeakRMW(uintptr(p), o, a.Load(), func(v any) any { return f(v.(V)) })
	if last {
		a.Store(f(old.(V)))
	}
	return old.(V)
}

// integer is the types with Add, And and Or.
type integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

type rawInteger[V integer] interface {
	raw[V]
	Add(V) V
	And(V) V
	Or(V) V
}

func add[V integer, A rawInteger[V]](a A, p unsafe.Pointer, delta V, o Ordering) (new V) {
	engine.PointAt(uintptr(p), true)
	if engine.Weak() {
		new = weakRMW(a, p, o, func(old V) V { return old + delta }) + delta
	} else {
		new = a.Add(delta)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("Add", o), delta, "->", new)
	}
	return new
}

func and[V integer, A rawInteger[V]](a A, p unsafe.Pointer, mask V, o Ordering) (old V) {
	engine.PointAt(uintptr(p), true)
	if engine.Weak() {
		old = weakRMW(a, p, o, func(old V) V { return old & mask })
	} else {
		old = a.And(mask)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("And", o), mask, "->", old)
	}
	return old
}

func or[V integer, A rawInteger[V]](a A, p unsafe.Pointer, mask V, o Ordering) (old V) {
	engine.PointAt(uintptr(p), true)
	if engine.Weak() {
		old = weakRMW(a, p, o, func(old V) V { return old | mask })
	} else {
		old = a.Or(mask)
	}
	if engine.Tracing() {
		engine.NoteAt(uintptr(p), opName("Or", o), mask, "->", old)
	}
	return old
}

// The Stat types' ordered operations (stat_on.go): the operations above
// without their scheduling point, a touch instead (the reduced search
// orders the step against the others that touch the location), and, in
// the weak-memory mode, the same operation of the model. No trace note:
// with no scheduling point of its own the operation has no line of the
// trace, as a fence has none.

func statLoad[V any, A raw[V]](a A, p unsafe.Pointer, o Ordering) V {
	touch(p, false)
	r := a.Load()
	if engine.Weak() {
		r = engine.WeakLoad(uintptr(p), o, r).(V)
	}
	return r
}

func statStore[V any, A raw[V]](a A, p unsafe.Pointer, val V, o Ordering) {
	touch(p, true)
	// As store: memory keeps the last store in modification order.
	if !engine.Weak() || engine.WeakStore(uintptr(p), o, a.Load(), val) {
		a.Store(val)
	}
}

func statSwap[V any, A raw[V]](a A, p unsafe.Pointer, new V, o Ordering) (old V) {
	touch(p, true)
	if engine.Weak() {
		return weakRMW(a, p, o, func(V) V { return new })
	}
	return a.Swap(new)
}

func statCompareAndSwap[V any, A raw[V]](a A, p unsafe.Pointer, old, new V, success, failure Ordering) (swapped bool) {
	touch(p, true)
	if !engine.Weak() {
		return a.CompareAndSwap(old, new)
	}
	swapped, last := engine.WeakCompareAndSwap(uintptr(p), a.Load(), old, new, success, failure)
	if swapped && last {
		a.Store(new)
	}
	return swapped
}

func statAdd[V integer, A rawInteger[V]](a A, p unsafe.Pointer, delta V, o Ordering) (new V) {
	touch(p, true)
	if engine.Weak() {
		return weakRMW(a, p, o, func(old V) V { return old + delta }) + delta
	}
	return a.Add(delta)
}

func statAnd[V integer, A rawInteger[V]](a A, p unsafe.Pointer, mask V, o Ordering) (old V) {
	touch(p, true)
	if engine.Weak() {
		return weakRMW(a, p, o, func(old V) V { return old & mask })
	}
	return a.And(mask)
}

func statOr[V integer, A rawInteger[V]](a A, p unsafe.Pointer, mask V, o Ordering) (old V) {
	touch(p, true)
	if engine.Weak() {
		return weakRMW(a, p, o, func(old V) V { return old | mask })
	}
	return a.Or(mask)
}

// fence is a fence of the given ordering. It is not a scheduling point
// (it would only add schedules), but it is a step of every trace. Under
// sequential consistency it does nothing else; in the weak-memory mode it
// is an operation of the model (its effect is on what the goroutine's
// later loads and stores carry).
func fence(o Ordering) {
	if engine.Weak() {
		engine.WeakFence(o)
	}
	if engine.Tracing() {
		engine.Note(opName("Fence", o))
	}
}

// op is the name of operation op with ordering o for a trace, as the
// method is called (LoadAcquire), in every mode: under sequential
// consistency the ordering changes nothing the run does, but it is what
// the line claims.
func opName(op string, o Ordering) string { return op + o.String() }

// Peek (types_on.go, one per type) reads the value without a scheduling
// point or a trace entry. It exists only in the explore build, for the
// readiness checks that the explorer evaluates while it decides
// (engine.Block): those must look at shared state without being
// operations of a goroutine.
//
// A peek from a goroutine's own code (a check that reads several
// counters at once) is a read of the step it belongs to, for the reduced
// search (touch, engine.Touch); while the explorer decides, it is
// nobody's.

func touch(p unsafe.Pointer, write bool) { engine.Touch(uintptr(p), write) }

// Cell is the plain pointer cell of the normal build (cell_off.go), here
// one whose every access is a scheduling point, so that the explorer
// interleaves at ring slots as it did when they were atomics. It is not
// an atomic of the weak-memory mode: each access is checked there by
// happens-before (engine.WeakCell), and reads the latest store, which in
// a race-free execution is the one store it can read.
type Cell[T any] struct{ v atomic.Pointer[T] }

func (c *Cell[T]) Load() *T {
	engine.PointAt(uintptr(unsafe.Pointer(c)), false)
	p := c.v.Load()
	engine.WeakCell(uintptr(unsafe.Pointer(c)), false)
	if engine.Tracing() {
		engine.NoteAt(uintptr(unsafe.Pointer(c)), "Load", "->", p)
	}
	return p
}

func (c *Cell[T]) Store(v *T) {
	engine.PointAt(uintptr(unsafe.Pointer(c)), true)
	c.v.Store(v)
	engine.WeakCell(uintptr(unsafe.Pointer(c)), true)
	if engine.Tracing() {
		engine.NoteAt(uintptr(unsafe.Pointer(c)), "Store", v)
	}
}

// Take is one scheduling point, a swap: the slot is only ever taken by
// the consumer that claimed it, so splitting it would add schedules
// without adding behaviours.
func (c *Cell[T]) Take() *T {
	engine.PointAt(uintptr(unsafe.Pointer(c)), true)
	p := c.v.Swap(nil)
	engine.WeakCell(uintptr(unsafe.Pointer(c)), true)
	if engine.Tracing() {
		engine.NoteAt(uintptr(unsafe.Pointer(c)), "Swap", (*T)(nil), "->", p)
	}
	return p
}

func (c *Cell[T]) Peek() *T { touch(unsafe.Pointer(c), false); return c.v.Load() }
