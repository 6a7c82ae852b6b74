package sched

// Handles spawned from inside a poll are carved out of per-worker slabs.
//
// A spawn with a handle makes one record, the JoinHandle with its task
// inside, and that record must outlive the task for as long as the caller
// keeps the handle: it cannot be recycled (see recycle.go for the records
// that can). What can be saved is the allocator's per-object work: a
// worker allocates handleSlab records at once and hands them out in order,
// with no synchronisation (the slab is owner-only, and the queue push that
// follows publishes each record).
//
// The price is memory: the garbage collector frees a slab only when every
// record in it is unreachable, so one kept handle keeps its whole slab
// (handleSlab * 48 bytes) alive. A finished task drops its Task (finish sets
// poll to nil), so a kept slab does not also keep its neighbours' closures.
// Spawns from outside the runtime (Runtime.Spawn) allocate one record
// each: they come from any goroutine, and a shared slab would need a lock.
const handleSlab = 32

// newHandle returns a zeroed JoinHandle from this worker's slab.
func (w *worker) newHandle() *JoinHandle {
	if len(w.slab) == 0 {
		w.slab = make([]JoinHandle, handleSlab)
	}
	h := &w.slab[0]
	w.slab = w.slab[1:]
	return h
}
