//go:build !buggy

package treiber

import "github.com/wsched/wsched/explore/atomic"

// publish is Push's compare-and-swap: Release on success, so that a Pop
// whose LoadAcquire reads the new head sees the node's value and link
// written before it; Relaxed on failure, which publishes nothing.
func publish[T any](head *atomic.Pointer[node[T]], old, new *node[T]) bool {
	return head.CompareAndSwapReleaseRelaxed(old, new)
}
