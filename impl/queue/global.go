package queue

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/internal/tlatrace"
)

// minGlobalCap is the smallest backing array Global keeps once it has
// grown; below it, shrinking is not worth a copy.
const minGlobalCap = 64

// keptGlobalCap is the largest backing array Global keeps when it drains.
// Up to it (64 Ki slots, 512 KiB) the buffer never shrinks: a program that
// queues bursts of a few thousand tasks over and over would otherwise copy
// and reallocate the buffer on every burst, growing it on the way up and
// halving it on the way down. Above it, the buffer halves whenever it is a
// quarter full, down to this size, so one huge burst does not pin its
// memory for ever.
const keptGlobalCap = 1 << 16

// Global is the injection queue: an unbounded FIFO of task pointers behind
// one lock (globalLock), shared by every worker and by goroutines outside
// the runtime.
//
// The tasks live in a circular buffer buf[head], buf[head+1], ... (indices
// mod len(buf), a power of two), n of them. The buffer doubles when full
// and, above keptGlobalCap slots, halves when a quarter full; popped
// entries are set to nil so finished tasks can be collected.
type Global[T any] struct {
	mu   globalLock // a sync.Mutex; in race builds (not explore), globallock_race.go
	buf  []*T
	head int
	n    int
	// length mirrors n for readers that do not take the lock.
	length atomic.Int64
}

// NewGlobal returns an empty queue.
func NewGlobal[T any]() *Global[T] { return &Global[T]{} }

// Push appends t. A nil t is a programming error and panics.
func (g *Global[T]) Push(t *T) {
	if t == nil {
		panic("queue: Global.Push of a nil task")
	}
	g.mu.Lock()
	g.grow(1)
	g.buf[(g.head+g.n)&(len(g.buf)-1)] = t
	g.n++
	if tlatrace.On { // TLA+ trace (Stranding): Arrive, where Len's readers (the monitor's look) see it
		tlatrace.Lock()
	}
	g.length.StoreRelaxed(int64(g.n)) // written under the lock; readers only want a snapshot
	if tlatrace.On {
		tlatrace.StrandDone("SArrive", -1, t, -1, 0, true)
	}
	g.mu.Unlock()
}

// PushBatch appends ts in order under one acquisition of the lock. It
// copies the tasks and does not retain ts, as Injector requires: the caller
// may reuse ts once it returns. A nil entry panics before anything is
// appended.
func (g *Global[T]) PushBatch(ts []*T) {
	for _, t := range ts {
		if t == nil {
			panic("queue: Global.PushBatch with a nil task")
		}
	}
	if len(ts) == 0 {
		return
	}
	g.mu.Lock()
	g.grow(len(ts))
	for _, t := range ts {
		g.buf[(g.head+g.n)&(len(g.buf)-1)] = t
		g.n++
	}
	g.length.StoreRelaxed(int64(g.n)) // written under the lock; readers only want a snapshot
	g.mu.Unlock()
}

// PopBatch moves up to len(dst) of the oldest tasks into dst[:k], oldest
// first, and returns k.
func (g *Global[T]) PopBatch(dst []*T) int {
	if len(dst) == 0 || g.length.LoadRelaxed() == 0 { // a snapshot; an empty answer may be stale, as it may be after unlocking
		return 0
	}
	g.mu.Lock()
	k := min(len(dst), g.n)
	m := len(g.buf) - 1 // -1 for a never-used queue, when k is 0 and nothing below indexes
	for i := range k {
		j := (g.head + i) & m
		dst[i] = g.buf[j]
		g.buf[j] = nil
	}
	g.head = (g.head + k) & m
	g.n -= k
	if g.n == 0 {
		g.head = 0
	}
	g.shrink()
	g.length.StoreRelaxed(int64(g.n)) // written under the lock; readers only want a snapshot
	g.mu.Unlock()
	return k
}

// Len is the number of queued tasks, read without the lock: a snapshot.
func (g *Global[T]) Len() int {
	return int(g.length.LoadRelaxed()) // a snapshot of the count stored under the lock (a park check before it starts with a seq_cst fence)
}

// grow makes room for extra more tasks. Caller holds mu.
func (g *Global[T]) grow(extra int) {
	need := g.n + extra
	if need <= len(g.buf) {
		return
	}
	c := max(len(g.buf), minGlobalCap)
	for c < need {
		c *= 2
	}
	g.resize(c)
}

// shrink halves a buffer larger than keptGlobalCap while it is at most a
// quarter full. Caller holds mu.
func (g *Global[T]) shrink() {
	c := len(g.buf)
	for c > keptGlobalCap && g.n <= c/4 {
		c /= 2
	}
	if c != len(g.buf) {
		g.resize(c)
	}
}

// resize copies the tasks, oldest first, into a fresh buffer of c slots.
// Caller holds mu.
func (g *Global[T]) resize(c int) {
	buf := make([]*T, c)
	for i := range g.n {
		buf[i] = g.buf[(g.head+i)&(len(g.buf)-1)]
	}
	g.buf = buf
	g.head = 0
}
