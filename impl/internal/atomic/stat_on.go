//go:build explore

package atomic

import (
	"sync/atomic"
	"unsafe"
)

// The Stat types of the explore build: sync/atomic's, with no scheduling
// point (as in every build), but each access recorded as an access of the
// step it belongs to (explorer.Touch), so that the reduced search orders a
// step that reads a counter (the monitor's look at a worker's ticks, the
// credit ledger's check) against the steps that move it.
//
// Their ordered operations (LoadSeqCst, StoreRelaxed...: on.go, written
// by gen.go on the lowercase methods below) are the same, and in the
// weak-memory mode also operations of the memory model, as strong as
// their names, as a fence is without being a scheduling point: a value
// the code decides by is named and checked, and its steps stay the ones
// the explorer had (the bare Load, Store... read and write the memory
// alone, for counters nothing decides by).

// StatInt32 is sync/atomic's Int32; each access a touch.
type StatInt32 struct{ v atomic.Int32 }

func (x *StatInt32) Load() int32 {
	touch(unsafe.Pointer(x), false)
	return x.v.Load()
}

func (x *StatInt32) Store(val int32) {
	touch(unsafe.Pointer(x), true)
	x.v.Store(val)
}

func (x *StatInt32) Swap(new int32) int32 {
	touch(unsafe.Pointer(x), true)
	return x.v.Swap(new)
}

func (x *StatInt32) CompareAndSwap(old, new int32) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.CompareAndSwap(old, new)
}

func (x *StatInt32) Add(delta int32) int32 {
	touch(unsafe.Pointer(x), true)
	return x.v.Add(delta)
}

// StatInt64 is sync/atomic's Int64; each access a touch.
type StatInt64 struct{ v atomic.Int64 }

func (x *StatInt64) Load() int64 {
	touch(unsafe.Pointer(x), false)
	return x.v.Load()
}

func (x *StatInt64) Store(val int64) {
	touch(unsafe.Pointer(x), true)
	x.v.Store(val)
}

func (x *StatInt64) Swap(new int64) int64 {
	touch(unsafe.Pointer(x), true)
	return x.v.Swap(new)
}

func (x *StatInt64) CompareAndSwap(old, new int64) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.CompareAndSwap(old, new)
}

func (x *StatInt64) Add(delta int64) int64 {
	touch(unsafe.Pointer(x), true)
	return x.v.Add(delta)
}

// StatUint32 is sync/atomic's Uint32; each access a touch.
type StatUint32 struct{ v atomic.Uint32 }

func (x *StatUint32) Load() uint32 {
	touch(unsafe.Pointer(x), false)
	return x.v.Load()
}

func (x *StatUint32) Store(val uint32) {
	touch(unsafe.Pointer(x), true)
	x.v.Store(val)
}

func (x *StatUint32) Swap(new uint32) uint32 {
	touch(unsafe.Pointer(x), true)
	return x.v.Swap(new)
}

func (x *StatUint32) CompareAndSwap(old, new uint32) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.CompareAndSwap(old, new)
}

func (x *StatUint32) Add(delta uint32) uint32 {
	touch(unsafe.Pointer(x), true)
	return x.v.Add(delta)
}

// StatUint64 is sync/atomic's Uint64; each access a touch.
type StatUint64 struct{ v atomic.Uint64 }

func (x *StatUint64) Load() uint64 {
	touch(unsafe.Pointer(x), false)
	return x.v.Load()
}

func (x *StatUint64) Store(val uint64) {
	touch(unsafe.Pointer(x), true)
	x.v.Store(val)
}

func (x *StatUint64) Swap(new uint64) uint64 {
	touch(unsafe.Pointer(x), true)
	return x.v.Swap(new)
}

func (x *StatUint64) CompareAndSwap(old, new uint64) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.CompareAndSwap(old, new)
}

func (x *StatUint64) Add(delta uint64) uint64 {
	touch(unsafe.Pointer(x), true)
	return x.v.Add(delta)
}

// StatBool is sync/atomic's Bool; each access a touch.
type StatBool struct{ v atomic.Bool }

func (x *StatBool) Load() bool {
	touch(unsafe.Pointer(x), false)
	return x.v.Load()
}

func (x *StatBool) Store(val bool) {
	touch(unsafe.Pointer(x), true)
	x.v.Store(val)
}

func (x *StatBool) Swap(new bool) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.Swap(new)
}

func (x *StatBool) CompareAndSwap(old, new bool) bool {
	touch(unsafe.Pointer(x), true)
	return x.v.CompareAndSwap(old, new)
}

func (x *StatInt32) load(o Ordering) int32 { return statLoad(&x.v, unsafe.Pointer(x), o) }

func (x *StatInt32) store(val int32, o Ordering) { statStore(&x.v, unsafe.Pointer(x), val, o) }

func (x *StatInt32) swap(new int32, o Ordering) int32 {
	return statSwap(&x.v, unsafe.Pointer(x), new, o)
}

func (x *StatInt32) compareAndSwap(old, new int32, success, failure Ordering) bool {
	return statCompareAndSwap(&x.v, unsafe.Pointer(x), old, new, success, failure)
}

func (x *StatInt32) add(delta int32, o Ordering) int32 {
	return statAdd(&x.v, unsafe.Pointer(x), delta, o)
}

func (x *StatInt32) and(mask int32, o Ordering) int32 {
	return statAnd(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatInt32) or(mask int32, o Ordering) int32 { return statOr(&x.v, unsafe.Pointer(x), mask, o) }

func (x *StatInt64) load(o Ordering) int64 { return statLoad(&x.v, unsafe.Pointer(x), o) }

func (x *StatInt64) store(val int64, o Ordering) { statStore(&x.v, unsafe.Pointer(x), val, o) }

func (x *StatInt64) swap(new int64, o Ordering) int64 {
	return statSwap(&x.v, unsafe.Pointer(x), new, o)
}

func (x *StatInt64) compareAndSwap(old, new int64, success, failure Ordering) bool {
	return statCompareAndSwap(&x.v, unsafe.Pointer(x), old, new, success, failure)
}

func (x *StatInt64) add(delta int64, o Ordering) int64 {
	return statAdd(&x.v, unsafe.Pointer(x), delta, o)
}

func (x *StatInt64) and(mask int64, o Ordering) int64 {
	return statAnd(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatInt64) or(mask int64, o Ordering) int64 { return statOr(&x.v, unsafe.Pointer(x), mask, o) }

func (x *StatUint32) load(o Ordering) uint32 { return statLoad(&x.v, unsafe.Pointer(x), o) }

func (x *StatUint32) store(val uint32, o Ordering) { statStore(&x.v, unsafe.Pointer(x), val, o) }

func (x *StatUint32) swap(new uint32, o Ordering) uint32 {
	return statSwap(&x.v, unsafe.Pointer(x), new, o)
}

func (x *StatUint32) compareAndSwap(old, new uint32, success, failure Ordering) bool {
	return statCompareAndSwap(&x.v, unsafe.Pointer(x), old, new, success, failure)
}

func (x *StatUint32) add(delta uint32, o Ordering) uint32 {
	return statAdd(&x.v, unsafe.Pointer(x), delta, o)
}

func (x *StatUint32) and(mask uint32, o Ordering) uint32 {
	return statAnd(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatUint32) or(mask uint32, o Ordering) uint32 {
	return statOr(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatUint64) load(o Ordering) uint64 { return statLoad(&x.v, unsafe.Pointer(x), o) }

func (x *StatUint64) store(val uint64, o Ordering) { statStore(&x.v, unsafe.Pointer(x), val, o) }

func (x *StatUint64) swap(new uint64, o Ordering) uint64 {
	return statSwap(&x.v, unsafe.Pointer(x), new, o)
}

func (x *StatUint64) compareAndSwap(old, new uint64, success, failure Ordering) bool {
	return statCompareAndSwap(&x.v, unsafe.Pointer(x), old, new, success, failure)
}

func (x *StatUint64) add(delta uint64, o Ordering) uint64 {
	return statAdd(&x.v, unsafe.Pointer(x), delta, o)
}

func (x *StatUint64) and(mask uint64, o Ordering) uint64 {
	return statAnd(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatUint64) or(mask uint64, o Ordering) uint64 {
	return statOr(&x.v, unsafe.Pointer(x), mask, o)
}

func (x *StatBool) load(o Ordering) bool { return statLoad(&x.v, unsafe.Pointer(x), o) }

func (x *StatBool) store(val bool, o Ordering) { statStore(&x.v, unsafe.Pointer(x), val, o) }

func (x *StatBool) swap(new bool, o Ordering) bool { return statSwap(&x.v, unsafe.Pointer(x), new, o) }

func (x *StatBool) compareAndSwap(old, new bool, success, failure Ordering) bool {
	return statCompareAndSwap(&x.v, unsafe.Pointer(x), old, new, success, failure)
}
