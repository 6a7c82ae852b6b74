//go:build buggy

package treiber

import "github.com/wsched/wsched/explore/atomic"

// publish, the planted bug: Relaxed on success. The node is still pushed
// atomically, and under sequential consistency nothing can go wrong, but
// nothing orders its value's write before a Pop's read in another
// goroutine: the weak mode reports the data race.
func publish[T any](head *atomic.Pointer[node[T]], old, new *node[T]) bool {
	return head.CompareAndSwapRelaxedRelaxed(old, new)
}
