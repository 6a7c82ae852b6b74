//go:build buggy

package seqlock

// writerFence, the planted bug: no fence. A reader may read a word of the
// new pair and still read the even sequence of the old one after it: the
// odd store need not be visible to it yet.
func writerFence() {}
