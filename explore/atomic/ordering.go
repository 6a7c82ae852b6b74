package atomic

import "github.com/wsched/wsched/explore/internal/order"

// Ordering is a C11 memory ordering. Every atomic operation of impl/
// names the ordering it needs in the name of its method: the weakest
// ordering under which the algorithm around it stays correct in a
// language whose atomics are weaker than Go's, as C11's _explicit
// functions and Rust's atomics name it in an argument, and as Go's own
// runtime does in its internal atomics (LoadAcq, StoreRel, CasRel):
//
//	r.tail.StoreRelease(tail + 1)
//	h := r.head.LoadAcquire()
//	r.head.CompareAndSwapAcqRelRelaxed(h, next) // success, then failure
//	atomic.FenceSeqCst()
//
// In Go the ordering changes nothing at run time: sync/atomic is
// sequentially consistent, stronger than any ordering named, and every
// method compiles to the instruction sync/atomic's does (off.go). It is
// there to be read and checked: a reader takes it as the line's
// statement of what the operation publishes or observes; the explorer's
// weak mode (explore/internal/weak) can run each operation exactly as strong as
// its name says, and an audit can weaken one name at a time.
//
// The methods exist only for the orderings an operation may have, so the
// compiler rejects the rest:
//
//	Load                          Relaxed, Acquire, SeqCst
//	Store                         Relaxed, Release, SeqCst
//	Swap, Add, And, Or            Relaxed, Acquire, Release, AcqRel, SeqCst
//	CompareAndSwap success        any of the five
//	CompareAndSwap failure        Relaxed, Acquire, SeqCst
//	Fence                         Acquire, Release, AcqRel, SeqCst
//
// A failed compare-and-swap is a load: its failure ordering says what it
// may observe (Go's CompareAndSwap does not return the value it read, so
// a failure usually needs Relaxed: the caller loads again).
type Ordering = order.Ordering

// The orderings, weakest first (Acquire and Release are incomparable).
const (
	// Relaxed: atomicity and the location's single modification order;
	// no ordering of other memory.
	Relaxed = order.Relaxed
	// Acquire (loads, the read of an RMW, fences): reading a Release
	// store makes everything before that store visible after this load.
	Acquire = order.Acquire
	// Release (stores, the write of an RMW, fences): everything before it
	// is visible to an Acquire that reads it.
	Release = order.Release
	// AcqRel: both, for read-modify-writes and fences.
	AcqRel = order.AcqRel
	// SeqCst: AcqRel, and one total order of all SeqCst operations and
	// fences that every thread agrees on (what a Dekker pair, "store
	// mine, then load yours", needs).
	SeqCst = order.SeqCst
)
