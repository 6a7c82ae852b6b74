package stress

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/idle"
)

// TestIdleLastSearcherDuringClaim drives impl/idle's Rule 2 answer against
// its half-done claim. A claim is three steps (clear the parked bit, np--,
// ns++); the claimed worker sees its bit clear after the first and may find
// work and give its credit back before the claimer's ns++ lands, so ns
// reads -1 for an instant. One worker parks again and again (waiting to be
// claimed, as a sleeping worker waits for its notifier, or un-parking
// itself) while one notifier claims it in a tight loop. Nobody else ever
// searches, so every credit the worker holds is the only one: each
// TransitionFromSearching must report wasLast, or the Rule 2 notify that
// covers work published while the worker searched is skipped. At the end
// the state is back to all zero.
func TestIdleLastSearcherDuringClaim(t *testing.T) {
	rounds := 20_000 * stressScale()
	if longRun() {
		rounds *= 8
	}
	s := idle.New(1)
	var stop atomic.Bool
	var claims, notLast atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() { // the notifier
		for fails := 0; !stop.Load(); {
			if s.ClaimParked() >= 0 {
				claims.Add(1)
				continue
			}
			// Nobody to claim: let the worker run now and then. With
			// one P (go test -cpu 1) a loop that never yields would
			// hold it until the 10 ms preemption, for every round.
			if fails++; fails%64 == 0 {
				runtime.Gosched()
			}
		}
	})
	wg.Go(func() { // the worker
		defer stop.Store(true)
		for r := range rounds {
			s.Park(0, false)
			if r%4 != 0 {
				// Asleep until the notifier claims us; a lost claim
				// would hang here, and the test's timeout reports it.
				for spins := 0; s.IsParked(0); spins++ {
					if spins%64 == 63 {
						runtime.Gosched()
					}
				}
			}
			if !s.Unpark(0) {
				continue // we cleared our own bit: no credit
			}
			if !s.TransitionFromSearching() {
				notLast.Add(1)
			}
		}
	})
	wg.Wait()
	if n := notLast.Load(); n != 0 {
		t.Errorf("%d of %d credit returns by the only searcher reported wasLast=false (Rule 2 skipped)", n, claims.Load())
	}
	if snap := s.Snapshot(); snap != (idle.Snapshot{}) {
		t.Errorf("at quiescence: %+v, want all zero", snap)
	}
	t.Logf("%d rounds, %d claims", rounds, claims.Load())
}
