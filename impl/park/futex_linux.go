//go:build linux

package park

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/internal/goid"
)

// Futex word values.
const (
	futexEmpty    uint32 = 0 // no token, owner not sleeping
	futexSleeping uint32 = 1 // owner is (about to be) in FUTEX_WAIT
	futexNotified uint32 = 2 // a token is waiting for the owner
)

// Futex system call operations (linux/futex.h). The private flag tells the
// kernel the word is not shared between processes, which makes the hash
// lookup cheaper.
const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

// Futex is a Parker built on a 32-bit word and the futex system call.
//
// The word is empty, sleeping or notified. Unpark swaps in notified and
// issues FUTEX_WAKE only if the owner announced it was sleeping, so an
// Unpark with nobody asleep costs one atomic swap and no system call.
//
// The race detector does not know that FUTEX_WAKE happens before the
// FUTEX_WAIT it ends. After every return from the system call the owner
// therefore re-reads the word with an atomic operation; the edge the
// detector (and a port to weaker atomics) relies on is Unpark's swap
// (release) to that read (acquire).
//
// The goroutine calling Park blocks its OS thread in the kernel. Through
// an ordinary system call the runtime would leave the thread's P (Go's
// processor) attached to it until sysmon retakes it, tens of microseconds
// to 10 ms later, and goroutines queued on that P would wait meanwhile;
// futexWait therefore tells the runtime the call blocks, and the P goes to
// another thread at once. Before that, Park yields the P once (Gosched), so
// that goroutines already queued on it run on this thread rather than on
// one woken for the handoff. A wake then costs an OS thread's wake-up and
// its search for a free P, where the channel parker's costs a goroutine
// switch: the futex parker is the slower of the two in Go (see
// docs/performance.md). Nothing here needs a particular thread: the word
// is ordinary Go memory, and FUTEX_WAIT and FUTEX_WAKE may come from any
// thread of the process. So the owner should not lock its OS thread
// (runtime.LockOSThread): that turns every Gosched of the goroutine, and
// every wake that finds its P taken, into a handoff between OS threads.
type Futex struct {
	word atomic.Uint32
	_    [60]byte // keep the word alone on its cache line
	// ts is the owner's timeout buffer, kept here so that a timed park
	// does not allocate.
	ts unix.Timespec
	// owner catches two goroutines in Park at once in a race-detector
	// build (empty otherwise: internal/goid).
	owner goid.Guard
}

// NewFutex returns a Futex with no token.
func NewFutex() (*Futex, error) {
	return &Futex{}, nil
}

// Park implements Parker.
func (p *Futex) Park(timeout time.Duration) bool {
	p.owner.Enter(twoParkers) // left at each return (no defer: it costs the fast path)
	// Consume a token that is already there. Acquire: pairs with the
	// release swap in Unpark. A failure learns only that there is none.
	if p.word.CompareAndSwapAcquireRelaxed(futexNotified, futexEmpty) {
		p.owner.Exit()
		return true
	}
	// Let the goroutines queued on this P run here before the thread
	// blocks (see the type comment): a goroutine the worker readied just
	// before parking (a task's joiner, the benchmark's waiter) then runs
	// without a thread woken for it. Then look for the token again, as
	// above (acquire, pairs with Unpark's release swap).
	sync.Gosched()
	if p.word.CompareAndSwapAcquireRelaxed(futexNotified, futexEmpty) {
		p.owner.Exit()
		return true
	}
	// Announce that we are going to sleep: relaxed, it publishes
	// nothing (Unpark only learns from it to call futexWake). If Unpark
	// slipped in between the two CASes the word is notified and this
	// CAS fails: acquire on failure, it reads the token Unpark
	// published.
	if !p.word.CompareAndSwapRelaxedAcquire(futexEmpty, futexSleeping) {
		// The only other value is notified (one owner, so never
		// sleeping here). Consume the token the failed CAS acquired:
		// relaxed, only we write empty.
		p.word.StoreRelaxed(futexEmpty)
		p.owner.Exit()
		return true
	}
	var deadline int64
	if timeout > 0 {
		deadline = sync.Nanotime() + int64(timeout)
	}
	for {
		var ts *unix.Timespec
		if timeout > 0 {
			left := time.Duration(deadline - sync.Nanotime())
			if left <= 0 {
				// Timed out. Take back the sleeping announcement;
				// if that fails Unpark got there first and the
				// token is ours: acquire on failure, which read it.
				// acq_rel on success, as written in the design.
				if p.word.CompareAndSwapAcqRelAcquire(futexSleeping, futexEmpty) {
					p.owner.Exit()
					return false
				}
				p.word.StoreRelaxed(futexEmpty) // consumes the token: only we write empty
				p.owner.Exit()
				return true
			}
			p.ts = unix.NsecToTimespec(int64(left))
			ts = &p.ts
		}
		futexWait(&p.word, futexSleeping, ts)
		// Re-read the word atomically: this is the happens-before edge
		// from Unpark (see the type comment). Acquire.
		if p.word.CompareAndSwapAcquireRelaxed(futexNotified, futexEmpty) { // a failure loops
			p.owner.Exit()
			return true
		}
		// Spurious return (signal, EAGAIN) or timeout: loop, the
		// deadline check above decides.
	}
}

// Unpark implements Parker.
func (p *Futex) Unpark() {
	// Publish the token. Release: everything the caller wrote before
	// Unpark is visible to the owner after its acquiring read.
	if p.word.SwapRelease(futexNotified) == futexSleeping {
		futexWake(&p.word)
	}
}

// FutexSupported reports whether NewFutex works on this system.
const FutexSupported = true
