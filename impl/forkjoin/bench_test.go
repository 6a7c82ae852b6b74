package forkjoin_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/wsched/wsched/impl/forkjoin"
)

// fibGo spawns a goroutine for one half of every call at or above cutoff
// and waits with a WaitGroup: the baseline Join has to beat.
func fibGo(n, cutoff int) int {
	if n < 2 {
		return n
	}
	if n < cutoff {
		return fibSeq(n)
	}
	var x, y int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		y = fibGo(n-2, cutoff)
	}()
	x = fibGo(n-1, cutoff)
	wg.Wait()
	return x + y
}

const benchFibN = 30

var benchSink int

// BenchmarkFib30 compares fib(30) sequentially, with Join (at every call,
// and below a sequential cutoff of 20) on a 2-worker pool, and with a
// goroutine per call.
func BenchmarkFib30(b *testing.B) {
	want := fibSeq(benchFibN)
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			benchSink = fibSeq(benchFibN)
		}
	})
	for _, c := range []struct {
		name   string
		cutoff int
	}{{"join-cutoff20", 20}, {"join-every-call", 0}} {
		b.Run(c.name, func(b *testing.B) {
			p, err := forkjoin.New(forkjoin.Config{Workers: 2})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for b.Loop() {
				got, err := forkjoin.Do(p, func(w *forkjoin.Worker) int { return fibJoin(w, benchFibN, c.cutoff) })
				if err != nil || got != want {
					b.Fatalf("fib = %d, %v", got, err)
				}
			}
		})
	}
	for _, c := range []struct {
		name   string
		cutoff int
	}{{"goroutine-cutoff20", 20}, {"goroutine-every-call", 0}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if got := fibGo(benchFibN, c.cutoff); got != want {
					b.Fatalf("fib = %d", got)
				}
			}
		})
	}
}

// BenchmarkRunEmpty: the cost of entering the pool from outside and coming
// back (inject, wake a worker, run nothing, signal).
func BenchmarkRunEmpty(b *testing.B) {
	p, err := forkjoin.New(forkjoin.Config{Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	for b.Loop() {
		if err := p.Run(func(*forkjoin.Worker) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJoinEmpty: one Join of two empty functions inside a job, the
// per-Join overhead when nobody steals.
func BenchmarkJoinEmpty(b *testing.B) {
	p, err := forkjoin.New(forkjoin.Config{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	noop := func(*forkjoin.Worker) {}
	p.Run(func(w *forkjoin.Worker) {
		for b.Loop() {
			if err := w.Join(noop, noop); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJoinNested: a chain of Joins nested depth deep on a 2-worker
// pool (each level joins the next level with an empty function), the
// shape of a recursive divide-and-conquer program. ns/level should not
// grow with depth, in the plain build and under -race alike (a check
// whose cost grows with the stack made it quadratic there).
func BenchmarkJoinNested(b *testing.B) {
	for _, depth := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			p, err := forkjoin.New(forkjoin.Config{Workers: 2})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for b.Loop() {
				if err := p.Run(func(w *forkjoin.Worker) { joinChain(w, depth) }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(depth), "ns/level")
		})
	}
}

// joinChain joins joinChain(depth-1) with an empty function.
func joinChain(w *forkjoin.Worker, depth int) {
	if depth == 0 {
		return
	}
	_ = w.Join(func(w *forkjoin.Worker) { joinChain(w, depth-1) }, func(*forkjoin.Worker) {})
}
