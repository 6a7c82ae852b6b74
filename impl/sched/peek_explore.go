//go:build explore

package sched

// PeekParked returns the idle state's parked bitmap (bit i set: worker i
// parked and unclaimed) as memory holds it: the latest store, read with no
// scheduling point and no operation of the weak-memory model (explore
// build only). A scenario checks its premise with it; Metrics would read
// every counter of the runtime, each an operation that a weak-memory
// search branches on.
func (rt *Runtime) PeekParked() uint64 { return rt.idle.PeekBitmap() }
