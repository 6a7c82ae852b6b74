//go:build !explore

package atomic

import "sync/atomic"

// Counters and snapshots, never scheduling points (see the package
// comment; stat_on.go under the explore tag). The types and their ordered
// operations, for a value code decides by, are in off.go (gen.go); the
// bare Load, Store, Swap, CompareAndSwap and Add are for counters and
// snapshots that nothing decides by, written as sync/atomic writes its
// own (one inlined call: the machine code of their callers is what it was
// when these were sync/atomic's types).

func (x *StatInt32) Load() int32          { return atomic.LoadInt32(&x.v) }
func (x *StatInt32) Store(val int32)      { atomic.StoreInt32(&x.v, val) }
func (x *StatInt32) Swap(new int32) int32 { return atomic.SwapInt32(&x.v, new) }
func (x *StatInt32) CompareAndSwap(old, new int32) bool {
	return atomic.CompareAndSwapInt32(&x.v, old, new)
}
func (x *StatInt32) Add(delta int32) int32 { return atomic.AddInt32(&x.v, delta) }

func (x *StatInt64) Load() int64          { return atomic.LoadInt64(&x.v) }
func (x *StatInt64) Store(val int64)      { atomic.StoreInt64(&x.v, val) }
func (x *StatInt64) Swap(new int64) int64 { return atomic.SwapInt64(&x.v, new) }
func (x *StatInt64) CompareAndSwap(old, new int64) bool {
	return atomic.CompareAndSwapInt64(&x.v, old, new)
}
func (x *StatInt64) Add(delta int64) int64 { return atomic.AddInt64(&x.v, delta) }

func (x *StatUint32) Load() uint32           { return atomic.LoadUint32(&x.v) }
func (x *StatUint32) Store(val uint32)       { atomic.StoreUint32(&x.v, val) }
func (x *StatUint32) Swap(new uint32) uint32 { return atomic.SwapUint32(&x.v, new) }
func (x *StatUint32) CompareAndSwap(old, new uint32) bool {
	return atomic.CompareAndSwapUint32(&x.v, old, new)
}
func (x *StatUint32) Add(delta uint32) uint32 { return atomic.AddUint32(&x.v, delta) }

func (x *StatUint64) Load() uint64           { return atomic.LoadUint64(&x.v) }
func (x *StatUint64) Store(val uint64)       { atomic.StoreUint64(&x.v, val) }
func (x *StatUint64) Swap(new uint64) uint64 { return atomic.SwapUint64(&x.v, new) }
func (x *StatUint64) CompareAndSwap(old, new uint64) bool {
	return atomic.CompareAndSwapUint64(&x.v, old, new)
}
func (x *StatUint64) Add(delta uint64) uint64 { return atomic.AddUint64(&x.v, delta) }

func (x *StatBool) Load() bool         { return atomic.LoadUint32(&x.v) != 0 }
func (x *StatBool) Store(val bool)     { atomic.StoreUint32(&x.v, b32(val)) }
func (x *StatBool) Swap(new bool) bool { return atomic.SwapUint32(&x.v, b32(new)) != 0 }
func (x *StatBool) CompareAndSwap(old, new bool) bool {
	return atomic.CompareAndSwapUint32(&x.v, b32(old), b32(new))
}
