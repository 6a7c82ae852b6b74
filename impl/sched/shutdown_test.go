package sched

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

// Shutdown with tasks in every state: one being polled (it finishes), some
// queued (cancelled), one waiting for a wake (cancelled), one sleeping
// (cancelled). Wake after shutdown does nothing, spawns fail.
func TestShutdownCancelsQueuedPendingSleeping(t *testing.T) {
	rt, err := New(unhelpedConfig(1)) // the queued tasks must stay queued behind the running one
	if err != nil {
		t.Fatal(err)
	}
	stop := watchdog(t, rt)
	defer stop()
	entered := make(chan struct{})
	release := make(chan struct{})
	var pendingWaker atomic.Pointer[Waker]
	pending, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		w := cx.Waker()
		pendingWaker.Store(&w)
		return Pending
	}))
	sleeping, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if err := cx.Sleep(time.Hour); err != nil {
			t.Error(err)
		}
		return Pending
	}))
	waitUntil(t, rt, "pending and sleeping tasks polled", func() bool { return rt.Metrics().TotalPolls() == 2 })
	running, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		close(entered)
		<-release
		return Ready
	}))
	<-entered
	var queued []*JoinHandle
	for i := 0; i < 10; i++ {
		h, _ := rt.Spawn(Func(func() { t.Error("queued task ran after shutdown began") }))
		queued = append(queued, h)
	}
	shutdownDone := make(chan error, 1)
	go func() { shutdownDone <- rt.Shutdown(context.Background()) }()
	waitUntil(t, rt, "shutdown to begin", func() bool { return rt.closed.LoadRelaxed() })
	if _, err := rt.Spawn(Func(func() {})); !errors.Is(err, ErrShutdown) {
		t.Fatalf("Go after Shutdown began: %v", err)
	}
	close(release)
	if err := <-shutdownDone; err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := running.Wait(ctx); err != nil {
		t.Fatalf("the running poll: %v, want nil (it finished)", err)
	}
	for i, h := range queued {
		if err := h.Wait(ctx); !errors.Is(err, ErrCancelled) {
			t.Fatalf("queued %d: %v", i, err)
		}
	}
	(*pendingWaker.Load()).Wake() // after shutdown: no-op
	for name, h := range map[string]*JoinHandle{"pending": pending, "sleeping": sleeping} {
		if err := h.Wait(ctx); !errors.Is(err, ErrCancelled) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	m := rt.Metrics()
	if m.Cancelled != 12 || m.Completed != 1 || m.TotalPolls() != 3 {
		t.Fatalf("want 12 cancelled, 1 completed, 3 polls:\n%s", m)
	}
	for i, w := range m.Workers {
		if w.State != "exited" {
			t.Fatalf("worker %d %s after Shutdown", i, w.State)
		}
	}
}

// Shutdown is idempotent and safe to call concurrently; a Shutdown whose
// ctx ends early returns ctx.Err() and the shutdown still completes.
func TestShutdownConcurrentAndTwice(t *testing.T) {
	rt, _ := New(testConfig(4))
	stop := watchdog(t, rt)
	defer stop()
	for i := 0; i < 100; i++ {
		_, _ = rt.Spawn(Func(func() {}))
	}
	block, entered := make(chan struct{}), make(chan struct{})
	_, _ = rt.Spawn(Func(func() { close(entered); <-block }))
	<-entered // a poll blocks (not merely queued: an idle runtime's Shutdown waits for its workers whatever ctx says)
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rt.Shutdown(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown with a cancelled ctx while a poll blocks: %v", err)
	}
	close(block)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := rt.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := rt.Metrics()
	if m.Completed+m.Cancelled != 101 {
		t.Fatalf("101 tasks neither completed nor cancelled:\n%s", m)
	}
}

// Every worker goroutine exits: the goroutine count returns to its
// baseline after Shutdown, for both parkers.
func TestGoroutinesExit(t *testing.T) {
	for _, kind := range []ParkerKind{ParkerChannel, ParkerFutex} {
		if kind == ParkerFutex && !futexSupported() {
			continue
		}
		base := runtime.NumGoroutine()
		rt, err := New(Config{Workers: 8, Parker: kind, ParkTimeout: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		stop := watchdog(t, rt)
		var hs []*JoinHandle
		for i := 0; i < 100; i++ {
			h, _ := rt.Spawn(Func(func() {}))
			hs = append(hs, h)
		}
		mustNil(t, waitAll(t, rt, hs))
		shutdown(t, rt)
		stop()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > base {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Fatalf("%v: %d goroutines after Shutdown, baseline %d\n%s", kind, runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// A panic in Poll is recovered: the task is done, Wait returns a
// *PanicError (unwrapping an error value), the worker goes on.
func TestPanicRecovered(t *testing.T) {
	rt := start(t, testConfig(1))
	sentinel := errors.New("boom")
	h1, _ := rt.Spawn(Func(func() { panic("plain") }))
	h2, _ := rt.Spawn(TaskFunc(func(*Context) Poll { panic(sentinel) }))
	var ran atomic.Bool
	h3, _ := rt.Spawn(Func(func() { ran.Store(true) }))
	errs := waitAll(t, rt, []*JoinHandle{h1, h2, h3})
	var pe *PanicError
	if !errors.As(errs[0], &pe) || pe.Value != "plain" || len(pe.Stack) == 0 {
		t.Fatalf("h1: %v", errs[0])
	}
	if !errors.As(errs[1], &pe) || !errors.Is(errs[1], sentinel) {
		t.Fatalf("h2: %v", errs[1])
	}
	if errs[2] != nil || !ran.Load() {
		t.Fatalf("the worker did not go on after panics: %v", errs[2])
	}
	// Exact after Shutdown; while running, a worker's counts may trail
	// by up to one tick.
	shutdown(t, rt)
	if m := rt.Metrics(); m.Completed != 3 {
		t.Fatalf("panicked tasks count as completed:\n%s", m)
	}
}

// Shutdown drops the timers of the sleeping tasks it cancels: afterwards
// no timer is pending, and a cancelled sleeper whose handle was dropped is
// no longer reachable from the runtime (a timer left in the heap would keep
// it, and its closure, alive for as long as the runtime lives).
func TestShutdownDropsSleepersTimers(t *testing.T) {
	rt := start(t, testConfig(2))
	const sleepers = 16
	var sleeping []weak.Pointer[JoinHandle]
	for range sleepers {
		h, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if err := cx.Sleep(time.Hour); err != nil {
				t.Error(err)
			}
			return Pending
		}))
		if err != nil {
			t.Fatal(err)
		}
		sleeping = append(sleeping, weak.Make(h))
	}
	waitUntil(t, rt, "every sleeper's timer queued", func() bool { return rt.Metrics().PendingTimers == sleepers })
	shutdown(t, rt)
	m := rt.Metrics()
	if m.PendingTimers != 0 || m.Cancelled != sleepers {
		t.Fatalf("after Shutdown: %d timers pending, %d cancelled; want 0 and %d\n%s", m.PendingTimers, m.Cancelled, sleepers, m)
	}
	runtime.GC()
	for i, w := range sleeping {
		if w.Value() != nil {
			t.Errorf("cancelled sleeper %d is still reachable from the runtime after Shutdown", i)
		}
	}
	runtime.KeepAlive(rt)
}

// TestShutdownWaitsForAdmittedRemote: a remote spawn admitted before
// Shutdown began (enterRemote returned true) may push its task after every
// worker has exited. The last worker waits for it before draining the
// global queue, so Shutdown returns only once that task is cancelled: the
// queue is empty afterwards, the handle answers ErrCancelled and the
// accounting adds up. Several rounds, because the push races the last
// worker's exit.
func TestShutdownWaitsForAdmittedRemote(t *testing.T) {
	for round := range 20 {
		rt, err := New(testConfig(2))
		if err != nil {
			t.Fatal(err)
		}
		stop := watchdog(t, rt)
		if !rt.enterRemote() {
			t.Fatal("enterRemote refused before Shutdown")
		}
		done := make(chan error, 1)
		go func() { done <- rt.Shutdown(context.Background()) }()
		waitUntil(t, rt, "every worker exited", func() bool {
			for _, w := range rt.Metrics().Workers {
				if w.State != "exited" {
					return false
				}
			}
			return true
		})
		// The admitted spawn pushes now, as spawnRemote does after its
		// admission.
		h := rt.newTask(Func(func() { t.Error("a task pushed during Shutdown ran") }))
		rt.spawned.Add(1)
		rt.global.Push(&h.t)
		rt.notify()
		rt.exitRemote()
		if err := <-done; err != nil {
			t.Fatalf("round %d: Shutdown: %v", round, err)
		}
		stop()
		m := rt.Metrics()
		if m.GlobalQueueLen != 0 {
			t.Fatalf("round %d: GlobalQueueLen %d after Shutdown: the drain did not wait for an admitted remote spawn\n%s", round, m.GlobalQueueLen, m)
		}
		if m.Spawned != m.Completed+m.Cancelled {
			t.Fatalf("round %d: Spawned %d != Completed %d + Cancelled %d\n%s", round, m.Spawned, m.Completed, m.Cancelled, m)
		}
		if err := h.Wait(context.Background()); !errors.Is(err, ErrCancelled) {
			t.Fatalf("round %d: the task pushed during Shutdown: Wait = %v, want ErrCancelled", round, err)
		}
	}
}

// A finished or cancelled task drops its Task: a kept handle (which keeps
// its whole slab of records alive, slab.go) must not also keep the task's
// closure, nor its neighbours' in the slab.
func TestKeptHandleDropsTheTask(t *testing.T) {
	rt := start(t, testConfig(2))
	type payload struct{ _ [1 << 10]byte }
	var held []weak.Pointer[payload]
	var handles []*JoinHandle
	parent, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		for range 2 * handleSlab {
			p := new(payload)
			held = append(held, weak.Make(p))
			h, err := cx.Spawn(Func(func() { runtime.KeepAlive(p) }))
			if err != nil {
				t.Error(err)
			}
			handles = append(handles, h)
		}
		return Ready
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, h := range handles {
		if err := h.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	for i, w := range held {
		if w.Value() != nil {
			t.Errorf("the closure of finished task %d is still reachable through its handle", i)
		}
	}
	runtime.KeepAlive(handles)
	shutdown(t, rt)
}

// Shutdown from inside a task begins the shutdown and returns
// ErrShutdownInsideTask at once. Before: it waited for its own poll,
// returning only through its context (with context.Background(), never).
// The context here bounds that old wait, so the test fails rather than
// hangs if it comes back.
func TestShutdownInsideTask(t *testing.T) {
	for _, fromGo := range []bool{false, true} {
		rt := start(t, testConfig(2))
		var inner error
		done := make(chan struct{})
		body := func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			inner = rt.Shutdown(ctx)
			close(done)
		}
		if fromGo {
			if err := rt.Go(body); err != nil {
				t.Fatal(err)
			}
		} else if _, err := rt.Spawn(Func(body)); err != nil {
			t.Fatal(err)
		}
		<-done
		if !errors.Is(inner, ErrShutdownInsideTask) {
			t.Fatalf("fromGo=%v: Shutdown from a task = %v, want ErrShutdownInsideTask", fromGo, inner)
		}
		shutdown(t, rt) // from outside: completes once the caller's poll returned
		if err := rt.Go(func() {}); !errors.Is(err, ErrShutdown) {
			t.Fatalf("fromGo=%v: Go after the task's Shutdown = %v", fromGo, err)
		}
	}
}

// A nil context panics at the call, naming it, before Shutdown changes
// anything; Wait on a nil handle or with a nil context panics naming
// that. Before: Shutdown(nil) closed the runtime and then died on a nil
// dereference; Wait on the nil handle of a refused spawn died on one.
func TestNilContextAndHandlePanics(t *testing.T) {
	rt := start(t, testConfig(1))
	//lint:ignore SA1012 the nil context is the point
	if msg := panicOf(func() { _ = rt.Shutdown(nil) }); msg != "sched: Shutdown with a nil context.Context (use context.Background())" {
		t.Fatalf("Shutdown(nil): panic %q", msg)
	}
	if rt.closed.LoadRelaxed() {
		t.Fatal("Shutdown(nil) closed the runtime before panicking")
	}
	h, err := rt.Spawn(Func(func() {}))
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1012 the nil context is the point
	if msg := panicOf(func() { _ = h.Wait(nil) }); !strings.HasPrefix(msg, "sched: Wait with a nil context.Context") {
		t.Fatalf("Wait(nil): panic %q", msg)
	}
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	shutdown(t, rt)
	refused, err := rt.Spawn(Func(func() {})) // the h, _ := pattern
	if !errors.Is(err, ErrShutdown) || refused != nil {
		t.Fatalf("Spawn after Shutdown = %v, %v", refused, err)
	}
	if msg := panicOf(func() { _ = refused.Wait(context.Background()) }); !strings.HasPrefix(msg, "sched: Wait on a nil *JoinHandle") {
		t.Fatalf("Wait on a nil handle: panic %q", msg)
	}
}
