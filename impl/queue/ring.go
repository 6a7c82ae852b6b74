package queue

import (
	"github.com/wsched/wsched/explore/atomic"

	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/impl/internal/debugcheck"
	"github.com/wsched/wsched/internal/goid"
	"github.com/wsched/wsched/internal/tlatrace"
)

// Capacity is the number of slots in a Ring: 256. A power of two, so a
// position maps to its slot with a mask. Under the explore build tag it is
// 4, as in Tokio's loom build and the TLA+ models, so that a full ring, an
// overflow and a wrap-around of the slots are a few steps into a scenario.
const Capacity = 256*(1-debugcheck.IsExplore) + 4*debugcheck.IsExplore

// MaxSteal caps one steal, and is how many tasks one overflow moves to the
// Injector: half the ring.
const MaxSteal = Capacity / 2

const mask = Capacity - 1

// claimRetries bounds how often StealInto re-reads head and tail after
// losing its claim CAS before it gives up. A thief that keeps losing is
// racing the owner's pops; it is better to try another victim than to spin.
const claimRetries = 4

// cacheLine is the padding unit that keeps head and tail apart. 128 rather
// than 64 because adjacent-line prefetchers pull cache lines in pairs.
const cacheLine = 128

// Injector is where a full Ring overflows. *Global[T] implements it.
//
// PushBatch must not retain ts, as io.Writer must not retain p: the ring
// hands over its own scratch array (so that an overflow allocates nothing),
// and clears and reuses it as soon as PushBatch returns. An Injector that
// keeps the tasks copies them (or the slice) before returning.
type Injector[T any] interface {
	Push(t *T)
	PushBatch(ts []*T)
}

// Ring is a fixed-size, single-owner, multi-thief FIFO of task pointers.
//
// Positions are uint32 counters that only grow and wrap modulo 2^32; a
// position p lives in slot p&mask. Three positions describe the ring:
//
//	steal <= real <= tail   (mod 2^32, as distances from steal)
//
//	[steal, real)  claimed by a thief that has not finished copying;
//	               only that thief reads or clears these slots
//	[real, tail)   tasks a consumer can still take
//	[tail, steal+Capacity)  free slots the owner may write
//
// Invariants (all distances mod 2^32):
//   - tail-steal <= Capacity: the owner never writes a slot a thief may
//     still read, because Push bounds its room by the steal head.
//   - steal != real only while exactly one steal is in flight; a thief
//     refuses to start another, and the owner does not overflow.
//   - every slot outside [steal, tail) holds nil: whoever takes a task
//     clears its slot before the slot can be reused.
//
// Who writes what: tail is written only by the owner. head is changed by
// CAS only: the owner's Pop and overflow claim, a thief's claim (moves real)
// and its release (moves steal). Slots are written by the owner (Push) and
// cleared by whoever took the task: the owner (Pop, overflow) or the thief
// that claimed it, before it releases.
//
// Slots are not atomics (atomic.Cell): every slot access is ordered by
// the head and tail atomics. The owner writes a free slot, then publishes
// it with the tail store; a consumer reads and clears a slot only after
// the head CAS that claimed it; the owner reuses a slot only after a head
// load that shows it released. Nobody reads a slot before claiming it
// (the classic Chase-Lev deque does, so impl/deque keeps atomic slots).
// -race checks this ordering on every run; a plain move is what a slot
// access costs then, where an atomic store or swap is a locked exchange.
type Ring[T any] struct {
	// head packs [steal (upper 32) | real (lower 32)].
	head atomic.Uint64
	_    [cacheLine - 8]byte
	// tail is the next position the owner writes.
	tail atomic.Uint32
	_    [cacheLine - 4]byte
	buf  [Capacity]atomic.Cell[T]
	// owner catches two owners at once in a race-detector build (empty
	// otherwise: internal/goid).
	owner goid.Guard
	// batch is the owner's scratch space for an overflow: the tasks go
	// from the ring to batch, then to the overflow queue in one call.
	// Owner only, like tail; kept here so an overflow allocates nothing.
	batch [MaxSteal]*T
}

// NewRing returns an empty ring with every position at 0.
func NewRing[T any]() *Ring[T] { return NewRingAt[T](0) }

// NewRingAt returns an empty ring whose head and tail start at start, so a
// test can place the ring just below the 2^32 wrap-around.
func NewRingAt[T any](start uint32) *Ring[T] {
	r := new(Ring[T])
	r.head.StoreRelaxed(pack(start, start)) // no other goroutine has r yet
	r.tail.StoreRelaxed(start)              // no other goroutine has r yet
	return r
}

// twoOwners is the panic of a second goroutine in the owner-only
// operations (Push, Pop, StealInto's destination) of one ring, in a build
// with the race detector.
const twoOwners = "queue: two goroutines in a Ring's owner-only operations (Push, Pop, or StealInto into it) at once: a Ring has one owner goroutine at a time (two pushers lose tasks)"

func pack(steal, real uint32) uint64 { return uint64(steal)<<32 | uint64(real) }

func unpack(h uint64) (steal, real uint32) { return uint32(h >> 32), uint32(h) }

// Push appends t at the tail. Owner only. It returns how many tasks went to
// overflow: 0 when the ring had room; 1 when the ring was full while a steal
// was in flight (t itself goes to overflow.Push, the claimed slots are not
// touched); MaxSteal when the ring was full and no steal was in flight (the
// oldest MaxSteal tasks go to overflow in one PushBatch, then t is stored).
// A nil t is a programming error and panics, and so is a nil overflow
// once the ring is full (before anything moves).
func (r *Ring[T]) Push(t *T, overflow Injector[T]) int {
	if t == nil {
		panic("queue: Push of a nil task")
	}
	r.owner.Enter(twoOwners) // left by each return and panic below
	if tlatrace.On {         // TLA+ trace (ThreePhaseSteal): PushBegin
		tlatrace.Note(tlatrace.Event{Action: "PushBegin", Proc: r, Ring: r, Task: t})
	}
	tail := r.tail.LoadRelaxed() // only the owner writes tail
	moved := 0
	for {
		if tlatrace.On {
			tlatrace.Lock()
		}
		h := r.head.LoadAcquire() // observes released steals, so their slot clears happen before we reuse a slot
		steal, real := unpack(h)
		if tlatrace.On { // PushLoad
			tlatrace.Done(tlatrace.Event{Action: "PushLoad", Proc: r, Ring: r, Steal: steal, Real: real, Tail: tail})
		}
		if tail-steal < Capacity {
			break
		}
		if overflow == nil {
			// Checked here, on the full path only: a nil overflow is
			// fine while the ring has room.
			r.owner.Exit()
			panic("queue: Push on a full ring with a nil overflow Injector (nowhere to move tasks to; the ring is unchanged)")
		}
		if steal != real {
			// Full, and a thief is still copying [steal, real). Those
			// slots are not ours to move, and the steal will free room
			// soon: send only t away.
			overflow.Push(t)
			r.owner.Exit()
			return 1
		}
		chaos.Point()
		if r.overflowHalf(h, real, overflow) {
			moved = MaxSteal
			break
		}
		// A thief claimed between our load and our CAS. The ring is no
		// longer full from its point of view; look again.
		chaos.Point()
	}
	// Position tail is free. (The store is written out here rather than in
	// a function of its own: generic atomic.Pointer operations cost the
	// inliner enough that such a function would stay a call on the hot
	// path.)
	if tlatrace.On {
		tlatrace.Lock()
	}
	r.buf[tail&mask].Store(t) // a plain write to a free slot; the tail store below publishes it (release)
	if tlatrace.On {          // PushStore
		tlatrace.Done(tlatrace.Event{Action: "PushStore", Proc: r, Ring: r, Tail: tail, Task: t})
	}
	chaos.Point()
	if tlatrace.On {
		tlatrace.Lock()
	}
	r.tail.StoreRelease(tail + 1) // publishes the slot write to thieves and to Len (a wake check after it starts with a seq_cst fence)
	if tlatrace.On {              // PushPub
		tlatrace.Done(tlatrace.Event{Action: "PushPub", Proc: r, Ring: r, Tail: tail + 1})
	}
	chaos.Point()
	r.owner.Exit()
	return moved
}

// overflowHalf moves the oldest MaxSteal tasks to overflow in one batch.
// Owner only, called with a full ring and no steal in flight; h is the head
// word that showed it (steal == real). It reports false when the claim CAS
// lost to a thief, having moved nothing.
//
// The claim comes first: moving both halves of head past the batch makes
// the slots ours alone (no thief can claim them, and Pop is ours). Only
// then are they read and cleared. Reading them first would hand out tasks
// a thief may claim in between.
func (r *Ring[T]) overflowHalf(h uint64, real uint32, overflow Injector[T]) bool {
	end := real + MaxSteal
	if tlatrace.On {
		tlatrace.Lock()
	}
	if !r.head.CompareAndSwapAcquireRelaxed(h, pack(end, end)) { // claims the batch against thieves; keeps our takes below after the claim; a failure moves nothing
		if tlatrace.On { // PushOvf, failed
			tlatrace.Done(tlatrace.Event{Action: "PushOvf", Proc: r, Ring: r})
		}
		return false
	}
	if tlatrace.On { // PushOvf (the takes below are folded into it)
		tlatrace.Done(tlatrace.Event{Action: "PushOvf", Proc: r, Ring: r, OK: true})
	}
	batch := r.batch[:]
	for i := range uint32(MaxSteal) {
		batch[i] = r.take(real + i)
	}
	overflow.PushBatch(batch) // must not retain batch (see Injector)
	clear(batch)              // the ring holds no reference to tasks it gave away
	return true
}

// take reads and clears the slot at position pos, which the caller has
// claimed. A claimed slot is never empty; finding nil means two consumers
// took the same position, so it panics rather than lose a task silently.
func (r *Ring[T]) take(pos uint32) *T {
	t := r.buf[pos&mask].Take() // a plain read and clear, after the claim (its acquire); a later head CAS publishes the clear (release)
	if t == nil {
		claimedSlotEmpty()
	}
	return t
}

// claimedSlotEmpty reports a broken invariant: a consumer found nil in a
// slot it had claimed. Kept out of line so the hot paths stay small.
//
//go:noinline
func claimedSlotEmpty() { panic("queue: claimed slot is empty") }

// Pop removes and returns the oldest task, or nil when the ring is empty.
// Owner only.
//
// With no steal in flight Pop moves both halves of head. While a steal is in
// flight it moves only real: the steal head must stay where the thief left
// it, so Push keeps off the slots the thief is copying, and the thief's
// release will bring steal up to real.
func (r *Ring[T]) Pop() *T {
	r.owner.Enter(twoOwners) // left at each return (a panic below is an internal error)
	if tlatrace.On {         // TLA+ trace (ThreePhaseSteal): PopBegin
		tlatrace.Note(tlatrace.Event{Action: "PopBegin", Proc: r, Ring: r})
	}
	for {
		if tlatrace.On {
			tlatrace.Lock()
		}
		h := r.head.LoadRelaxed() // a guess that the CAS below validates
		steal, real := unpack(h)
		if tlatrace.On { // PopLoad
			tlatrace.Done(tlatrace.Event{Action: "PopLoad", Proc: r, Ring: r, Steal: steal, Real: real})
		}
		if real == r.tail.LoadRelaxed() { // only the owner writes tail
			r.owner.Exit()
			return nil
		}
		next := pack(real+1, real+1)
		if steal != real {
			next = pack(steal, real+1)
		}
		chaos.Point()
		if tlatrace.On {
			tlatrace.Lock()
		}
		if r.head.CompareAndSwapAcquireRelaxed(h, next) { // claims position real against thieves; keeps the take after the claim; a failure re-reads
			if tlatrace.On { // PopCas, its take folded in (the task is set below)
				tlatrace.Done(tlatrace.Event{Action: "PopCas", Proc: r, Ring: r, OK: true})
			}
			// take, written out for the inliner as in Push.
			t := r.buf[real&mask].Take() // a plain read and clear, after the claim (its acquire); only the owner reuses the slot
			if tlatrace.On {
				tlatrace.SetTask(t)
			}
			if t == nil {
				claimedSlotEmpty()
			}
			r.owner.Exit()
			return t
		}
		if tlatrace.On { // PopCas, failed
			tlatrace.Done(tlatrace.Event{Action: "PopCas", Proc: r, Ring: r})
		}
		chaos.Point()
	}
}

// StealInto moves the oldest ceil(n/2) tasks of r (at most MaxSteal, n the
// number of tasks in r) to dst, returning the oldest of them and how many it
// took, that one included. The rest are appended to dst in order. Only the
// owner of dst may call it, and r != dst.
//
// It returns (nil, 0) when r is empty, when another steal from r is in
// flight, when dst has no room for the n-1 tasks it would append (it
// refuses rather than shrinking the batch), or when its claim CAS lost
// claimRetries times in a row.
//
// The steal has three phases:
//
//	claim:   CAS head [s|s] -> [s|s+n]    the batch is ours; steal stays
//	copy:    read and clear [s, s+n), write dst, publish dst.tail
//	release: CAS head [s|x] -> [x|x]      x is whatever real is now
func (r *Ring[T]) StealInto(dst *Ring[T]) (first *T, n int) {
	if r == dst {
		panic("queue: StealInto from a ring into itself")
	}
	dst.owner.Enter(twoOwners)
	if tlatrace.On { // TLA+ trace (ThreePhaseSteal): StealBegin
		tlatrace.StealBegin(dst, r)
	}
	dstTail := dst.tail.LoadRelaxed() // we own dst, only we write its tail
	start, k := r.claim(dst, dstTail)
	if k != 0 {
		first = r.moveClaimed(start, k, dst, dstTail)
		r.release(start, start+k)
	}
	dst.owner.Exit()
	return first, int(k)
}

// roomAt is how many positions the owner may still write at tail without
// touching a slot a thief of r may read: the room is bounded by the steal
// head, not the real head.
func (r *Ring[T]) roomAt(tail uint32) uint32 {
	steal, _ := unpack(r.head.LoadAcquire()) // observes released steals of r, whose slot clears must come before our writes
	return Capacity - (tail - steal)
}

// claim is phase one of a steal: it moves r's real head past the oldest
// ceil(avail/2) tasks (at most MaxSteal) and returns the first claimed
// position and the count, or (0, 0) if it cannot steal. dst, whose tail is
// dstTail, must have room for all but the first task.
//
// Each attempt reads dst's room afresh, as ThreePhaseSteal's retry (a new
// steal) does: other thieves' releases of dst only make it grow, so a room
// kept from the first attempt was safe but could refuse a batch that
// fits, and it was a behaviour the spec does not have (the trace
// validation of tla/trace found it).
func (r *Ring[T]) claim(dst *Ring[T], dstTail uint32) (start, n uint32) {
	for try := range claimRetries {
		if tlatrace.On && try > 0 { // TLA+ trace (ThreePhaseSteal): a retry is a new steal, StealBegin
			tlatrace.StealBegin(dst, r)
		}
		if tlatrace.On {
			tlatrace.Lock()
		}
		room := dst.roomAt(dstTail)
		if tlatrace.On { // StRoom
			tlatrace.Room(dst, dstTail, room)
		}
		if tlatrace.On {
			tlatrace.Lock()
		}
		h := r.head.LoadRelaxed() // a guess that the claim CAS validates
		steal, real := unpack(h)
		if tlatrace.On { // StHead
			tlatrace.Done(tlatrace.Event{Action: "StHead", Ring: r, Steal: steal, Real: real})
		}
		if steal != real {
			return 0, 0 // another thief's steal is in flight
		}
		if tlatrace.On {
			tlatrace.Lock()
		}
		tail := r.tail.LoadAcquire() // observes the owner's slot writes below tail
		if tlatrace.On {             // StTail
			tlatrace.Done(tlatrace.Event{Action: "StTail", Ring: r, Tail: tail})
		}
		avail := tail - real
		if avail == 0 {
			return 0, 0
		}
		if avail > Capacity {
			// head and tail were read at different times and the owner
			// popped and pushed in between; this snapshot is useless.
			continue
		}
		n = avail - avail/2
		n = min(n, MaxSteal)
		if n-1 > room {
			return 0, 0 // dst has no room for the rest of the batch
		}
		chaos.Point()
		if tlatrace.On {
			tlatrace.Lock()
		}
		if r.head.CompareAndSwapAcquireRelaxed(h, pack(steal, real+n)) { // claims [real, real+n); keeps our takes after the claim; a failure re-reads
			if tlatrace.On { // StClaim
				tlatrace.Done(tlatrace.Event{Action: "StClaim", Ring: r, N: n, OK: true})
			}
			return real, n
		}
		if tlatrace.On { // StClaim, failed
			tlatrace.Done(tlatrace.Event{Action: "StClaim", Ring: r, N: n})
		}
		chaos.Point()
	}
	return 0, 0
}

// moveClaimed is phase two: it takes the claimed positions [start,
// start+n) out of r, keeps the first, appends the rest to dst at dstTail and
// publishes them. The caller owns dst.
func (r *Ring[T]) moveClaimed(start, n uint32, dst *Ring[T], dstTail uint32) *T {
	if tlatrace.On {
		tlatrace.Lock()
	}
	first := r.take(start)
	if tlatrace.On { // TLA+ trace (ThreePhaseSteal): StFirst
		tlatrace.Done(tlatrace.Event{Action: "StFirst", Ring: r, Task: first})
	}
	for i := uint32(1); i < n; i++ {
		if tlatrace.On {
			tlatrace.Lock()
		}
		t := r.take(start + i)
		if tlatrace.On { // StLoad
			tlatrace.Done(tlatrace.Event{Action: "StLoad", Ring: r, Task: t})
			tlatrace.Lock()
		}
		dst.buf[(dstTail+i-1)&mask].Store(t) // a plain write to a free slot of dst; the dst tail store publishes it (release)
		if tlatrace.On {                     // StStore
			tlatrace.Done(tlatrace.Event{Action: "StStore", Ring: dst, Tail: dstTail + i - 1, Task: t})
		}
		if i%16 == 0 {
			chaos.Point() // the copy is the longest window of a steal: let the owner push and pop inside it
		}
	}
	if n > 1 {
		chaos.Point()
		if tlatrace.On {
			tlatrace.Lock()
		}
		dst.tail.StoreRelease(dstTail + n - 1) // publishes the copied slots to dst's thieves
		if tlatrace.On {                       // StPub
			tlatrace.Done(tlatrace.Event{Action: "StPub", Ring: dst, Tail: dstTail + n - 1})
		}
		chaos.Point()
	}
	return first
}

// release is phase three: it brings the steal head up to wherever the real
// head is now (the owner may have popped meanwhile), ending the steal of
// [start, end). Until it succeeds the owner keeps off the claimed slots; the
// CAS loops because the owner's Pop may move real under it.
//
// While our steal is in flight nobody else may move the steal head, and the
// real head only moves forward from end; anything else means a second
// consumer is working on our claim, so it panics.
func (r *Ring[T]) release(start, end uint32) {
	for {
		if tlatrace.On {
			tlatrace.Lock()
		}
		h := r.head.LoadRelaxed() // a guess at the owner's pops since our claim, validated by the CAS
		steal, nowReal := unpack(h)
		if tlatrace.On { // TLA+ trace (ThreePhaseSteal): StRelLoad
			tlatrace.Done(tlatrace.Event{Action: "StRelLoad", Ring: r, Steal: steal, Real: nowReal})
		}
		if steal != start || nowReal-start < end-start {
			panic("queue: head moved backwards or steal head moved during a steal")
		}
		chaos.Point()
		if tlatrace.On {
			tlatrace.Lock()
		}
		if r.head.CompareAndSwapReleaseRelaxed(h, pack(nowReal, nowReal)) { // publishes our reads and clears of the claimed slots before the owner reuses them; a failure re-reads
			if tlatrace.On { // StRelCas
				tlatrace.Done(tlatrace.Event{Action: "StRelCas", Ring: r, OK: true})
			}
			return
		}
		if tlatrace.On { // StRelCas, failed
			tlatrace.Done(tlatrace.Event{Action: "StRelCas", Ring: r})
		}
	}
}

// Len is the number of tasks a consumer could still take (tail minus the
// real head). Exact when called by the owner; from any other goroutine it is
// a snapshot, clamped to [0, Capacity].
func (r *Ring[T]) Len() int {
	_, real := unpack(r.head.LoadAcquire()) // head before tail, so tail-real cannot go negative (a park check before it starts with a seq_cst fence)
	tail := r.tail.LoadAcquire()            // observes the owner's pushes
	d := tail - real
	if d > Capacity {
		// Only a reader racing the owner's pops and pushes can see this.
		d = Capacity
	}
	return int(d)
}
