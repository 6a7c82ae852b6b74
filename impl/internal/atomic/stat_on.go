//go:build explore

package atomic

import (
	"sync/atomic"
	"unsafe"
)

// The Stat types of the explore build: sync/atomic's, with no scheduling
// point (as in every build), but each access recorded as an access of the
// step it belongs to (explore.Touch), so that the reduced search orders a
// step that reads a counter (the monitor's look at a worker's ticks, the
// credit ledger's check) against the steps that move it.

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
