package seqlock

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// Pair is a pair of words behind a sequence lock. The zero Pair holds
// (0, 0). Store must not be called by two goroutines at once (a program
// with several writers serialises them, with a mutex for instance); Load
// may be called by any number, at any time.
type Pair struct {
	seq  atomic.Uint64 // odd while a Store is under way
	a, b atomic.Uint64
}

// Store sets the pair to (a, b).
func (p *Pair) Store(a, b uint64) {
	// Relaxed: only the writer stores the sequence, and it read its own
	// last store.
	s := p.seq.LoadRelaxed()
	p.seq.StoreRelaxed(s + 1)
	writerFence()
	p.a.StoreRelaxed(a)
	p.b.StoreRelaxed(b)
	// Release: a reader whose acquire load reads s+2 sees the pair.
	p.seq.StoreRelease(s + 2)
}

// Load returns the pair, never one word of one Store and one of another.
func (p *Pair) Load() (a, b uint64) {
	for {
		s := p.seq.LoadAcquire()
		if s&1 == 0 {
			a, b = p.a.LoadRelaxed(), p.b.LoadRelaxed()
			// Acquire fence: if a or b came from a Store, that Store's
			// odd sequence is visible to the load below.
			atomic.FenceAcquire()
			if p.seq.LoadRelaxed() == s {
				return a, b
			}
		}
		sync.Gosched() // a Store is under way: let it finish
	}
}
