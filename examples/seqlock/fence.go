//go:build !buggy

package seqlock

import "github.com/wsched/wsched/explore/atomic"

// writerFence is the writer's release fence between its odd store of the
// sequence and its stores of the pair: a reader's acquire fence after it
// read any of those stores synchronises with it.
func writerFence() { atomic.FenceRelease() }
