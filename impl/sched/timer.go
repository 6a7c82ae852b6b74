package sched

import (
	"container/heap"
	"math"

	"github.com/wsched/wsched/impl/internal/atomic"
	"github.com/wsched/wsched/impl/internal/sync"
)

// noDeadline stands for "no deadline" in the timer queue.
const noDeadline = math.MaxInt64

// timerQueue holds the tasks waiting in Context.Sleep, ordered by deadline,
// behind one mutex. Every worker polls it at the start of each tick (one
// atomic load when nothing is due); the monitor fires it when no worker
// does, and bounds its own sleep by the next deadline. Timers are not tied
// to a worker: a timer fires while every worker is inside a long poll
// (docs/scheduler.md, "Stranding").
//
// The race to close: the monitor decides how long to sleep, then sleeps;
// a Sleep between the two adds an earlier timer, and the monitor
// oversleeps it (with no worker ticking: forever). So the monitor
// publishes the deadline it will sleep until (parkDeadline) under the same
// mutex that Sleep takes to add a timer, and Sleep unparks the monitor
// when its new deadline is earlier. The parker's token is sticky, so an
// unpark that lands before the monitor actually sleeps still wakes it.
// While the monitor is awake, parkDeadline is 0 and Sleep does not wake
// it: it looks at the timers before it sleeps again.
type timerQueue struct {
	mu           sync.Mutex
	h            timerHeap
	seq          uint64
	parkDeadline int64 // 0: the monitor is awake; else the time it sleeps until
	// next mirrors the earliest deadline (noDeadline if none) so that
	// worker 0's per-tick poll costs one atomic load when nothing is due.
	next atomic.Int64
}

type timerEntry struct {
	when int64
	seq  uint64 // FIFO among equal deadlines
	t    *task
}

type timerHeap []timerEntry

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	return h[i].when < h[j].when || h[i].when == h[j].when && h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timerEntry)) }
func (h *timerHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = timerEntry{}
	*h = old[:len(old)-1]
	return e
}

// init runs before the workers start: relaxed.
func (q *timerQueue) init() { q.next.Store(noDeadline) }

// add queues a wake of t at when. It reports whether the monitor must be
// unparked (it sleeps, or is about to, past when).
func (q *timerQueue) add(when int64, t *task) (wakeMonitor bool) {
	q.mu.Lock()
	q.seq++
	heap.Push(&q.h, timerEntry{when: when, seq: q.seq, t: t})
	q.publishNext()
	wake := q.parkDeadline != 0 && when < q.parkDeadline
	q.mu.Unlock()
	return wake
}

// publishNext refreshes the lock-free mirror of the earliest deadline.
// Called with mu held.
func (q *timerQueue) publishNext() {
	n := int64(noDeadline)
	if len(q.h) > 0 {
		n = q.h[0].when
	}
	// Release: a load that sees the new value sees the heap entry (it
	// takes the mutex before reading the heap anyway).
	q.next.Store(n)
}

// expire appends to dst the tasks whose deadline is <= now and removes
// them.
func (q *timerQueue) expire(now int64, dst []*task) []*task {
	// Acquire; a stale (later) value only delays by one tick.
	if q.next.Load() > now {
		return dst
	}
	q.mu.Lock()
	for len(q.h) > 0 && q.h[0].when <= now {
		dst = append(dst, heap.Pop(&q.h).(timerEntry).t)
	}
	q.publishNext()
	q.mu.Unlock()
	return dst
}

// beginPark publishes that the monitor sleeps until min(limit, next timer)
// and returns that deadline (noDeadline: sleep until woken).
func (q *timerQueue) beginPark(limit int64) int64 {
	q.mu.Lock()
	d := limit
	if len(q.h) > 0 && q.h[0].when < d {
		d = q.h[0].when
	}
	q.parkDeadline = d
	q.mu.Unlock()
	return d
}

// endPark publishes that the monitor is awake again.
func (q *timerQueue) endPark() {
	q.mu.Lock()
	q.parkDeadline = 0
	q.mu.Unlock()
}

// clear drops every timer (shutdown: the sleeping tasks are cancelled).
func (q *timerQueue) clear() {
	q.mu.Lock()
	clear(q.h)
	q.h = q.h[:0]
	q.publishNext()
	q.mu.Unlock()
}

// pollTimers is a worker's per-tick timer poll: wake every task whose
// deadline passed, into this worker's ring.
func (w *worker) pollTimers(now int64) {
	rt := w.rt
	w.expired = rt.timers.expire(now, w.expired[:0])
	if len(w.expired) == 0 {
		return
	}
	pushed := false
	for i, t := range w.expired {
		w.expired[i] = nil
		if t.transitionToScheduled() {
			w.pushRing(t)
			pushed = true
		}
	}
	if pushed {
		rt.notifyLocal()
	}
}

// len is the number of pending timers (metrics).
func (q *timerQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h)
}
