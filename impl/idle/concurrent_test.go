package idle

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentParkClaimUnpark runs the idle protocol's moves from many
// goroutines at once: "workers" park (with or without a searching credit),
// re-check, unpark and give credits back, while "notifiers" claim parked
// workers. Every credit is accounted for by the goroutine holding it. At
// the end (quiescence) the bitmap is empty, np == 0 and ns == 0: a wake
// reason taken from a separate load (a claim between the load and the
// fetch-and) double-decrements np and leaks a credit; a claim that loses a
// race and still counts does the same.
func TestConcurrentParkClaimUnpark(t *testing.T) {
	const workers, rounds, notifiers = 8, 4000, 3
	s := New(workers)
	var stop atomic.Bool
	var claims atomic.Int64
	var wg, nwg sync.WaitGroup
	for n := 0; n < notifiers; n++ {
		nwg.Add(1)
		go func() {
			defer nwg.Done()
			for !stop.Load() {
				if s.ClaimParked() >= 0 {
					claims.Add(1)
				} else {
					runtime.Gosched()
				}
			}
		}()
	}
	var selfUnparks, claimedSeen atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			searching := false
			for r := 0; r < rounds; r++ {
				if !searching && r%3 == 0 {
					searching = s.TryBecomeSearcher()
				}
				s.Park(w, searching)
				searching = false
				if r%5 == 0 {
					runtime.Gosched()
				}
				var claimed bool
				if r%7 == 0 {
					claimed = s.CancelPark(w)
					searching = true
				} else {
					claimed = s.Unpark(w)
					searching = claimed
				}
				if claimed {
					claimedSeen.Add(1)
				} else {
					selfUnparks.Add(1)
				}
				if searching && r%2 == 0 {
					s.TransitionFromSearching()
					searching = false
				}
			}
			if searching {
				s.TransitionFromSearching()
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	nwg.Wait()
	snap := s.Snapshot()
	if snap.Bitmap != 0 || snap.Parked != 0 || snap.Searching != 0 {
		t.Fatalf("at quiescence: %+v (claims %d, seen claimed %d, self-unparks %d); want all zero",
			snap, claims.Load(), claimedSeen.Load(), selfUnparks.Load())
	}
	if claims.Load() != claimedSeen.Load() {
		t.Fatalf("%d claims but workers saw %d", claims.Load(), claimedSeen.Load())
	}
	if bits.OnesCount64(snap.Bitmap) != 0 {
		t.Fatal("unreachable")
	}
}

// TestUnparkRacesClaim aims at one window: a worker un-parking itself while
// a notifier claims it. One worker parks and immediately unparks in a tight
// loop; one notifier claims in a tight loop. Whoever clears the bit, the
// counts must balance: np back to 0, and every claim seen by the worker as
// a claim (it then owns, and returns, the credit).
func TestUnparkRacesClaim(t *testing.T) {
	const rounds = 200000
	s := New(2)
	var stop atomic.Bool
	var claims int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if s.ClaimParked() >= 0 {
				claims++
			}
		}
	}()
	var seen int64
	for r := 0; r < rounds; r++ {
		s.Park(1, false)
		if s.Unpark(1) {
			seen++
			s.TransitionFromSearching()
		}
		if p := s.Snapshot().Parked; p < -1 || p > 1 {
			stop.Store(true)
			<-done
			t.Fatalf("round %d: np = %d", r, p)
		}
	}
	stop.Store(true)
	<-done
	snap := s.Snapshot()
	if snap != (Snapshot{}) || claims != seen {
		t.Fatalf("after %d rounds: %+v, %d claims, worker saw %d", rounds, snap, claims, seen)
	}
}
