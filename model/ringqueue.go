package model

import (
	"fmt"
	"slices"
	"strings"
)

// This file models the work-stealing rings and the global queue of
// impl/queue and spec/queue together, as one state: a history in which one
// worker's ring overflows into the global queue while other workers steal
// from it, and from each other, is checked against a single state.
//
// Tasks are positive ints (ids); 0 means "no task".

// RingCapacity and RingMaxSteal mirror queue.Capacity and queue.MaxSteal.
const (
	RingCapacity = 256
	RingMaxSteal = RingCapacity / 2
)

// QueueOpKind names an operation of the queue model.
type QueueOpKind uint8

const (
	OpPush            QueueOpKind = iota + 1 // Ring.Push(Task): Out.N = tasks sent to overflow
	OpPop                                    // Ring.Pop(): Out.Task, 0 when empty
	OpSteal                                  // Rings[Ring].StealInto(Rings[Dst]): Out.Task = first, Out.N = n
	OpLen                                    // Ring.Len(): Out.N
	OpGlobalPush                             // Global.Push(Task)
	OpGlobalPushBatch                        // Global.PushBatch(Tasks)
	OpGlobalPopBatch                         // Global.PopBatch(make([]*T, Max)): Out.Tasks
	OpGlobalLen                              // Global.Len(): Out.N
)

// QueueInput is one call. Only the fields its Kind names are used.
type QueueInput struct {
	Kind  QueueOpKind
	Ring  int   // Push, Pop, Len: the ring; Steal: the victim
	Dst   int   // Steal: the thief's own ring
	Task  int   // Push, GlobalPush
	Tasks []int // GlobalPushBatch, oldest first
	Max   int   // GlobalPopBatch: room in the caller's buffer

	// Overflow marks a GlobalPush or GlobalPushBatch made by Ring.Push on a
	// full ring (ring Ring): its tasks must be the ones that push sent to
	// overflow.
	Overflow bool

	// Contended marks a Push or Steal that overlapped in time with another
	// operation on one of the rings it touches. Only the concurrent model
	// reads it: see QueueModel.
	Contended bool
}

// QueueOutput is one call's result.
type QueueOutput struct {
	Task  int   // Pop; Steal (first)
	N     int   // Push (overflowed); Steal (taken); Len; GlobalLen
	Tasks []int // GlobalPopBatch
}

// QueueState is the abstract state: the content of each ring and of the
// global queue, oldest first. Transit[i] holds tasks that a push on full
// ring i took out of the ring but whose Injector call has not yet happened;
// it is empty again once that call is stepped. (One transit per ring, so
// that two rings overflowing at the same time do not have to hand over
// their tasks in the order their pushes took effect.)
//
// A QueueState is a value. Step shares unchanged slices between the old and
// the new state and never writes into a slice it did not allocate.
type QueueState struct {
	Rings   [][]int
	Global  []int
	Transit [][]int
}

// NewQueueState returns the state of n empty rings and an empty global queue.
func NewQueueState(rings int) QueueState {
	return QueueState{Rings: make([][]int, rings), Transit: make([][]int, rings)}
}

// QueueModel is the sequential specification of the rings and the global
// queue. Its two modes differ only in what a steal, and a push on a full
// ring, may return.
//
// Sequential (Concurrent false): the exact results of the contract when
// nothing else runs at the same time, which are also the only results
// spec/queue ever gives. A steal takes exactly min(ceil(n/2), MaxSteal) and
// fails only when the victim is empty or the thief lacks room; a push on a
// full ring moves exactly the oldest MaxSteal.
//
// Concurrent (Concurrent true), for porcupine. The model still treats each
// operation as one atomic step, but admits the outcomes that impl/queue
// produces when other operations run during it:
//
//   - A steal sizes its batch from the length it read before its claim, and
//     the victim may have grown since, so at the step it may take any k in
//     1..min(ceil(n/2), MaxSteal) of the oldest tasks. It must still take a
//     prefix (the oldest k, in order) and the thief must have room for k-1.
//   - A steal may also fail while the victim has tasks and the thief has
//     room, because another steal from the victim is in flight or because
//     its claim kept losing races. Both need another operation on the same
//     rings running at the same time, which the model cannot see in its
//     state; the history recorder marks such calls Contended. A failed steal
//     is accepted when Contended, and otherwise only under the sequential
//     conditions. A failed steal never changes the state.
//   - A push on a full ring that finds a steal in flight sends only its own
//     task to overflow (result 1). The claimed tasks have left the ring in
//     the model but still hold their slots, and the owner's pops during the
//     steal free no slot either (they move the real head, not the steal
//     head), so at that point the model ring may hold anything from 0 to
//     Capacity-1 tasks. The push must be Contended and the model ring not
//     full. A push with result MaxSteal needs a truly full ring.
//
// Why one atomic step is enough for a steal, although impl/queue removes the
// batch from the victim at its claim and shows it in the thief's ring only
// when it publishes the thief's tail: the thief's ring is read in between
// only by other thieves (its owner is the thief itself, busy stealing). A
// thief that looks then sees fewer tasks than the model holds, and the
// model admits both of its possible outcomes: it takes fewer than half of
// the model's ring, or it fails and is Contended (the two calls overlap and
// share the ring).
//
// In both modes a push that overflowed puts the tasks it moved into Transit,
// and the Injector calls that the ring made (stepped as GlobalPush or
// GlobalPushBatch with Overflow set) must hand over exactly those tasks, in
// order.
type QueueModel struct {
	Concurrent bool
	// Capacity is the rings' capacity; zero means RingCapacity. The
	// explorer's build of impl/queue has rings of 4 (queue.Capacity under
	// the explore tag), and its clients are checked with Capacity 4. A
	// steal takes at most, and an overflow moves, half of it.
	Capacity int
}

// capacity is the rings' capacity and half of it (MaxSteal).
func (m QueueModel) capacity() (capacity, maxSteal int) {
	if m.Capacity > 0 {
		return m.Capacity, m.Capacity / 2
	}
	return RingCapacity, RingMaxSteal
}

// stealSize is how many tasks a steal from a ring of n tasks takes.
func (m QueueModel) stealSize(n int) int {
	_, maxSteal := m.capacity()
	return min(n-n/2, maxSteal)
}

// Step reports whether the call in, returning out, is allowed in state s,
// and if so the state after it. s is not changed.
func (m QueueModel) Step(s QueueState, in QueueInput, out QueueOutput) (bool, QueueState) {
	switch in.Kind {
	case OpPush:
		return m.push(s, in, out)
	case OpPop:
		r := s.Rings[in.Ring]
		if len(r) == 0 {
			return out.Task == 0, s
		}
		if out.Task != r[0] {
			return false, s
		}
		return true, s.withRing(in.Ring, r[1:])
	case OpSteal:
		return m.steal(s, in, out)
	case OpLen:
		return out.N == len(s.Rings[in.Ring]), s
	case OpGlobalPush:
		return s.globalPush([]int{in.Task}, in)
	case OpGlobalPushBatch:
		return s.globalPush(in.Tasks, in)
	case OpGlobalPopBatch:
		k := min(in.Max, len(s.Global))
		if !slices.Equal(out.Tasks, s.Global[:k]) {
			return false, s
		}
		s.Global = s.Global[k:]
		return true, s
	case OpGlobalLen:
		return out.N == len(s.Global), s
	}
	return false, s
}

func (m QueueModel) push(s QueueState, in QueueInput, out QueueOutput) (bool, QueueState) {
	r := s.Rings[in.Ring]
	capacity, maxSteal := m.capacity()
	switch {
	case out.N == 0 && len(r) < capacity:
		return true, s.withRing(in.Ring, appendCopy(r, in.Task))
	case out.N == maxSteal && len(r) == capacity:
		s = s.withTransit(in.Ring, appendCopy(s.Transit[in.Ring], r[:maxSteal]...))
		return true, s.withRing(in.Ring, appendCopy(r[maxSteal:], in.Task))
	case out.N == 1 && m.Concurrent && in.Contended && len(r) < capacity:
		return true, s.withTransit(in.Ring, appendCopy(s.Transit[in.Ring], in.Task))
	}
	return false, s
}

func (m QueueModel) steal(s QueueState, in QueueInput, out QueueOutput) (bool, QueueState) {
	if in.Ring == in.Dst {
		return false, s
	}
	src, dst := s.Rings[in.Ring], s.Rings[in.Dst]
	capacity, _ := m.capacity()
	want := m.stealSize(len(src))
	if out.N == 0 {
		if out.Task != 0 {
			return false, s
		}
		refused := want == 0 || len(dst)+want-1 > capacity
		return refused || (m.Concurrent && in.Contended), s
	}
	if out.N > want || (!m.Concurrent && out.N != want) {
		return false, s
	}
	if out.Task != src[0] || len(dst)+out.N-1 > capacity {
		return false, s
	}
	s = s.withRing(in.Dst, appendCopy(dst, src[1:out.N]...))
	return true, s.withRing(in.Ring, src[out.N:])
}

// globalPush appends ts to the global queue; an overflow call must carry
// the oldest tasks in its ring's transit.
func (s QueueState) globalPush(ts []int, in QueueInput) (bool, QueueState) {
	if in.Overflow {
		tr := s.Transit[in.Ring]
		if len(ts) > len(tr) || !slices.Equal(ts, tr[:len(ts)]) {
			return false, s
		}
		s = s.withTransit(in.Ring, tr[len(ts):])
	}
	s.Global = appendCopy(s.Global, ts...)
	return true, s
}

// Expect returns the result the sequential model demands of in, and the
// state after it. It is for sequential tests, which want the expected
// value in their failure message, not just "not allowed". Calls that have
// no result of their own (GlobalPush, GlobalPushBatch) return a zero output;
// ok is false when the call cannot happen at all in s (an overflow call
// whose tasks are not in transit, a steal from a ring into itself).
func (m QueueModel) Expect(s QueueState, in QueueInput) (out QueueOutput, next QueueState, ok bool) {
	capacity, maxSteal := m.capacity()
	switch in.Kind {
	case OpPush:
		if len(s.Rings[in.Ring]) == capacity {
			out.N = maxSteal
		}
	case OpPop:
		if r := s.Rings[in.Ring]; len(r) > 0 {
			out.Task = r[0]
		}
	case OpSteal:
		src, dst := s.Rings[in.Ring], s.Rings[in.Dst]
		if n := m.stealSize(len(src)); n > 0 && len(dst)+n-1 <= capacity {
			out.Task, out.N = src[0], n
		}
	case OpLen:
		out.N = len(s.Rings[in.Ring])
	case OpGlobalPopBatch:
		out.Tasks = slices.Clone(s.Global[:min(in.Max, len(s.Global))])
		if len(out.Tasks) == 0 {
			out.Tasks = nil
		}
	case OpGlobalLen:
		out.N = len(s.Global)
	}
	ok, next = QueueModel{Capacity: m.Capacity}.Step(s, in, out)
	return out, next, ok
}

// withRing returns s with ring i replaced by r.
func (s QueueState) withRing(i int, r []int) QueueState {
	rings := slices.Clone(s.Rings)
	rings[i] = r
	s.Rings = rings
	return s
}

// withTransit returns s with ring i's transit replaced by tr.
func (s QueueState) withTransit(i int, tr []int) QueueState {
	transit := slices.Clone(s.Transit)
	transit[i] = tr
	s.Transit = transit
	return s
}

// appendCopy returns a new slice holding a followed by xs; it never writes
// into a's backing array, which other states may share.
func appendCopy(a []int, xs ...int) []int {
	out := make([]int, 0, len(a)+len(xs))
	return append(append(out, a...), xs...)
}

// Equal reports whether two states hold the same tasks in the same places.
func (s QueueState) Equal(o QueueState) bool {
	return slices.EqualFunc(s.Rings, o.Rings, slices.Equal[[]int]) &&
		slices.Equal(s.Global, o.Global) &&
		slices.EqualFunc(s.Transit, o.Transit, slices.Equal[[]int])
}

// Hash is consistent with Equal: FNV-1a over each queue's length and every
// id in it, in order.
//
// It reads whole queues on purpose. porcupine keeps the states it has
// reached in a map keyed by this hash and compares the states of one key
// with Equal, one by one. The orders of concurrent pushes that porcupine
// tries differ in the middle of the global queue, not at its ends, so a
// hash of the first and last few ids put them all under one key: a
// history of 262 operations whose queue held up to 107 tasks gave no
// verdict within a minute that way, and checks in under a second hashed
// whole (linearizability: TestGlobalHeavyHistory). A push step copies the
// queue anyway, so hashing it costs the same order of time.
func (s QueueState) Hash() uint64 {
	h := uint64(14695981039346656037)
	mix := func(x int) {
		h ^= uint64(x)
		h *= 1099511628211
	}
	add := func(xs []int) {
		mix(len(xs))
		for _, x := range xs {
			mix(x)
		}
	}
	for _, r := range s.Rings {
		add(r)
	}
	add(s.Global)
	for _, tr := range s.Transit {
		add(tr)
	}
	return h
}

// String shows each non-empty queue, abbreviated in the middle.
func (s QueueState) String() string {
	var b strings.Builder
	for i, r := range s.Rings {
		fmt.Fprintf(&b, "ring%d%s ", i, abbrev(r))
	}
	fmt.Fprintf(&b, "global%s", abbrev(s.Global))
	for i, tr := range s.Transit {
		if len(tr) > 0 {
			fmt.Fprintf(&b, " transit%d%s", i, abbrev(tr))
		}
	}
	return b.String()
}

func abbrev(xs []int) string {
	if len(xs) <= 6 {
		return fmt.Sprint(xs)
	}
	return fmt.Sprintf("[%d %d %d … %d %d](%d)", xs[0], xs[1], xs[2], xs[len(xs)-2], xs[len(xs)-1], len(xs))
}

// Describe shows a call and its result, as in "ring0.Push(7) -> 128".
func (in QueueInput) Describe(out QueueOutput) string {
	switch in.Kind {
	case OpPush:
		return fmt.Sprintf("ring%d.Push(%d) -> %d", in.Ring, in.Task, out.N)
	case OpPop:
		return fmt.Sprintf("ring%d.Pop() -> %d", in.Ring, out.Task)
	case OpSteal:
		return fmt.Sprintf("ring%d.StealInto(ring%d) -> (%d, %d)", in.Ring, in.Dst, out.Task, out.N)
	case OpLen:
		return fmt.Sprintf("ring%d.Len() -> %d", in.Ring, out.N)
	case OpGlobalPush:
		return fmt.Sprintf("global.Push(%d)%s", in.Task, overflowTag(in))
	case OpGlobalPushBatch:
		return fmt.Sprintf("global.PushBatch(%s)%s", abbrev(in.Tasks), overflowTag(in))
	case OpGlobalPopBatch:
		return fmt.Sprintf("global.PopBatch(%d) -> %s", in.Max, abbrev(out.Tasks))
	case OpGlobalLen:
		return fmt.Sprintf("global.Len() -> %d", out.N)
	}
	return fmt.Sprintf("unknown op %d", in.Kind)
}

func overflowTag(in QueueInput) string {
	if in.Overflow {
		return fmt.Sprintf(" (overflow of ring%d)", in.Ring)
	}
	return ""
}
