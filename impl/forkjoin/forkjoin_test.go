package forkjoin_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/forkjoin"
)

func newPool(t testing.TB, workers int) *forkjoin.Pool {
	t.Helper()
	p, err := forkjoin.New(forkjoin.Config{Workers: workers, NoSleepTimeout: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  forkjoin.Config
		want error
	}{
		{forkjoin.Config{}, forkjoin.ErrWorkers},
		{forkjoin.Config{Workers: -1}, forkjoin.ErrWorkers},
		{forkjoin.Config{Workers: forkjoin.MaxWorkers + 1}, forkjoin.ErrWorkers},
		{forkjoin.Config{Workers: 2, SleepTimeout: -time.Second}, forkjoin.ErrSleepTimeout},
	} {
		if p, err := forkjoin.New(c.cfg); err != c.want {
			t.Errorf("New(%+v) = %v, %v; want %v", c.cfg, p, err, c.want)
		}
	}
}

// fibJoin joins at every call at or above cutoff.
func fibJoin(w *forkjoin.Worker, n, cutoff int) int {
	if n < 2 {
		return n
	}
	if n < cutoff {
		return fibSeq(n)
	}
	var x, y int
	if err := w.Join(
		func(w *forkjoin.Worker) { x = fibJoin(w, n-1, cutoff) },
		func(w *forkjoin.Worker) { y = fibJoin(w, n-2, cutoff) },
	); err != nil {
		panic(err)
	}
	return x + y
}

func TestFibMatchesSequential(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := newPool(t, workers)
		for _, cutoff := range []int{0, 10} {
			for _, n := range []int{0, 1, 2, 10, 22} {
				got, err := forkjoin.Do(p, func(w *forkjoin.Worker) int { return fibJoin(w, n, cutoff) })
				if err != nil || got != fibSeq(n) {
					t.Errorf("workers=%d cutoff=%d fib(%d) = %d, %v; want %d", workers, cutoff, n, got, err, fibSeq(n))
				}
			}
		}
	}
}

// mergeSort sorts s using buf (same length) as scratch, joining the halves.
func mergeSort(w *forkjoin.Worker, s, buf []int) {
	if len(s) <= 32 {
		slices.Sort(s)
		return
	}
	mid := len(s) / 2
	if err := w.Join(
		func(w *forkjoin.Worker) { mergeSort(w, s[:mid], buf[:mid]) },
		func(w *forkjoin.Worker) { mergeSort(w, s[mid:], buf[mid:]) },
	); err != nil {
		panic(err)
	}
	copy(buf, s)
	i, j, k := 0, mid, 0
	for i < mid && j < len(s) {
		if buf[i] <= buf[j] {
			s[k] = buf[i]
			i++
		} else {
			s[k] = buf[j]
			j++
		}
		k++
	}
	k += copy(s[k:], buf[i:mid])
	copy(s[k:], buf[j:len(s)])
}

func TestMergeSortMatchesSequential(t *testing.T) {
	p := newPool(t, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 33, 1000, 100_000} {
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(1000)
		}
		want := slices.Clone(s)
		slices.Sort(want)
		if err := p.Run(func(w *forkjoin.Worker) { mergeSort(w, s, make([]int, n)) }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s, want) {
			t.Errorf("n=%d: parallel merge sort differs from slices.Sort", n)
		}
	}
}

func TestPanicReachesJoiner(t *testing.T) {
	p := newPool(t, 2)
	boom := errors.New("boom")
	for _, c := range []struct {
		name     string
		a, b     func(*forkjoin.Worker)
		want     any
		bothDone bool
	}{
		{"a panics", func(*forkjoin.Worker) { panic("a") }, func(*forkjoin.Worker) {}, "a", true},
		{"b panics", func(*forkjoin.Worker) {}, func(*forkjoin.Worker) { panic(boom) }, boom, true},
		{"both panic", func(*forkjoin.Worker) { panic("a") }, func(*forkjoin.Worker) { panic("b") }, "a", true},
	} {
		var ran atomic.Int32
		wrap := func(f func(*forkjoin.Worker)) func(*forkjoin.Worker) {
			return func(w *forkjoin.Worker) { defer ran.Add(1); f(w) }
		}
		var recovered any
		err := p.Run(func(w *forkjoin.Worker) {
			defer func() { recovered = recover() }()
			w.Join(wrap(c.a), wrap(c.b))
		})
		if err != nil {
			t.Errorf("%s: Run = %v; the job recovered, so want nil", c.name, err)
		}
		pe, ok := recovered.(*forkjoin.PanicError)
		if !ok || pe.Value != c.want || len(pe.Stack) == 0 {
			t.Errorf("%s: joiner recovered %#v, want *PanicError{%v}", c.name, recovered, c.want)
		}
		if ran.Load() != 2 {
			t.Errorf("%s: %d halves finished before Join returned, want 2", c.name, ran.Load())
		}
	}
	// A panic deep in a join tree comes out of Run, with the original stack.
	err := p.Run(func(w *forkjoin.Worker) {
		var deep func(w *forkjoin.Worker, n int)
		deep = func(w *forkjoin.Worker, n int) {
			if n == 0 {
				panic(boom)
			}
			w.Join(func(w *forkjoin.Worker) { deep(w, n-1) }, func(w *forkjoin.Worker) { deep(w, n-1) })
		}
		deep(w, 8)
	})
	var pe *forkjoin.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, boom) || !strings.Contains(string(pe.Stack), "forkjoin_test") {
		t.Errorf("deep panic: Run = %v", err)
	}
	// The pool still works.
	if got, err := forkjoin.Do(p, func(w *forkjoin.Worker) int { return fibJoin(w, 15, 0) }); got != 610 || err != nil {
		t.Errorf("after panics: fib(15) = %d, %v", got, err)
	}
}

func TestScope(t *testing.T) {
	p := newPool(t, 2)
	var sum atomic.Int64
	// Spawns that spawn, and Joins inside spawns.
	var spawnTree func(s *forkjoin.Scope, depth int)
	spawnTree = func(s *forkjoin.Scope, depth int) {
		sum.Add(1)
		if depth == 0 {
			return
		}
		for range 3 {
			if err := s.Spawn(func(s *forkjoin.Scope) { spawnTree(s, depth-1) }); err != nil {
				panic(err)
			}
		}
		s.Worker().Join(func(*forkjoin.Worker) { sum.Add(100) }, func(*forkjoin.Worker) { sum.Add(100) })
	}
	err := p.Run(func(w *forkjoin.Worker) {
		if err := w.Scope(func(s *forkjoin.Scope) { spawnTree(s, 5) }); err != nil {
			t.Error(err)
		}
		// Every spawn has finished when Scope returns.
		if got, want := sum.Load(), int64(364+200*121); got != want {
			t.Errorf("sum after Scope = %d, want %d", got, want)
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	// A panicking spawn reaches the Scope caller after the others finish.
	var finished atomic.Int32
	err = p.Run(func(w *forkjoin.Worker) {
		w.Scope(func(s *forkjoin.Scope) {
			for i := range 20 {
				s.Spawn(func(*forkjoin.Scope) {
					defer finished.Add(1)
					if i == 7 {
						panic("spawn 7")
					}
				})
			}
		})
	})
	if pe, ok := err.(*forkjoin.PanicError); !ok || pe.Value != "spawn 7" || finished.Load() != 20 {
		t.Errorf("Run = %v, %d spawns finished", err, finished.Load())
	}

	// A scope kept past its call refuses to spawn.
	var kept *forkjoin.Scope
	p.Run(func(w *forkjoin.Worker) { w.Scope(func(s *forkjoin.Scope) { kept = s }) })
	if err := kept.Spawn(func(*forkjoin.Scope) {}); err != forkjoin.ErrScopeDone {
		t.Errorf("Spawn on a finished scope = %v", err)
	}
}

func TestMisuse(t *testing.T) {
	p, err := forkjoin.New(forkjoin.Config{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	noop := func(*forkjoin.Worker) {}
	if err := p.Run(nil); err != forkjoin.ErrNilFunc {
		t.Errorf("Run(nil) = %v", err)
	}
	var kept *forkjoin.Worker
	p.Run(func(w *forkjoin.Worker) {
		kept = w
		if err := w.Join(nil, noop); err != forkjoin.ErrNilFunc {
			t.Errorf("Join(nil, f) = %v", err)
		}
		if err := w.Scope(nil); err != forkjoin.ErrNilFunc {
			t.Errorf("Scope(nil) = %v", err)
		}
	})
	// The worker is idle now: using it outside its job is refused.
	if err := kept.Join(noop, noop); err != forkjoin.ErrNotInWorker {
		t.Errorf("Join outside the job = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if err := p.Close(); err != forkjoin.ErrClosed {
		t.Errorf("second Close = %v", err)
	}
	if err := p.Run(noop); err != forkjoin.ErrClosed {
		t.Errorf("Run after Close = %v", err)
	}
	if err := kept.Join(noop, noop); err != forkjoin.ErrClosed {
		t.Errorf("Join on a closed pool = %v", err)
	}
	if err := kept.Scope(func(*forkjoin.Scope) {}); err != forkjoin.ErrClosed {
		t.Errorf("Scope on a closed pool = %v", err)
	}
	for _, w := range p.Snapshot().Workers {
		if w.State != forkjoin.StateStopped {
			t.Errorf("worker %d is %v after Close", w.Index, w.State)
		}
	}
}

// TestIdleWorkersSleepAndWake lets the pool go idle until every worker
// sleeps (no timeout), then checks that new work wakes them, repeatedly.
func TestIdleWorkersSleepAndWake(t *testing.T) {
	p := newPool(t, 3)
	for round := range 5 {
		deadline := time.Now().Add(10 * time.Second)
		for p.Snapshot().Sleepers != 3 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: workers did not all go to sleep:\n%v", round, p.Snapshot())
			}
			time.Sleep(time.Millisecond)
		}
		got, err := forkjoin.Do(p, func(w *forkjoin.Worker) int { return fibJoin(w, 18, 0) })
		if err != nil || got != 2584 {
			t.Fatalf("round %d: fib(18) = %d, %v", round, got, err)
		}
	}
	var sleeps int64
	for _, w := range p.Snapshot().Workers {
		sleeps += w.Sleeps
	}
	if sleeps < 15 {
		t.Errorf("%d sleeps in 5 rounds of 3 workers", sleeps)
	}
}

// TestSleepTimeout: with a timeout, a sleeping worker wakes by itself.
func TestSleepTimeout(t *testing.T) {
	p, err := forkjoin.New(forkjoin.Config{Workers: 1, SleepTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	deadline := time.Now().Add(10 * time.Second)
	for p.Snapshot().Workers[0].Sleeps < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not sleep and time out repeatedly:\n%v", p.Snapshot())
		}
		time.Sleep(time.Millisecond)
	}
}
