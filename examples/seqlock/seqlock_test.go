//go:build !explore

package seqlock_test

import (
	"sync"
	"testing"

	"github.com/wsched/wsched/examples/seqlock"
)

// In a plain build: a writer stores (i, i) for i = 1..n while two
// readers load; a reader never sees a torn pair, nor the pair go back.
func TestPairConcurrent(t *testing.T) {
	var p seqlock.Pair
	const n = 20000
	var wg sync.WaitGroup
	done := make(chan struct{})
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last uint64
			for {
				select {
				case <-done:
					return
				default:
				}
				a, b := p.Load()
				if a != b || a < last {
					t.Errorf("reader %d loaded (%d, %d) after %d", r, a, b, last)
					return
				}
				last = a
			}
		}()
	}
	for i := uint64(1); i <= n; i++ {
		p.Store(i, i)
	}
	close(done)
	wg.Wait()
	if a, b := p.Load(); a != n || b != n {
		t.Fatalf("the last store was (%d, %d), Load says (%d, %d)", n, n, a, b)
	}
}
