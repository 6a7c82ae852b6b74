package mpmc

import "github.com/wsched/wsched/explore/atomic"

type slot[T any] struct {
	seq atomic.Uint64
	val atomic.Cell[T]
}

// Queue is a bounded lock-free FIFO queue for any number of producers and
// consumers. Make one with New.
type Queue[T any] struct {
	slots []slot[T]
	mask  uint64
	tail  atomic.Uint64 // the next position to produce
	head  atomic.Uint64 // the next position to consume
}

// New returns an empty queue of capacity n, a power of two, at least 2.
// (With one slot, the sequence that says "full for the consumer of
// position p", p+1, would also say "free for the producer of p+1": a
// second push would overwrite the first value. The explorer's wrap
// scenario found that when it was allowed.)
func New[T any](n int) *Queue[T] {
	if n < 2 || n&(n-1) != 0 {
		panic("mpmc: the capacity must be a power of two, at least 2")
	}
	q := &Queue[T]{slots: make([]slot[T], n), mask: uint64(n - 1)}
	for i := range q.slots {
		// Before the queue is shared: the goroutine that shares it
		// orders these stores before every use.
		q.slots[i].seq.StoreRelaxed(uint64(i))
	}
	return q
}

// Push adds v at the tail; false if the queue is full.
func (q *Queue[T]) Push(v T) bool {
	pos := q.tail.LoadRelaxed()
	for {
		s := &q.slots[pos&q.mask]
		// Acquire: the consumer of the previous lap freed the slot with a
		// release store after it read the value this Push overwrites.
		seq := s.seq.LoadAcquire()
		switch d := int64(seq - pos); {
		case d == 0:
			// Relaxed: the tail orders nothing; the slot's sequence does.
			if q.tail.CompareAndSwapRelaxedRelaxed(pos, pos+1) {
				s.val.Store(&v)
				publish(&s.seq, pos+1)
				return true
			}
			pos = q.tail.LoadRelaxed()
		case d < 0:
			return false // the slot holds a value of the previous lap
		default:
			pos = q.tail.LoadRelaxed() // another producer took pos
		}
	}
}

// Pop takes the value at the head; false if the queue is empty.
func (q *Queue[T]) Pop() (T, bool) {
	pos := q.head.LoadRelaxed()
	for {
		s := &q.slots[pos&q.mask]
		// Acquire: reads the producer's release store of pos+1, after
		// which its value is visible.
		seq := s.seq.LoadAcquire()
		switch d := int64(seq - (pos + 1)); {
		case d == 0:
			if q.head.CompareAndSwapRelaxedRelaxed(pos, pos+1) {
				v := *s.val.Take()
				// Release: the next lap's producer overwrites the
				// value only after it reads this.
				s.seq.StoreRelease(pos + q.mask + 1)
				return v, true
			}
			pos = q.head.LoadRelaxed()
		case d < 0:
			var zero T
			return zero, false // not produced yet
		default:
			pos = q.head.LoadRelaxed() // another consumer took pos
		}
	}
}
