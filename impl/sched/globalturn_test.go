package sched

import (
	"math/rand/v2"
	"testing"
)

// TestGlobalTurnBound drives the fairness clock the way the worker loop
// does (one globalTurn check before each poll, sinceGlobal counting polls)
// while the interval is re-tuned at every tick to a random value in the
// allowed range, and checks that the global queue's turn never comes later
// than the largest interval allows: a task in the global queue waits at most
// maxGlobalInterval polls, whatever the tuning does.
func TestGlobalTurnBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := &worker{interval: 20} // the interval the initial 50 us estimate gives
	last := 0
	for poll := 1; poll <= 1_000_000; poll++ {
		if w.globalTurn() {
			last = poll
		}
		if gap := poll - last; gap > maxGlobalInterval {
			t.Fatalf("poll %d: %d polls since the global queue's last turn, bound %d",
				poll, gap, maxGlobalInterval)
		}
		w.sinceGlobal++ // the poll
		if poll%budgetPerTick == 0 {
			w.interval = uint32(minGlobalInterval + rng.IntN(maxGlobalInterval-minGlobalInterval+1))
		}
	}
}
