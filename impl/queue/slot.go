package queue

import "github.com/wsched/wsched/explore/atomic"

// Slot is a worker's LIFO slot: one task that its owner put there last and
// will usually run next, and that a thief may take instead.
//
// The owner puts and takes; any goroutine may steal. The owner's take and
// a thief's steal race for the same task, so both empty the slot with an
// exchange: whoever gets the task out of it owns the task. Put is an
// exchange too, which hands back the task it displaced.
//
// Whether a thief should steal at all is the scheduler's policy, not the
// slot's: Slot only makes it safe. (impl/sched lets thieves take a slot
// only from a worker the monitor flagged as stuck in a long poll, and only
// after every ring came up empty: a healthy owner keeps the locality the
// slot is for.)
type Slot[T any] struct {
	v atomic.Pointer[T]
}

// Put stores t and returns the task it displaced (nil if the slot was
// empty). Owner only. A nil t is a programming error and panics.
func (s *Slot[T]) Put(t *T) (prev *T) {
	if t == nil {
		panic("queue: Slot.Put of a nil task")
	}
	return s.v.SwapAcqRel(t) // publishes t to thieves (release) and takes the old task, racing their steal (acquire)
}

// Take empties the slot and returns its task, or nil if it was empty (or
// a thief took the task first). Owner only.
func (s *Slot[T]) Take() *T {
	if s.v.LoadRelaxed() == nil { // the common empty case costs no exchange; a stale non-nil is settled by the Swap
		return nil
	}
	return s.v.SwapAcquire(nil) // takes whatever is there, against thieves' steals
}

// Steal takes the task if there is one, or returns nil. Any goroutine.
// It is Take's code: exchanging nil into a full slot takes whatever task
// is there, which is a valid steal even if the owner replaced the task a
// moment before. What differs is the caller, and so what the scheduler
// lets happen.
func (s *Slot[T]) Steal() *T {
	if s.v.LoadRelaxed() == nil { // nothing to steal; a stale non-nil is settled by the Swap
		return nil
	}
	return s.v.SwapAcquire(nil) // takes whatever is there, against the owner's take and other thieves
}

// Full reports whether the slot holds a task: a snapshot (the owner may
// take it, or a thief steal it, at once). Any goroutine.
func (s *Slot[T]) Full() bool {
	return s.v.LoadAcquire() != nil // a snapshot (a park-time re-check before it starts with a seq_cst fence, as for Ring.Len)
}
