package deque

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkPushPop: the owner alone, one Push and one Pop per iteration
// (the Join fast path).
func BenchmarkPushPop(b *testing.B) {
	d, _ := New[int](DefaultCapacity)
	v := 1
	for b.Loop() {
		d.Push(&v)
		d.Pop()
	}
}

// BenchmarkPushBurstPop: push 64, pop 64 (no growth after the first round).
func BenchmarkPushBurstPop(b *testing.B) {
	d, _ := New[int](DefaultCapacity)
	v := 1
	for b.Loop() {
		for range 64 {
			d.Push(&v)
		}
		for range 64 {
			d.Pop()
		}
	}
}

// BenchmarkSteal: the owner pushes b.N elements while `thieves` goroutines
// steal them all; ns/op is the time per element moved owner -> thief.
func BenchmarkSteal(b *testing.B) {
	for _, thieves := range []int{1, 2} {
		b.Run(map[int]string{1: "1thief", 2: "2thieves"}[thieves], func(b *testing.B) {
			d, _ := New[int](DefaultCapacity)
			v := 1
			n := int64(b.N)
			var got atomic.Int64
			var retries atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for range thieves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var r int64
					for got.Load() < n {
						switch _, res := d.Steal(); res {
						case Success:
							got.Add(1)
						case Retry:
							r++
						case Empty:
							runtime.Gosched()
						}
					}
					retries.Add(r)
				}()
			}
			for range b.N {
				d.Push(&v)
			}
			wg.Wait()
			b.ReportMetric(float64(retries.Load())/float64(b.N), "retries/op")
		})
	}
}
