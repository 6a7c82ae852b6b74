//go:build race && !explore

package queue

import (
	"runtime"
	"sync/atomic"
)

// globalLock is Global's lock in a race build: a test-and-set lock on a
// sync/atomic word, where other builds have a sync.Mutex (globallock.go).
//
// Why. In the fast race build (impl/... compiled with -race=false,
// docs/performance.md) a sync.Mutex is still seen by the detector: its
// Lock and Unlock are two atomics and a synchronization of the detector's
// each, four detector calls per acquisition, on every remote spawn and
// every batch taken from the queue. Compiled outside the detector, the
// atomics here are plain instructions and the detector sees nothing, as
// it sees nothing of the rings' and the slots' atomics; the edges users
// rely on through the queue (a remote spawn before the task's first poll)
// are annotated on the task itself (impl/internal/raceedge). In the fully
// instrumented race build (`go test -race ./...`) the same atomics are
// calls the detector treats as synchronization: the compare-and-swap that
// takes the lock acquires what the store that released it published, so Global's
// own accesses under the lock are ordered for the detector as they are
// under a mutex, with two detector calls per acquisition instead of four.
// A compare-and-swap, not a swap, takes it: a failed compare-and-swap only
// acquires, where a failed swap would also release, an edge from each
// waiter to the next holder that a mutex does not give and that could
// hide a race from the detector.
//
// A waiter yields (runtime.Gosched) instead of sleeping: the lock is held
// for a bounded copy of task pointers, and this lock exists only in race
// builds, which are test builds.
type globalLock struct {
	held atomic.Uint32
}

// Lock takes the lock, yielding the processor while another holds it.
func (l *globalLock) Lock() {
	for !l.casAcquire() {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *globalLock) Unlock() { l.storeRelease() }

// casAcquire takes the word from free to held. Acquire on success:
// observes what the last storeRelease published (sync/atomic's
// compare-and-swap is sequentially consistent, stronger than needed).
func (l *globalLock) casAcquire() bool { return l.held.CompareAndSwap(0, 1) }

// storeRelease frees the word. Release: publishes the holder's writes
// under the lock to the next casAcquire (sync/atomic's store is
// sequentially consistent, stronger than needed).
func (l *globalLock) storeRelease() { l.held.Store(0) }
