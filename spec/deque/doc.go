// Package deque is the plain, lock-based twin of impl/deque: the same API
// (New, Push, Pop, Steal, Len, Capacity) behind one mutex over a slice.
//
// It is the obviously correct reference the lock-free deque is tested
// against. It is not fast and it is not meant to be: every operation takes
// the lock. Steal never reports Retry here, because with a lock there is
// never a race to lose; Retry exists so the two packages share one API.
package deque
