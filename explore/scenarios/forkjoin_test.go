//go:build explore

package scenarios

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/forkjoin"
)

// newPool starts a fork-join pool whose idle workers sleep until woken (no
// timeout), so a missed wake is a deadlock.
func newPool(n int) *forkjoin.Pool {
	p, err := forkjoin.New(forkjoin.Config{Workers: n, NoSleepTimeout: true})
	if err != nil {
		explore.Failf("forkjoin.New: %v", err)
	}
	return p
}

// A Join on a pool of two: its second half is published on the deque
// while the other worker is getting sleepy or falling asleep (the jobs
// event counter must stop it, or wake it), and the first worker then waits
// on the latch while the thief may be running the half (the latch setter
// must wake it if it sleeps).
func TestExploreForkJoinJoin(t *testing.T) {
	explore.Check(t, "forkjoin/join", explore.Options{MaxSchedules: 500_000}, func() {
		p := newPool(2)
		ran := map[string]int{}
		err := p.Run(func(w *forkjoin.Worker) {
			if err := w.Join(func(*forkjoin.Worker) { ran["a"]++ }, func(*forkjoin.Worker) { ran["b"]++ }); err != nil {
				explore.Failf("Join: %v", err)
			}
		})
		if err != nil {
			explore.Failf("Run: %v", err)
		}
		if ran["a"] != 1 || ran["b"] != 1 {
			explore.Failf("halves ran %v", ran)
		}
		if err := p.Close(); err != nil {
			explore.Failf("Close: %v", err)
		}
	})
}

// A Run from outside while both workers go to sleep: the injector push and
// the jobs event must reach one of them. Exhaustive at two preemptions in
// 328,254 schedules (about 4 s); at 3, WSCHED_LONG's bound, the forecast
// is about 28,000,000, so -long runs 2 again and a start on 3.
func TestExploreForkJoinRunWhileSleeping(t *testing.T) {
	explore.Check(t, "forkjoin/run-while-sleeping", explore.Options{MaxSchedules: 500_000}, func() {
		p := newPool(2)
		n := 0
		if err := p.Run(func(*forkjoin.Worker) { n++ }); err != nil || n != 1 {
			explore.Failf("Run: %v, ran %d times", err, n)
		}
		if err := p.Close(); err != nil {
			explore.Failf("Close: %v", err)
		}
	})
}

// A Join whose first half waits until the second has run: the second must
// be stolen by the other worker, which may be getting sleepy or falling
// asleep as the half is published. If the jobs event counter does not
// stop it, or the publisher does not wake it, both workers wait for ever.
func TestExploreForkJoinStolenHalfMustRun(t *testing.T) {
	explore.Check(t, "forkjoin/stolen-half", explore.Options{MaxSchedules: 500_000}, func() {
		p := newPool(2)
		var bRan explore.Event
		err := p.Run(func(w *forkjoin.Worker) {
			if err := w.Join(func(*forkjoin.Worker) { bRan.Wait() }, func(*forkjoin.Worker) { bRan.Set() }); err != nil {
				explore.Failf("Join: %v", err)
			}
		})
		if err != nil {
			explore.Failf("Run: %v", err)
		}
		if err := p.Close(); err != nil {
			explore.Failf("Close: %v", err)
		}
	})
}
