package sched

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/impl/internal/debugcheck"
)

// Recycling the records of Go tasks.
//
// A spawn's one allocation is its task record. For a task spawned by Go
// the record can be reused as soon as a worker took it from its queue,
// because from then on nothing but that worker can reach it:
//
//   - Go returns no JoinHandle, so no Wait holds the record;
//   - a Func never sees a Context (runDetached calls it without one), so
//     it cannot take a Waker of itself, and no timer holds it;
//   - the worker took it out of its only queue, and a Func runs once, to
//     completion: nothing puts it back.
//
// So the worker moves the func out, puts the record in its spare list and
// only then runs the func (runDetached), and a func that spawns Go tasks
// reuses the record it came in.
//
// The invariant: a detached record is always in state scheduled, the state
// a spawn's record is born in. runDetached makes no transition, so there is
// nothing to reset, and a wake, were one to reach the record, would be
// absorbed (only idle -> scheduled enqueues). The one exit is shutdown's
// drain cancelling a record still in a queue; a cancelled record is never
// recycled.
//
// The lists. Each worker keeps its spare records in an owner-only slice,
// so the common case (a worker spawning what it ran) takes no lock and no
// atomic. A spawner whose children are stolen runs dry while the thieves'
// lists fill, so records flow back through one shared stack under a
// mutex, a batch of spareBatch at a time: a thief holding 2*spareBatch
// gives one batch away, a spawner with none takes one batch (it looks at
// a lock-free size hint first, so an empty stack costs no lock). The shared
// stack keeps at most maxSharedSpare records; beyond that, records are
// left to the garbage collector. Records spawned from outside (Runtime.Go)
// are allocated, and join the lists when a worker takes them to run.
//
// Records in a spare list are in state scheduled and hold no task (poll is
// nil, so a finished task's closure is not kept alive).
const (
	// spareBatch is how many records move between a worker and the
	// shared stack at once: one lock per 64 spawns at worst (2 under the
	// explorer, so that records reach the shared stack a few spawns into
	// a scenario).
	spareBatch = 64*(1-debugcheck.IsExplore) + 2*debugcheck.IsExplore
	// maxSharedSpare bounds the shared stack: 16 Ki records of 48 bytes,
	// 768 KiB at most, enough for the 10,000 tasks in flight of a spawn
	// burst to be spawned again without allocating.
	maxSharedSpare = 1 << 14
)

// spareRecords is the shared stack of recycled records.
type spareRecords struct {
	mu    sync.Mutex
	stack []*task
	// size mirrors len(stack), so that a worker finding the stack empty
	// does not take the lock: while every spare record sits in other
	// workers' lists, each Go of this worker would otherwise lock.
	size atomic.Int32
}

// newDetached returns a record for a Go task running f, recycled if this
// worker has one (or can take a batch from the shared stack).
func (w *worker) newDetached(f func()) *task {
	if len(w.spare) == 0 {
		w.spare = w.rt.spare.take(w.spare)
	}
	n := len(w.spare)
	if n == 0 {
		return w.rt.newGoRecord(f)
	}
	t := w.spare[n-1]
	w.spare[n-1] = nil
	w.spare = w.spare[:n-1]
	// The record is scheduled already (recycle), and the ring push that
	// follows publishes this write together with the record.
	t.poll = Func(f)
	return t
}

// newGoRecord allocates the record of a Go task running f.
func (rt *Runtime) newGoRecord(f func()) *task {
	return &task{detached: true, rt: rt, poll: Func(f)}
}

// recycle puts the record of a Go task that a worker took from a queue
// (and is about to run) into this worker's spare list. Its state is
// scheduled still: runDetached makes no transition.
func (w *worker) recycle(t *task) {
	t.poll = nil
	w.spare = append(w.spare, t)
	if len(w.spare) == 2*spareBatch {
		w.spare = w.rt.spare.give(w.spare)
	}
}

// take moves up to spareBatch records from the shared stack to the end of
// dst.
func (s *spareRecords) take(dst []*task) []*task {
	// A hint, read without the lock; relaxed: a stale zero only means
	// one more allocation, a stale non-zero one more lock.
	if s.size.LoadRelaxed() == 0 {
		return dst
	}
	s.mu.Lock()
	n := len(s.stack)
	k := min(n, spareBatch)
	dst = append(dst, s.stack[n-k:]...)
	clear(s.stack[n-k:])
	s.stack = s.stack[:n-k]
	s.size.StoreRelaxed(int32(n - k)) // the hint; relaxed (under the lock)
	s.mu.Unlock()
	// The batch was recycled by other workers, so each record is in
	// another core's cache, and the spawns that use them write each
	// one. Writing them here, together (and out of the lock), overlaps
	// those cache-line transfers instead of stalling on one per spawn:
	// a store of the value the field has already.
	for _, t := range dst[len(dst)-k:] {
		t.detached = true
	}
	return dst
}

// drop empties the stack (the runtime has terminated: nobody spawns).
func (s *spareRecords) drop() {
	s.mu.Lock()
	s.stack = nil
	s.size.StoreRelaxed(0) // the hint; relaxed (under the lock)
	s.mu.Unlock()
}

// give moves the last spareBatch records of src to the shared stack (or
// drops them if it is full) and returns what is left of src.
func (s *spareRecords) give(src []*task) []*task {
	keep := len(src) - spareBatch
	s.mu.Lock()
	if len(s.stack)+spareBatch <= maxSharedSpare {
		s.stack = append(s.stack, src[keep:]...)
		s.size.StoreRelaxed(int32(len(s.stack))) // the hint; relaxed (under the lock)
	}
	s.mu.Unlock()
	clear(src[keep:])
	return src[:keep]
}
