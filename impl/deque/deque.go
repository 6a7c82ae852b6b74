package deque

import (
	"errors"

	"github.com/wsched/wsched/explore/atomic"

	"golang.org/x/sys/cpu"

	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/internal/goid"
)

// StealResult is the outcome of Steal.
type StealResult uint8

const (
	// Empty: the deque held no element when the thief looked.
	Empty StealResult = iota
	// Success: the thief took the top element.
	Success
	// Retry: the thief lost a race for the top element (to another thief
	// or to the owner taking the last element). The deque may still hold
	// elements; trying again is reasonable.
	Retry
)

func (r StealResult) String() string {
	switch r {
	case Empty:
		return "Empty"
	case Success:
		return "Success"
	case Retry:
		return "Retry"
	}
	return "StealResult(?)"
}

// DefaultCapacity is the initial ring size New uses when given 0.
const DefaultCapacity = 64

// MaxCapacity is the largest capacity New accepts: 2^30 slots, 8 GiB of
// pointers. The ring grows on demand, so a large start is never needed.
const MaxCapacity = 1 << 30

// ErrCapacity is returned by New for a capacity that is negative, not a
// power of two, or above MaxCapacity.
var ErrCapacity = errors.New("deque: capacity must be a power of two up to MaxCapacity (or 0 for the default)")

// twoOwners is the panic of a second goroutine in the owner-only
// operations (Push, Pop) of one deque, in a build with the race detector.
const twoOwners = "deque: two goroutines in a Deque's owner-only operations (Push, Pop) at once: a Deque has one owner goroutine (two pushers lose elements); other goroutines Steal"

// Deque is a Chase-Lev work-stealing deque of *T. The zero value is an
// empty deque with DefaultCapacity, made on its first Push.
//
// The logical contents are the indices [top, bottom): top is the oldest
// element (where thieves take), bottom-1 the newest (where the owner pushes
// and pops). top only grows, and only by a successful CAS. bottom is written
// only by the owner. During a Pop, bottom is briefly one less than the
// element count suggests: the owner "reserves" index bottom-1 before it looks
// at top, and that reservation is what keeps a thief off the element the
// owner is taking (see Pop).
type Deque[T any] struct {
	// top is the thieves' end, advanced by CAS (thieves, and the owner
	// when it takes the last element).
	top atomic.Int64
	_   cpu.CacheLinePad
	// bottom is the owner's end; only the owner stores it.
	bottom atomic.Int64
	// buf is the current ring. Only the owner stores it (on growth).
	buf atomic.Pointer[ring[T]]
	// cleared is the owner's private mark: slots of indices below it that
	// thieves have taken have been set to nil (see clearStolen).
	cleared int64
	// owner catches two owners at once in a race-detector build (empty
	// otherwise: internal/goid).
	owner goid.Guard
	_     cpu.CacheLinePad
}

// New returns an empty deque whose ring starts with the given capacity (a
// power of two; 0 means DefaultCapacity). The ring grows as needed.
func New[T any](capacity int) (*Deque[T], error) {
	if capacity == 0 {
		capacity = DefaultCapacity
	}
	if capacity < 0 || capacity > MaxCapacity || capacity&(capacity-1) != 0 {
		return nil, ErrCapacity
	}
	d := &Deque[T]{}
	d.buf.StoreRelaxed(newRing[T](int64(capacity))) // before any sharing: no ordering needed
	return d, nil
}

// Push adds v at the bottom. Owner only. It never fails: a full ring is
// replaced by one twice the size.
func (d *Deque[T]) Push(v *T) {
	d.owner.Enter(twoOwners)
	// Relaxed: bottom is the owner's own variable.
	b := d.bottom.LoadRelaxed()
	// Acquire: observes how far thieves have advanced, so the
	// full check is not stale in the unsafe direction: top only grows, so an
	// old value makes the deque look fuller, never emptier, and the acquire
	// pairs with the thieves' CAS so their reads of those slots happen
	// before we overwrite them.
	t := d.top.LoadAcquire()
	// Relaxed: the owner is the only writer of buf.
	r := d.buf.LoadRelaxed()
	if r == nil {
		r = d.firstRing() // the zero Deque
	}
	if b-t >= r.capacity() {
		r = d.grow(r, t, b)
	}
	d.clearStolen(r, t, b)
	chaos.Point()
	r.put(b, v)
	chaos.Point()
	// A release fence, then a relaxed store of bottom (Lê et al.): the
	// fence publishes the slot just written (and a ring grow made) to a
	// thief whose acquire load of bottom reads b+1 or later.
	atomic.FenceRelease()
	d.bottom.StoreRelaxed(b + 1)
	d.owner.Exit()
}

// firstRing makes the ring of a zero Deque, at its first Push. Thieves read
// buf only after a load of bottom that shows an element, and the element's
// publication (Push's release store of bottom) comes after this store.
func (d *Deque[T]) firstRing() *ring[T] {
	r := newRing[T](DefaultCapacity)
	// Relaxed would do: Push's release fence before bottom publishes it.
	d.buf.StoreRelaxed(r)
	return r
}

// grow replaces the ring with one twice the size holding [t, b).
func (d *Deque[T]) grow(r *ring[T], t, b int64) *ring[T] {
	n := r.grown(t, b)
	// Release: publishes the copied slots: a thief that loads
	// this ring (after acquiring a bottom published later) reads them.
	// The old ring is not touched again, so thieves still reading it
	// see the values it had; their CAS on top decides if those count.
	d.buf.StoreRelease(n)
	return n
}

// clearStolen sets to nil the slots of elements thieves have taken since the
// last call, so the ring does not keep them reachable. A thief cannot clear
// its own slot: after its CAS the owner may already have reused it.
//
// Indices [cleared, t) have been stolen (top passed them). Only those at or
// above b-capacity still sit in their slot: an index below that had its slot
// overwritten by a later push. Clearing index i cannot hit a live element,
// because live indices are in [t, b] and i+capacity > b. A thief with a
// stale top that reads a cleared slot gets nil, and then fails its CAS
// because top has moved past i.
func (d *Deque[T]) clearStolen(r *ring[T], t, b int64) {
	lo := max(d.cleared, b-r.capacity())
	for i := lo; i < t; i++ {
		r.put(i, nil)
	}
	d.cleared = max(d.cleared, t)
}

// Pop removes and returns the bottom (newest) element. Owner only. ok is
// false when the deque was empty, or when its last element went to a thief.
func (d *Deque[T]) Pop() (v *T, ok bool) {
	d.owner.Enter(twoOwners) // left at each return
	// Relaxed: bottom is the owner's own variable.
	b := d.bottom.LoadRelaxed() - 1
	// Relaxed: the owner is the only writer of buf.
	r := d.buf.LoadRelaxed()
	// Reserve index b before looking at top.
	//
	// A relaxed store followed by a seq_cst fence (Lê et al.): this store
	// and the load of top below need StoreLoad order. It is the
	// heart of the algorithm. Owner and thief each write their own end and
	// then read the other's (owner: bottom then top; thief: top by CAS, then
	// its next read of bottom). With StoreLoad order on both sides, at least
	// one of them sees the other's write: if both went for the same element
	// and neither saw the other, the owner would read an old top and take
	// index b without a CAS while a thief read the old bottom and took the
	// same index by CAS: one element returned twice. Release/acquire alone
	// cannot forbid that (it is the store-buffering shape). In Go every
	// atomic is seq_cst, so keeping the store before the load is enough
	// and the fence is no instruction; moving the load of top above this
	// store brings the bug back.
	d.bottom.StoreRelaxed(b)
	chaos.Point()
	atomic.FenceSeqCst() // the owner's half of the StoreLoad pair: the reservation above before the load of top below
	// Relaxed, after the seq_cst fence (Lê et al.): observes every steal
	// that completed before our reservation.
	t := d.top.LoadRelaxed()
	if t > b {
		// Empty. Undo the reservation.
		// Relaxed: only the owner reads bottom to decide
		// anything about its own pushes; thieves that see the
		// decremented value just report Empty, which was true.
		d.bottom.StoreRelaxed(b + 1)
		d.owner.Exit()
		return nil, false
	}
	v = r.get(b)
	if t < b {
		// More than one element: thieves are confined to indices below b
		// (any thief that reads bottom from now on sees b), so the
		// element is ours without a CAS.
		r.put(b, nil)
		d.owner.Exit()
		return v, true
	}
	// t == b: the last element, which a thief that read bottom before our
	// reservation may be taking at this very moment. Settle it the way the
	// thieves do, with a CAS on top.
	chaos.Point()
	// Seq_cst on success, relaxed on failure (Lê et al.). On success it is ordered with the thieves' CASes on top (a single
	// modification order decides who took index t); on failure we learned
	// a thief got there first and need nothing else from it.
	ok = d.top.CompareAndSwapSeqCstRelaxed(t, t+1)
	// Whoever won, the deque is now empty with top == b+1: restore bottom to
	// match. Relaxed (as in Lê et al.): a thief that still sees b
	// reports Empty, which is true.
	d.bottom.StoreRelaxed(b + 1)
	if !ok {
		d.owner.Exit()
		return nil, false
	}
	r.put(b, nil)
	d.owner.Exit()
	return v, true
}

// Steal tries to take the top (oldest) element. Any goroutine may call it.
func (d *Deque[T]) Steal() (v *T, res StealResult) {
	// Acquire, then a seq_cst fence before the load of bottom (Lê et
	// al.). The acquire pairs with earlier thieves' CAS; the fence is the
	// thief's half of the StoreLoad pairing described in Pop: it orders
	// this read of top (and the CAS that follows) against the owner's
	// reservation of bottom.
	t := d.top.LoadAcquire()
	chaos.Point()
	atomic.FenceSeqCst() // the thief's half of the StoreLoad pair described in Pop
	// Acquire: pairs with the owner's release store of bottom in
	// Push: the slots of indices below b, and the ring holding them, are
	// visible to us.
	b := d.bottom.LoadAcquire()
	if t >= b {
		return nil, Empty
	}
	// Acquire (Lê et al. write consume: we only need what the
	// pointer points to). Loaded after bottom, so it is the ring that held
	// index t when bottom was published, or a later one that copied it.
	r := d.buf.LoadAcquire()
	v = r.get(t)
	chaos.Point()
	// Seq_cst on success, relaxed on failure (Lê et al.). Success
	// claims index t: it is the single point where a thief and the owner
	// (last element) or two thieves decide who owns it.
	if !d.top.CompareAndSwapSeqCstRelaxed(t, t+1) {
		return nil, Retry
	}
	return v, Success
}

// Len returns the number of elements at some moment during the call. It is a
// hint for whoever decides whether to steal; it may be stale by the time it
// returns, and it may be -1 for a moment while the owner pops from an empty
// deque (it returns 0 then).
func (d *Deque[T]) Len() int {
	// Acquire on both, top first: a thief's view (as in Steal).
	t := d.top.LoadAcquire()
	b := d.bottom.LoadAcquire() // observes the owner's pushes, after top as in Steal
	if b <= t {
		return 0
	}
	return int(b - t)
}

// Capacity returns the size of the current ring. Owner only (others may call
// it, but the value may be replaced at any time).
func (d *Deque[T]) Capacity() int {
	// Acquire for non-owners (the ring pointer is published by a release
	// store in grow); relaxed would do for the owner.
	r := d.buf.LoadAcquire()
	if r == nil {
		return DefaultCapacity // a zero Deque: its first Push makes a ring this size
	}
	return int(r.capacity())
}
