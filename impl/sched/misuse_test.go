package sched

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestInvalidConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Workers: 0}, {Workers: -1}, {Workers: 65},
		{Workers: 1, ParkTimeout: -time.Nanosecond},
		{Workers: 1, Parker: ParkerFutex + 1},
		// A unit-less LongPoll: 1 ns made the monitor's period 0 (it
		// then never looked) and 2-3 ns made it spin.
		{Workers: 1, LongPoll: 1}, {Workers: 1, LongPoll: 3}, {Workers: 1, LongPoll: MinLongPoll - 1},
	} {
		rt, err := New(cfg)
		if !errors.Is(err, ErrInvalidConfig) || rt != nil {
			t.Errorf("New(%+v) = %v, %v; want ErrInvalidConfig", cfg, rt, err)
		}
	}
	for _, cfg := range []Config{{Workers: 1}, {Workers: 64}, DefaultConfig(), {Workers: 1, LongPoll: MinLongPoll}, {Workers: 1, LongPoll: -1}} {
		rt, err := New(cfg)
		if err != nil {
			t.Fatalf("New(%+v): %v", cfg, err)
		}
		shutdown(t, rt)
	}
	if d := DefaultConfig(); d.ParkTimeout != 10*time.Millisecond || d.Workers < 1 || d.Workers > 64 || d.DisableStealing {
		t.Fatalf("DefaultConfig() = %+v", d)
	}
}

func TestMisuseErrors(t *testing.T) {
	rt := start(t, testConfig(2))
	if _, err := rt.Spawn(nil); !errors.Is(err, ErrNilTask) {
		t.Errorf("Spawn(nil): %v", err)
	}
	if _, err := rt.Spawn(Func(nil)); !errors.Is(err, ErrNilTask) {
		t.Errorf("Spawn(Func(nil)): %v", err)
	}
	if err := rt.Go(nil); !errors.Is(err, ErrNilTask) {
		t.Errorf("Go(nil): %v", err)
	}
	var inside [5]error
	var w Waker
	var firstDone atomic.Bool
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if firstDone.Load() {
			return Pending
		}
		_, inside[0] = cx.Spawn(nil)
		_, inside[1] = cx.Spawn(Func(nil))
		inside[2] = cx.Sleep(-time.Nanosecond)
		inside[3] = cx.Sleep(0) // same as waking now: polled once more
		inside[4] = cx.Go(nil)
		cx.Wake(Waker{}) // zero Waker: no-op
		w = cx.Waker()
		firstDone.Store(true)
		return Pending
	}))
	waitUntil(t, rt, "second poll", func() bool { return firstDone.Load() && rt.Metrics().TotalPolls() >= 2 })
	for i, want := range []error{ErrNilTask, ErrNilTask, ErrNegativeDuration, nil, ErrNilTask} {
		if !errors.Is(inside[i], want) {
			t.Errorf("inside %d: %v, want %v", i, inside[i], want)
		}
	}
	Waker{}.Wake() // zero Waker: no-op
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait with a cancelled ctx: %v", err)
	}
	tctx, tcancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer tcancel()
	if err := h.Wait(tctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait on a pending task with a short ctx: %v", err)
	}
	shutdown(t, rt)
	w.Wake() // waker after shutdown: no-op
	if _, err := rt.Spawn(TaskFunc(func(*Context) Poll { return Ready })); !errors.Is(err, ErrShutdown) {
		t.Errorf("Spawn after Shutdown: %v", err)
	}
	if _, err := rt.Spawn(Func(func() {})); !errors.Is(err, ErrShutdown) {
		t.Errorf("Spawn(Func) after Shutdown: %v", err)
	}
	if err := rt.Go(func() {}); !errors.Is(err, ErrShutdown) {
		t.Errorf("Go after Shutdown: %v", err)
	}
	if err := h.Wait(context.Background()); !errors.Is(err, ErrCancelled) {
		t.Errorf("pending task after Shutdown: %v", err)
	}
	if p := rt.Metrics().TotalPolls(); p != 2 {
		t.Errorf("%d polls, want 2 (Sleep(0) re-runs once, the wake after shutdown none)", p)
	}
}

func TestSpawnInsideAfterShutdownBegan(t *testing.T) {
	rt, _ := New(unhelpedConfig(1)) // h2 must stay queued behind h
	stop := watchdog(t, rt)
	defer stop()
	entered, release := make(chan struct{}), make(chan struct{})
	var err error
	h, _ := rt.Spawn(Func(func() {
		close(entered)
		<-release
	}))
	h2, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		_, err = cx.Spawn(Func(func() {}))
		return Ready
	}))
	_ = h2
	<-entered
	go func() { _ = rt.Shutdown(context.Background()) }()
	waitUntil(t, rt, "shutdown to begin", func() bool { return rt.closed.LoadRelaxed() })
	close(release)
	shutdown(t, rt)
	if e := h.Wait(context.Background()); e != nil {
		t.Fatal(e)
	}
	// h2 was queued behind h: cancelled, never polled.
	if e := h2.Wait(context.Background()); !errors.Is(e, ErrCancelled) || err != nil {
		t.Fatalf("h2: %v, inner spawn: %v", e, err)
	}
}

// With stealing disabled, a child spawned by a poll that then blocks is
// still taken by the other worker (the monitor's help is not stealing),
// as the package doc promises every queued task. Before: it stayed in the
// blocked worker's ring while the other worker idled, and the poll, which
// waits for the child, waited for ever.
func TestDisableStealingStillRescuesStuckTasks(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := testConfig(workers)
		cfg.DisableStealing = true
		rt := start(t, cfg)
		childRan := make(chan struct{})
		var timedOut atomic.Bool
		h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if _, err := cx.Spawn(Func(func() { close(childRan) })); err != nil {
				panic(err)
			}
			select { // a poll that blocks on its own child
			case <-childRan:
			case <-time.After(hangTimeout):
				timedOut.Store(true)
			}
			return Ready
		}))
		mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		if timedOut.Load() {
			hang(t, rt, "the child queued behind a blocked poll never ran with DisableStealing")
		}
		shutdown(t, rt)
	}
}
