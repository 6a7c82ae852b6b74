//go:build race && !explore

package queue

import (
	"runtime"

	"github.com/wsched/wsched/explore/atomic"
)

// globalLock is Global's lock in a race build (without the explore tag,
// whose builds keep the explorer's sync.Mutex): a test-and-set lock on an
// atomic word (explore/atomic, which outside the explorer is sync/atomic
// and inlines), where other builds have a sync.Mutex (globallock.go).
//
// Why. In the fast race build (impl/... compiled with -race=false,
// docs/performance.md) a sync.Mutex is still seen by the detector: its
// Lock and Unlock inline internal/sync's, compiled with the detector, two
// atomics and a synchronization of the detector's each: four detector
// calls per acquisition, on every remote spawn and every batch taken from
// the queue. Compiled outside the detector, the atomics here are plain
// instructions and the detector sees nothing, as it sees nothing of the
// rings' and the slots' atomics; the edges users rely on through the
// queue (a remote spawn before the task's first poll) are annotated on
// the task itself (impl/internal/raceedge). In the fully instrumented race
// build (`go test -race ./...`) the same atomics are calls the detector
// treats as synchronization: the compare-and-swap that takes the lock
// acquires what the store that released it published, so Global's own
// accesses under the lock are ordered for the detector as they are under
// a mutex, with two detector calls per acquisition (and one more per
// failed attempt) instead of four. A compare-and-swap, not a swap, takes
// it: a failed compare-and-swap only acquires, where a failed swap would
// also release, an edge from each waiter to the next holder that a mutex
// does not give and that could hide a race from the detector. (A
// successful one also releases the taker's history to later takers; each
// of them acquires the last unlock, which covers it, so that hides
// nothing a mutex shows.)
//
// A waiter yields (runtime.Gosched) instead of sleeping, and the lock is
// not fair (no starvation mode, as sync.Mutex has; a second Lock by the
// holder spins until the test's timeout, where a mutex's deadlock may be
// reported at once): the lock is held for a bounded copy of task
// pointers, and this lock exists only in race builds, which are test
// builds.
type globalLock struct {
	held atomic.Uint32
}

// Lock takes the lock, yielding the processor while another holds it.
func (l *globalLock) Lock() {
	// Acquire on success: observes what the last Unlock published. A
	// failed attempt writes nothing and only reads.
	for !l.held.CompareAndSwapAcquireRelaxed(0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *globalLock) Unlock() {
	l.held.StoreRelease(0) // release: publishes the holder's writes under the lock
}
