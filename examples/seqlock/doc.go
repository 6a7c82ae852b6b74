// Package seqlock is a sequence lock over a pair of words: one writer
// at a time updates the pair, readers never block it and retry instead,
// checked by wsched's explorer from a module of its own
// (docs/checking-your-own-code.md).
//
// The writer makes the sequence odd, writes the pair and makes it even
// again; a reader reads the sequence, the pair and the sequence once more,
// and keeps the pair only if the sequence was even and has not moved.
// Under sequential consistency that is the whole argument. Under C11 it
// is not: the pair's words are atomics read and written relaxed (a plain
// read racing with the writer would be a data race), and relaxed
// accesses on their own order nothing. The orderings follow Boehm ("Can
// seqlocks get along with programming language memory models?", MSPC
// 2012): the writer's odd store is followed by a release fence before
// the pair's stores, and the reader's loads of the pair by an acquire
// fence before its second load of the sequence. If the reader read any
// word the writer wrote, the fences synchronise, the odd store happens
// before the second load, and that load sees the sequence moved. The
// first load of the sequence is Acquire and the last store Release, so a
// reader that sees the even value a writer ended with sees its pair.
//
// The planted bug. Built with the buggy tag the writer has no release
// fence (fence_buggy.go). Every interleaving still works, so -tags
// explore,buggy passes; in the weak mode a reader can read the new first
// word, the old second word, and a stale even sequence both times, and
// -tags explore,weak,buggy finds the torn pair.
package seqlock
