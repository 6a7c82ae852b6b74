package sched

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/schedtest"
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

// An idle runtime sleeps: once every worker is blocked in its parker, with
// no timers and no park timeout due, no worker wakes again until there is
// work. A parker that returned without a token (one that looked at its
// token without taking it, say) would show as workers that never all
// block, or as parks that keep counting. Both of the channel parker's
// paths: no timeout (a plain receive) and a timeout too long to expire
// here (the select with a timer).
func TestIdleWorkersStayAsleep(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Hour} {
		t.Run(fmt.Sprintf("timeout=%v", timeout), func(t *testing.T) {
			const n = 4
			cfg := testConfig(n)
			cfg.Parker = ParkerChannel // the blocked states below are a channel's
			cfg.ParkTimeout = timeout
			rt := start(t, cfg)
			// Rounds of work that wake workers while they are on their
			// way to sleep, so that some tokens land before the Park
			// they are meant for.
			for range 600 {
				hs := make([]*JoinHandle, 8)
				for i := range hs {
					h, err := rt.Spawn(Func(func() {}))
					if err != nil {
						t.Fatal(err)
					}
					hs[i] = h
				}
				mustNil(t, waitAll(t, rt, hs))
			}
			parks := func() (total uint64) {
				for _, w := range rt.Metrics().Workers {
					total += w.Parks
				}
				return total
			}
			// A worker counts its park before it calls the parker, so
			// once all n are blocked in it the count is final. The
			// monitor sleeps on a channel parker too, with no period once
			// every worker is parked: n+1 goroutines, none waking.
			asleep := func() int { return schedtest.GoroutinesBlockedIn("park.(*Chan).Park(") }
			// Bounded below the package watchdog, so the failure says
			// what it is.
			for deadline := time.Now().Add(5 * time.Second); asleep() != n+1; {
				if time.Now().After(deadline) {
					t.Fatalf("the %d workers and the monitor of an idle runtime never all blocked in their parkers\n%s\n%s",
						n, rt.Metrics(), schedtest.Stacks())
				}
				runtime.Gosched()
			}
			before := parks()
			time.Sleep(50 * time.Millisecond)
			if after, k := parks(), asleep(); after != before || k != n+1 {
				t.Fatalf("idle workers or the monitor woke with nothing to do: %d parks, then %d 50ms later, %d of %d asleep\n%s",
					before, after, k, n+1, rt.Metrics())
			}
			shutdown(t, rt)
		})
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
