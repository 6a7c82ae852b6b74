package sched

import (
	"math"
	"sync/atomic"
	"testing"
	"time"
)

func sleepOnce(d time.Duration, woke *atomic.Int64) TaskFunc {
	slept := false
	return func(cx *Context) Poll {
		if !slept {
			slept = true
			if err := cx.Sleep(d); err != nil {
				panic(err)
			}
			return Pending
		}
		woke.Add(1)
		return Ready
	}
}

// Sleeping tasks on every worker wake after their duration.
func TestSleepWakes(t *testing.T) {
	rt := start(t, testConfig(3))
	var woke atomic.Int64
	var hs []*JoinHandle
	begin := time.Now()
	for i := 0; i < 30; i++ {
		h, _ := rt.Spawn(sleepOnce(time.Duration(i%5+1)*time.Millisecond, &woke))
		hs = append(hs, h)
	}
	mustNil(t, waitAll(t, rt, hs))
	if woke.Load() != 30 {
		t.Fatalf("%d woke", woke.Load())
	}
	if el := time.Since(begin); el < time.Millisecond {
		t.Fatalf("all sleeps done after %v", el)
	}
}

// Worker 0 parks until the far deadline of a long sleep; a shorter sleep
// added while it is parked must unpark it to re-arm. Without that the short
// sleeper waits the full hour (the park timeout is off), and the watchdog
// reports a hang.
func TestEarlierTimerUnparksWorker0(t *testing.T) {
	for _, kind := range []ParkerKind{ParkerChannel, ParkerFutex} {
		if kind == ParkerFutex && !futexSupported() {
			continue
		}
		rt := start(t, Config{Workers: 2, Parker: kind})
		var woke atomic.Int64
		_, _ = rt.Spawn(sleepOnce(time.Hour, &woke))
		for round := 0; round < 20; round++ {
			if round%2 == 0 {
				waitUntil(t, rt, "worker 0 parked", func() bool {
					return rt.Metrics().ParkedBitmap&1 != 0
				})
			}
			h, _ := rt.Spawn(sleepOnce(200*time.Microsecond, &woke))
			mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		}
		if woke.Load() != 20 {
			t.Fatalf("%d short sleepers woke", woke.Load())
		}
	}
}

// rearming is the timeout pattern: a task that sets Sleep(timeout) at
// every poll and finishes once it has been woken `wakes` times by hand.
func rearming(timeout time.Duration, wakes int32, polls *atomic.Int32, w *atomic.Pointer[Waker]) TaskFunc {
	return func(cx *Context) Poll {
		if polls.Add(1) > wakes {
			return Ready
		}
		if err := cx.Sleep(timeout); err != nil {
			panic(err)
		}
		wk := cx.Waker()
		w.Store(&wk)
		return Pending
	}
}

// A task has one timer: a Sleep at every poll keeps one timer and a heap
// that does not grow with the polls, and a finished task keeps none.
// Before: one heap entry per poll, each holding the task until its
// deadline (here an hour after the task finished).
func TestSleepAtEveryPollKeepsOneTimer(t *testing.T) {
	rt := start(t, testConfig(2))
	const wakes = 1000
	var polls atomic.Int32
	var w atomic.Pointer[Waker]
	h, _ := rt.Spawn(rearming(time.Hour, wakes, &polls, &w))
	for i := int32(1); i <= wakes; i++ {
		waitUntil(t, rt, "the task to wait", func() bool { return polls.Load() == i && h.t.state.LoadRelaxed() == stateIdle })
		if n := rt.timers.len(); n != 1 {
			t.Fatalf("after %d polls: %d timers, want 1", i, n)
		}
		if e := rt.timers.entries(); e > 2+compactSlack {
			t.Fatalf("after %d polls: %d heap entries for one timer, want at most %d", i, e, 2+compactSlack)
		}
		w.Load().Wake()
	}
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	if n, e := rt.Metrics().PendingTimers, rt.timers.entries(); n != 0 || e != 0 {
		t.Fatalf("finished task: %d timers, %d heap entries, want 0 and 0", n, e)
	}
}

// A finished task's timer goes as it finishes, whether it slept once or
// many times, and other tasks' timers stay.
func TestFinishedTaskDropsItsTimer(t *testing.T) {
	rt := start(t, testConfig(2))
	var woke atomic.Int64
	long, _ := rt.Spawn(sleepOnce(time.Hour, &woke)) // stays
	hs := make([]*JoinHandle, 200)
	for i := range hs {
		hs[i], _ = rt.Spawn(TaskFunc(func(cx *Context) Poll {
			_ = cx.Sleep(time.Hour)
			return Ready // finishes with its timer set
		}))
	}
	mustNil(t, waitAll(t, rt, hs))
	waitUntil(t, rt, "the long sleeper to sleep", func() bool { return long.t.state.LoadRelaxed() == stateIdle })
	if n := rt.Metrics().PendingTimers; n != 1 {
		t.Fatalf("%d timers, want 1 (the long sleeper's)", n)
	}
	if e := rt.timers.entries(); e > 2+compactSlack {
		t.Fatalf("%d heap entries, want at most %d", e, 2+compactSlack)
	}
}

// Sleep(math.MaxInt64), Go's "for ever", sets no timer: the task runs again
// only when woken. Before: the deadline overflowed into the past and the
// task was re-polled at every tick (about 20,000 times in 100 ms).
func TestSleepForever(t *testing.T) {
	for _, d := range []time.Duration{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 / 2 * 2} {
		rt := start(t, testConfig(2))
		var polls atomic.Int32
		var w atomic.Pointer[Waker]
		h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if polls.Add(1) == 1 {
				_ = cx.Sleep(time.Hour) // replaced by the sleep for ever
				if err := cx.Sleep(d); err != nil {
					panic(err)
				}
				wk := cx.Waker()
				w.Store(&wk)
				return Pending
			}
			return Ready
		}))
		waitUntil(t, rt, "the task to sleep", func() bool { return h.t.state.LoadRelaxed() == stateIdle })
		// Give the workers many ticks (and the monitor its rounds) to
		// fire a wrongly due timer.
		for range 200 {
			if err := rt.Go(func() {}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Microsecond)
		}
		if n, tm := polls.Load(), rt.Metrics().PendingTimers; n != 1 || tm != 0 {
			t.Fatalf("Sleep(%d): %d polls, %d timers; want 1 and 0", d, n, tm)
		}
		w.Load().Wake()
		mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		shutdown(t, rt)
	}
}
