package sched

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// All workers park; then one task is spawned from outside. With the park
// timeout off, a lost notify is a hang. Repeated, with the spawn landing
// while workers are still on their way to parking too.
func TestAllParkedThenRemoteSpawn(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		rt := start(t, testConfig(n))
		for round := 0; round < 60; round++ {
			if round%2 == 0 {
				waitUntil(t, rt, "all workers parked", func() bool {
					m := rt.Metrics()
					return m.Parked == n && bits.OnesCount64(m.ParkedBitmap) == n
				})
			}
			h, err := rt.Spawn(Func(func() {}))
			if err != nil {
				t.Fatal(err)
			}
			mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		}
		shutdown(t, rt)
		m := rt.Metrics()
		if m.Completed != 60 {
			t.Fatalf("workers=%d:\n%s", n, m)
		}
	}
}

// A burst of wakes from many goroutines to tasks that wait for them, with
// parking in between: every task finishes (no lost wakeup), and once the
// runtime is quiet the idle counters agree with the bitmap and nobody is
// left counted as searching.
func TestRemoteWakeBurstsNoLostWakeup(t *testing.T) {
	rt := start(t, testConfig(4))
	const tasks, wakesPer = 64, 20
	wakers := make(chan Waker, tasks)
	var total atomic.Int64
	hs := make([]*JoinHandle, tasks)
	for i := range hs {
		n := 0
		hs[i], _ = rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if n == 0 {
				wakers <- cx.Waker()
			}
			n++
			total.Add(1)
			if n > wakesPer {
				return Ready
			}
			return Pending
		}))
	}
	ws := make([]Waker, tasks)
	for i := range ws {
		ws[i] = <-wakers
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < wakesPer*3; r++ {
				for i := g; i < tasks; i += 4 {
					ws[i].Wake()
				}
			}
		}()
	}
	// Wakes may be absorbed while a task is scheduled; keep waking
	// until every task is done, so completion depends on delivery only.
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				for _, w := range ws {
					w.Wake()
				}
				runtime.Gosched()
			}
		}
	}()
	mustNil(t, waitAll(t, rt, hs))
	close(done)
	wg.Wait()
	waitUntil(t, rt, "quiescence", func() bool {
		m := rt.Metrics()
		return m.Parked == 4 && m.Searching == 0 && bits.OnesCount64(m.ParkedBitmap) == 4
	})
}
