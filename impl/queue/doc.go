// Package queue holds the run queues of the production scheduler.
//
// Ring is the per-worker local queue: 256 slots, one owner that pushes and
// pops, any number of thieves that take the oldest half in one batch. It is
// lock-free. Its head is a single 64-bit word that packs two 32-bit
// positions, the steal head (upper half) and the real head (lower half); a
// thief claims by moving the real head, copies, then releases by moving the
// steal head up to the real head. While the two differ a steal is in flight:
// no second thief may start, and the owner may neither overwrite the claimed
// slots nor move them to the overflow queue.
//
// Global is the injection queue shared by every worker: an unbounded FIFO
// behind one lock (a sync.Mutex; in race builds without the explore tag a
// lock of this package's, which the fast race build does not show the
// detector: globallock_race.go).
// A full Ring overflows half of itself into it in one batch; remote wakes
// and spawns from outside the runtime land there too.
//
// What this package is not: it is not a general-purpose deque (the owner
// pops in FIFO order; LIFO behaviour belongs to the scheduler's LIFO slot),
// it does not grow (a full Ring overflows instead), and it knows nothing
// about tasks, wakers or parking. spec/queue holds the same API built on a
// mutex and a slice, as the reference this package is checked against.
//
// docs/queue.md explains the ring, the three-phase steal and the memory
// orderings in detail.
package queue
