package sched

import (
	"container/heap"
	"math"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
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
// publishes the deadline it will sleep until (monitorDeadline) under the
// same mutex that Sleep takes to add a timer, and Sleep unparks the
// monitor when its new deadline is earlier. The parker's token is sticky,
// so an unpark that lands before the monitor actually sleeps still wakes
// it. While the monitor is awake, monitorDeadline is 0 and Sleep does not
// wake it: it looks at the timers before it sleeps again.
type timerQueue struct {
	mu              sync.Mutex
	h               timerHeap
	seq             uint64
	monitorDeadline int64 // 0: the monitor is awake; else the time it sleeps until
	// armed maps each task with a timer to the seq of its live entry.
	// A task has one timer (Context.Sleep replaces it), but the heap is
	// not searched to move an entry: a new deadline is a new entry, and
	// the old one is stale (its seq is not its task's armed seq). Stale
	// entries are dropped as they come up, and all at once when they
	// outnumber the live ones (compact), so the heap holds at most about
	// twice as many entries as tasks have timers, and a finished task
	// (remove) holds none for long.
	armed map[*task]uint64
	// next mirrors the earliest deadline (noDeadline if none) so that
	// worker 0's per-tick poll costs one atomic load when nothing is due.
	next atomic.Int64
}

type timerEntry struct {
	when int64
	seq  uint64 // FIFO among equal deadlines; the entry is live if armed[t] == seq
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

// compactSlack is how many stale entries the heap may hold beyond as many
// as it has live ones before compact runs: small heaps are left alone.
const compactSlack = 64

// init runs before the workers start: relaxed.
func (q *timerQueue) init() {
	q.armed = make(map[*task]uint64)
	q.next.StoreRelaxed(noDeadline)
}

// set gives t the timer when, replacing any timer t had. It reports
// whether the monitor must be unparked (it sleeps, or is about to, past
// when).
func (q *timerQueue) set(when int64, t *task) (wakeMonitor bool) {
	q.mu.Lock()
	q.seq++
	q.armed[t] = q.seq
	heap.Push(&q.h, timerEntry{when: when, seq: q.seq, t: t})
	q.compactIfStale()
	q.publishNext()
	wake := q.monitorDeadline != 0 && when < q.monitorDeadline
	q.mu.Unlock()
	return wake
}

// remove takes t's timer away, if it has one (t finished, or sleeps for
// ever).
func (q *timerQueue) remove(t *task) {
	q.mu.Lock()
	if _, ok := q.armed[t]; ok {
		delete(q.armed, t)
		q.compactIfStale()
		q.publishNext()
	}
	q.mu.Unlock()
}

// compactIfStale drops the stale entries once they outnumber the live
// ones by compactSlack (or at once when there are no live ones): linear
// work, after at least as many set or remove calls made the stale entries,
// so constant per call. Called with mu held.
func (q *timerQueue) compactIfStale() {
	if len(q.armed) == 0 {
		clear(q.h) // every entry is stale: no finished task stays held
		q.h = q.h[:0]
		return
	}
	if len(q.h) <= 2*len(q.armed)+compactSlack {
		return
	}
	live := q.h[:0]
	for _, e := range q.h {
		if q.armed[e.t] == e.seq {
			live = append(live, e)
		}
	}
	clear(q.h[len(live):]) // the dropped entries' tasks can be collected
	q.h = live
	heap.Init(&q.h)
}

// publishNext refreshes the lock-free mirror of the earliest deadline.
// Called with mu held. The earliest entry may be stale: a worker that
// then takes the mutex for nothing drops it.
func (q *timerQueue) publishNext() {
	n := int64(noDeadline)
	if len(q.h) > 0 {
		n = q.h[0].when
	}
	// Release: a load that sees the new value sees the heap entry (it
	// takes the mutex before reading the heap anyway).
	q.next.StoreRelease(n)
}

// expire appends to dst the tasks whose timer's deadline is <= now, and
// removes those timers.
func (q *timerQueue) expire(now int64, dst []*task) []*task {
	// Acquire; a stale (later) value only delays by one tick.
	if q.next.LoadAcquire() > now {
		return dst
	}
	q.mu.Lock()
	for len(q.h) > 0 && q.h[0].when <= now {
		e := heap.Pop(&q.h).(timerEntry)
		if q.armed[e.t] != e.seq {
			continue // replaced or removed
		}
		delete(q.armed, e.t)
		dst = append(dst, e.t)
	}
	q.publishNext()
	q.mu.Unlock()
	return dst
}

// monitorSleepsUntil publishes that the monitor sleeps until min(limit,
// next timer) and returns that deadline (noDeadline: sleep until woken).
// (Not a park of the idle protocol, as a worker's beginPark is: the
// monitor is in no parked set, and publishes only the deadline that set
// compares a new timer with.)
func (q *timerQueue) monitorSleepsUntil(limit int64) int64 {
	q.mu.Lock()
	d := limit
	if len(q.h) > 0 && q.h[0].when < d {
		d = q.h[0].when
	}
	q.monitorDeadline = d
	q.mu.Unlock()
	return d
}

// monitorAwake publishes that the monitor is awake again.
func (q *timerQueue) monitorAwake() {
	q.mu.Lock()
	q.monitorDeadline = 0
	q.mu.Unlock()
}

// clear drops every timer (shutdown: the sleeping tasks are cancelled).
func (q *timerQueue) clear() {
	q.mu.Lock()
	clear(q.h)
	q.h = q.h[:0]
	clear(q.armed)
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

// len is the number of pending timers, one per task with a timer
// (metrics).
func (q *timerQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.armed)
}

// entries is the number of heap entries, stale ones included (tests: the
// memory the timers hold).
func (q *timerQueue) entries() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h)
}
