package stress

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/forkjoin"
)

// The fork-join stress tests run with the sleep timeout switched off: a
// worker sleeps until somebody wakes it, so a lost wakeup is a hang, and the
// watchdog turns a hang into a failure with a dump of the workers.

func fjLong() bool { return os.Getenv("WSCHED_LONG") != "" }

// fjWatchdog runs body on its own goroutine and fails the test with a dump of
// the pool and of every goroutine if body stops making progress: if the
// counter it bumps stays still for stall. It does not close the pool on a
// hang (Close would wait for the hung Run).
func fjWatchdog(t *testing.T, p *forkjoin.Pool, stall time.Duration, body func(progress *atomic.Int64) error) {
	t.Helper()
	var progress atomic.Int64
	done := make(chan error, 1)
	go func() { done <- body(&progress) }()
	tick := time.NewTicker(stall)
	defer tick.Stop()
	last := int64(-1)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		case <-tick.C:
			now := progress.Load()
			if now != last {
				last = now
				continue
			}
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("no progress for %v after %d steps: a job was lost or a wakeup missed.\npool:\n%v\ngoroutines:\n%s", stall, now, p.Snapshot(), buf)
		}
	}
}

func newFJPool(t *testing.T, workers int) *forkjoin.Pool {
	t.Helper()
	p, err := forkjoin.New(forkjoin.Config{Workers: workers, NoSleepTimeout: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestForkJoinPushWhileGettingSleepy: the first half of a Join blocks until
// the second half has started, so the second half must be run by the other
// worker. Before pushing, the joiner waits until the other worker has
// announced that it is sleepy (most iterations) or has fallen asleep, then
// waits a random moment more, so the push lands all over the window between
// the other worker's last search and its sleep. If a push can slip into that
// window unnoticed, the other worker sleeps for good and so does the joiner.
func TestForkJoinPushWhileGettingSleepy(t *testing.T) {
	budget := 6 * time.Second
	if fjLong() {
		// 45 s: with the trees below, under -race and again under
		// chaos, two minutes each took 8 of verify -long's minutes
		// (cmd/verify/layers.go).
		budget = 45 * time.Second
	}
	p := newFJPool(t, 2)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 3))
	var iters int64
	fjWatchdog(t, p, 10*time.Second, func(progress *atomic.Int64) error {
		start := time.Now()
		for i := 0; time.Since(start) < budget; i++ {
			d := rng.IntN(200)
			err := p.Run(func(w *forkjoin.Worker) {
				fjWaitForOther(p, 1-w.Index(), i%4 != 0)
				fjSpin(d)
				started := make(chan struct{})
				if err := w.Join(
					func(*forkjoin.Worker) { <-started },
					func(*forkjoin.Worker) { close(started) },
				); err != nil {
					panic(err)
				}
			})
			if err != nil {
				return fmt.Errorf("iteration %d: %w", i, err)
			}
			progress.Add(1)
			iters++
		}
		return nil
	})
	t.Logf("seed %d: %d iterations, %d sleeps", seed, iters, fjSleeps(p))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func fjSleeps(p *forkjoin.Pool) (n int64) {
	for _, w := range p.Snapshot().Workers {
		n += w.Sleeps
	}
	return n
}

// fjWaitForOther waits (briefly, bounded) until worker i is sleepy, or asleep
// when sleepy is false.
func fjWaitForOther(p *forkjoin.Pool, i int, sleepy bool) {
	want := forkjoin.StateSleeping
	if sleepy {
		want = forkjoin.StateSleepy
	}
	for range 100_000 {
		s := p.WorkerState(i)
		if s == want || s == forkjoin.StateSleeping {
			return
		}
		if s != forkjoin.StateSleepy {
			runtime.Gosched()
		}
	}
}

var fjSpinSink atomic.Int64

// fjSpin burns roughly n small steps of CPU without yielding.
func fjSpin(n int) {
	var x int64
	for i := range n * 8 {
		x += int64(i) ^ x>>3
	}
	fjSpinSink.Add(x)
}

// fjTree joins down a random tree and returns the number of leaves it
// ran: deep chains (one side a leaf), balanced forks, and scopes with many
// spawns, mixed.
func fjTree(w *forkjoin.Worker, rng uint64, depth int, leaves *atomic.Int64) {
	rng = rng*6364136223846793005 + 1442695040888963407
	if depth == 0 {
		leaves.Add(1)
		fjSpin(int(rng>>58) + 1)
		return
	}
	switch (rng >> 40) % 8 {
	case 0: // wide: a scope of many spawns, each a small subtree
		fjMust(w.Scope(func(s *forkjoin.Scope) {
			for i := range 16 {
				fjMust(s.Spawn(func(s *forkjoin.Scope) { fjTree(s.Worker(), rng+uint64(i), min(depth-1, 2), leaves) }))
			}
		}))
	case 1, 2: // deep: a chain with a leaf on one side
		fjMust(w.Join(
			func(w *forkjoin.Worker) { fjTree(w, rng, depth-1, leaves) },
			func(w *forkjoin.Worker) { fjTree(w, rng^1, 0, leaves) },
		))
	default: // balanced
		fjMust(w.Join(
			func(w *forkjoin.Worker) { fjTree(w, rng, depth-1, leaves) },
			func(w *forkjoin.Worker) { fjTree(w, rng^0xdead, depth-1, leaves) },
		))
	}
}

// fjChain joins down a chain of the given depth, a leaf on the right of
// every level: depth+1 leaves.
func fjChain(w *forkjoin.Worker, depth int, leaves *atomic.Int64) {
	if depth == 0 {
		leaves.Add(1)
		return
	}
	fjMust(w.Join(
		func(w *forkjoin.Worker) { fjChain(w, depth-1, leaves) },
		func(*forkjoin.Worker) { leaves.Add(1) },
	))
}

// fjMust panics on a misuse error; the panic reaches Run as a *PanicError
// and fails the test.
func fjMust(err error) {
	if err != nil {
		panic(err)
	}
}

// fjTreeSeq counts the leaves fjTree runs, sequentially.
func fjTreeSeq(rng uint64, depth int) int64 {
	rng = rng*6364136223846793005 + 1442695040888963407
	if depth == 0 {
		return 1
	}
	switch (rng >> 40) % 8 {
	case 0:
		var n int64
		for i := range 16 {
			n += fjTreeSeq(rng+uint64(i), min(depth-1, 2))
		}
		return n
	case 1, 2:
		return fjTreeSeq(rng, depth-1) + 1
	default:
		return fjTreeSeq(rng, depth-1) + fjTreeSeq(rng^0xdead, depth-1)
	}
}

// TestForkJoinTreesNoLostJobs runs random deep and wide join trees, several
// at once from outside the pool, with idle gaps between them so workers go
// to sleep and are woken again, and checks that every leaf ran exactly once
// per tree (the count is compared with a sequential walk of the same tree).
func TestForkJoinTreesNoLostJobs(t *testing.T) {
	budget := 4 * time.Second
	if fjLong() {
		budget = 45 * time.Second // as in TestForkJoinPushWhileGettingSleepy
	}
	p := newFJPool(t, 4)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	var trees atomic.Int64
	fjWatchdog(t, p, 10*time.Second, func(progress *atomic.Int64) error {
		errs := make(chan error, 3)
		for c := range 3 {
			go func() {
				rng := rand.New(rand.NewPCG(seed, uint64(c)))
				start := time.Now()
				for i := 0; time.Since(start) < budget; i++ {
					r, depth := rng.Uint64(), 4+rng.IntN(9)
					want := fjTreeSeq(r, depth)
					var leaves atomic.Int64
					job := func(w *forkjoin.Worker) { fjTree(w, r, depth, &leaves) }
					if rng.IntN(16) == 0 {
						// A deep chain: every level's leaf is up for
						// stealing while the chain goes on.
						depth = 500 + rng.IntN(2000)
						want = int64(depth) + 1
						job = func(w *forkjoin.Worker) { fjChain(w, depth, &leaves) }
					}
					if err := p.Run(job); err != nil {
						errs <- err
						return
					}
					if got := leaves.Load(); got != want {
						errs <- fmt.Errorf("client %d tree %d (depth %d): %d leaves ran, want %d", c, i, depth, got, want)
						return
					}
					progress.Add(1)
					trees.Add(1)
					if rng.IntN(4) == 0 {
						time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
					}
				}
				errs <- nil
			}()
		}
		for range 3 {
			if err := <-errs; err != nil {
				return err
			}
		}
		return nil
	})
	var steals int64
	for _, w := range p.Snapshot().Workers {
		steals += w.Steals
	}
	t.Logf("%d trees: %d steals, %d sleeps", trees.Load(), steals, fjSleeps(p))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
