package stress

import (
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/deque"
)

// dequeStressItems is how many distinct items the exactly-once runs move
// through the deque, two million between them, and dequeStressBudget how
// long each run may keep pushing new ones. Under -race on two cores the
// items run out first; with -tags chaos (every operation may yield, so each
// is slow and the races are common) the time does, and the run checks the
// items it pushed. WSCHED_LONG=1 runs ten times the items and four times
// the time (a minute: under chaos the two runs took 5 of verify -long's
// minutes at 150 s each, cmd/verify/layers.go).
func dequeStressItems() int {
	if os.Getenv("WSCHED_LONG") != "" {
		return 20_000_000
	}
	return 2_000_000
}

func dequeStressBudget() time.Duration {
	if os.Getenv("WSCHED_LONG") != "" {
		return 60 * time.Second
	}
	return 15 * time.Second
}

// runDequeExactlyOnce moves n items through one deque: the owner pushes them
// in bursts drawn by burst() and pops back part of each burst, `thieves`
// goroutines steal until the owner is done and the deque is empty, and the
// owner drains what is left. Every item must be taken exactly once.
func runDequeExactlyOnce(t *testing.T, n, thieves, capacity int, burst func(*rand.Rand) (push, pop int)) {
	t.Helper()
	d, err := deque.New[int32](capacity)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]int32, n)
	taken := make([]atomic.Int32, n)
	for i := range vals {
		vals[i] = int32(i)
	}
	take := func(p *int32) { taken[*p].Add(1) }

	var done atomic.Bool
	var stolen, retries atomic.Int64
	var wg sync.WaitGroup
	for range thieves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s, r int64
			for {
				p, res := d.Steal()
				switch res {
				case deque.Success:
					take(p)
					s++
				case deque.Retry:
					r++
				case deque.Empty:
					if done.Load() {
						stolen.Add(s)
						retries.Add(r)
						return
					}
					runtime.Gosched()
				}
			}
		}()
	}

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	next, popped := 0, 0
	deadline := time.Now().Add(dequeStressBudget())
	for iter := 0; next < n; iter++ {
		if iter%1024 == 0 && time.Now().After(deadline) {
			break
		}
		push, pop := burst(rng)
		for ; push > 0 && next < n; push-- {
			d.Push(&vals[next])
			next++
		}
		for ; pop > 0; pop-- {
			p, ok := d.Pop()
			if !ok {
				break
			}
			take(p)
			popped++
		}
	}
	for {
		p, ok := d.Pop()
		if !ok {
			break
		}
		take(p)
		popped++
	}
	// The owner saw the deque empty; thieves stop at their next Empty.
	done.Store(true)
	wg.Wait()

	allowed := n
	n = next // the items pushed
	missing, dup := 0, 0
	for i := range taken[:n] {
		switch c := taken[i].Load(); {
		case c == 0:
			missing++
		case c > 1:
			dup++
		}
		if missing+dup > 0 && missing+dup <= 3 && taken[i].Load() != 1 {
			t.Errorf("item %d taken %d times", i, taken[i].Load())
		}
	}
	if missing+dup > 0 {
		t.Fatalf("%d items never taken, %d taken more than once (of %d; popped %d, stolen %d)", missing, dup, n, popped, stolen.Load())
	}
	t.Logf("%d items (of %d allowed): popped %d, stolen %d, steal retries %d, final ring %d", n, allowed, popped, stolen.Load(), retries.Load(), d.Capacity())
}

// TestDequeExactlyOnceBursts: bursts onto a ring that starts at one slot,
// so it grows while thieves steal from the old rings.
func TestDequeExactlyOnceBursts(t *testing.T) {
	runDequeExactlyOnce(t, dequeStressItems()*3/5, 2, 1, func(rng *rand.Rand) (int, int) {
		push := 1 + rng.IntN(64)
		return push, rng.IntN(push + 1)
	})
}

// TestDequeExactlyOnceLastElement: the owner pushes one or two elements and
// pops as many back, so the deque is almost always empty or nearly so, and
// the owner's Pop races a thief for the last element over and over.
func TestDequeExactlyOnceLastElement(t *testing.T) {
	runDequeExactlyOnce(t, dequeStressItems()*2/5, 2, 2, func(rng *rand.Rand) (int, int) {
		n := 1 + rng.IntN(2)
		return n, n
	})
}
