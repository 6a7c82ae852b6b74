// Package deque is the classic Chase-Lev work-stealing deque, with the memory
// orderings of Lê, Pop, Cohen and Zappa Nardelli ("Correct and Efficient
// Work-Stealing for Weak Memory Models", PPoPP 2013) named on every atomic.
//
// One goroutine owns a Deque: only it may call Push and Pop, which work at the
// bottom end in LIFO order. Any number of other goroutines may call Steal,
// which takes from the top end (the oldest element) and reports Empty,
// Success or Retry (it lost a race and may try again).
//
// The deque stores pointers: a Deque[T] holds *T values. Each buffer slot is
// an atomic.Pointer[T], so a thief that reads a slot while the owner rewrites
// it is not a data race, and Push allocates only when the ring grows. A nil
// *T is an ordinary element; emptiness is reported separately.
//
// The buffer is a power-of-two circular array that doubles when full. A grown
// buffer never reuses the old one: thieves that loaded the old buffer keep
// reading valid (if stale) contents, and the garbage collector frees it once
// nobody refers to it. The buffer never shrinks.
//
// What this package is not: it is not a FIFO ring with batch steals (that is
// impl/queue, the scheduler's run queue), it has no overflow queue, and it
// does not wake anybody; the caller decides what to do with Empty and Retry.
// docs/deque.md compares the two designs.
package deque
