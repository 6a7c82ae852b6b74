package sched

import (
	"context"
	"testing"
	"time"
)

func benchRuntime(b *testing.B, workers int) *Runtime {
	rt, err := New(Config{Workers: workers, ParkTimeout: defaultParkTimeout})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rt.Shutdown(context.Background()) })
	return rt
}

var readyTask = TaskFunc(func(*Context) Poll { return Ready })

// BenchmarkSpawnComplete: spawn from outside and wait, in batches of 256.
// allocs/op is per task (the target: one).
func BenchmarkSpawnComplete(b *testing.B) {
	rt := benchRuntime(b, 2)
	hs := make([]*JoinHandle, 0, 256)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; {
		hs = hs[:0]
		for j := 0; j < 256 && i < b.N; j, i = j+1, i+1 {
			h, _ := rt.Spawn(readyTask)
			hs = append(hs, h)
		}
		for _, h := range hs {
			_ = h.Wait(ctx)
		}
	}
}

// BenchmarkSpawnLocal: tasks spawned from inside a task (ring path).
func BenchmarkSpawnLocal(b *testing.B) {
	rt := benchRuntime(b, 2)
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		for i := 0; i < n; i++ {
			_, _ = cx.Spawn(readyTask)
		}
		return Ready
	}))
	_ = h.Wait(context.Background())
	for rt.Metrics().Completed < uint64(n+1) {
	}
}

// BenchmarkYield: one task yielding b.N times on one worker; allocs/op is
// per yield (the target: zero).
func BenchmarkYield(b *testing.B) {
	rt := benchRuntime(b, 1)
	n := b.N
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		i++
		if i < n {
			return cx.Yield()
		}
		return Ready
	}))
	_ = h.Wait(context.Background())
}

// BenchmarkWakePingPong: two tasks waking each other through the LIFO
// slot, b.N wakes in all; allocs/op is per wake (the target: zero).
func BenchmarkWakePingPong(b *testing.B) {
	rt := benchRuntime(b, 1)
	n := b.N
	count := 0
	var wa, wb Waker
	var hb *JoinHandle
	b.ReportAllocs()
	b.ResetTimer()
	ha, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if hb == nil {
			wa = cx.Waker()
			hb, _ = cx.Spawn(TaskFunc(func(cx *Context) Poll {
				wb = cx.Waker()
				count++
				cx.Wake(wa)
				if count >= n {
					return Ready
				}
				return Pending
			}))
			return Pending
		}
		if count >= n {
			return Ready
		}
		count++
		cx.Wake(wb)
		return Pending
	}))
	_ = ha.Wait(context.Background())
}

// BenchmarkRemoteWake: a goroutine outside the runtime wakes a task that
// waits for it (global queue + notify path).
func BenchmarkRemoteWake(b *testing.B) {
	rt := benchRuntime(b, 2)
	n := b.N
	polls := 0
	wakers := make(chan Waker, 1)
	acks := make(chan struct{}, 1)
	b.ReportAllocs()
	b.ResetTimer()
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		polls++
		if polls == 1 {
			wakers <- cx.Waker()
		} else {
			acks <- struct{}{}
		}
		if polls > n {
			return Ready
		}
		return Pending
	}))
	w := <-wakers
	for i := 0; i < n; i++ {
		w.Wake()
		<-acks
	}
	_ = h.Wait(context.Background())
}

// BenchmarkSleepRearm: the timeout pattern, one task on one worker that
// sets Sleep(time.Hour) at every poll and wakes itself, b.N polls: the
// cost of re-arming a timer that never fires.
func BenchmarkSleepRearm(b *testing.B) {
	rt := benchRuntime(b, 1)
	n := b.N
	i := 0
	b.ReportAllocs()
	b.ResetTimer()
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		i++
		if i >= n {
			return Ready
		}
		if err := cx.Sleep(time.Hour); err != nil {
			panic(err)
		}
		cx.Wake(cx.Waker())
		return Pending
	}))
	_ = h.Wait(context.Background())
}
