package schedtest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// checkInvalidConfig: worker counts outside 1..64 and a negative park
// timeout are rejected with an error wrapping ErrInvalidConfig; the bounds
// themselves are accepted.
func checkInvalidConfig(t *testing.T, impl Impl) {
	bad := []Config{
		{Workers: 0}, {Workers: -1}, {Workers: 65}, {Workers: 1000},
		{Workers: 1, ParkTimeout: -1}, {Workers: 4, ParkTimeout: -time.Second},
		// A unit-less LongPoll (1 ns, meant as 1 ms): the monitor would
		// never look, or spin.
		{Workers: 1, LongPoll: 1}, {Workers: 2, LongPoll: 99 * time.Microsecond},
	}
	for _, cfg := range bad {
		rt, err := impl.New(cfg)
		if !errors.Is(err, impl.ErrInvalidConfig) {
			t.Errorf("New(%+v) error = %v, want ErrInvalidConfig", cfg, err)
		}
		if rt != nil {
			t.Errorf("New(%+v) returned a runtime with its error", cfg)
			rt.Shutdown(context.Background())
		}
	}
	for _, cfg := range []Config{{Workers: 1}, {Workers: 64}, {Workers: 3, ParkTimeout: time.Millisecond}} {
		baseline := runtime.NumGoroutine()
		rt, err := impl.New(cfg)
		if err != nil {
			t.Errorf("New(%+v) = %v", cfg, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), Watchdog)
		if err := rt.Shutdown(ctx); err != nil {
			t.Errorf("New(%+v) then Shutdown: %v\n%s", cfg, err, rt.Metrics().Dump)
		}
		cancel()
		if m := rt.Metrics(); m.Workers != cfg.Workers {
			t.Errorf("New(%+v): Metrics has %d workers", cfg, m.Workers)
		}
		CheckNoLeak(t, baseline)
	}
}

// checkNilTask: nil tasks and funcs are refused, from outside and inside.
func checkNilTask(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	expectNil := func(what string, h Handle, err error) {
		t.Helper()
		if !errors.Is(err, impl.ErrNilTask) || h != nil {
			t.Errorf("%s = %v, %v; want nil, ErrNilTask", what, h, err)
		}
	}
	h, err := e.rt.Spawn(nil)
	expectNil("Spawn(nil)", h, err)
	h, err = e.rt.SpawnFunc(nil)
	expectNil("Spawn(Func(nil))", h, err)
	if err := e.rt.Go(nil); !errors.Is(err, impl.ErrNilTask) {
		t.Errorf("Go(nil) = %v; want ErrNilTask", err)
	}
	h, err = impl.SpawnNilFunc(e.rt)
	expectNil("Spawn(TaskFunc(nil))", h, err)
	e.waitOK(e.spawn(func(cx Ctx) Poll {
		h, err := cx.Spawn(nil)
		expectNil("Context.Spawn(nil)", h, err)
		h, err = cx.SpawnFunc(nil)
		expectNil("Context.Spawn(Func(nil))", h, err)
		if err := cx.Go(nil); !errors.Is(err, impl.ErrNilTask) {
			t.Errorf("Context.Go(nil) = %v; want ErrNilTask", err)
		}
		return Ready
	}), "the task spawning nils")
	e.shutdownClean()
	if m := e.rt.Metrics(); m.Spawned != 1 {
		t.Errorf("Metrics: Spawned %d, want 1: nil tasks must not be counted", m.Spawned)
	}
}

// checkAfterShutdown: once Shutdown has returned, spawning fails with
// ErrShutdown, wakes of finished and cancelled tasks do nothing, and
// handles keep answering.
func checkAfterShutdown(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	wch := make(chan Waker, 2)
	done := e.spawn(func(cx Ctx) Poll { wch <- cx.Waker(); return Ready })
	pending := e.spawn(func(cx Ctx) Poll { wch <- cx.Waker(); return Pending })
	w1 := recv(e, wch, "a waker")
	w2 := recv(e, wch, "a waker")
	e.waitOK(done, "the finished task")
	e.shutdownClean()

	if h, err := e.rt.Spawn(func(Ctx) Poll { return Ready }); !errors.Is(err, impl.ErrShutdown) || h != nil {
		t.Errorf("Spawn after Shutdown = %v, %v; want nil, ErrShutdown", h, err)
	}
	if h, err := e.rt.SpawnFunc(func() {}); !errors.Is(err, impl.ErrShutdown) || h != nil {
		t.Errorf("Spawn(Func) after Shutdown = %v, %v; want nil, ErrShutdown", h, err)
	}
	if err := e.rt.Go(func() {}); !errors.Is(err, impl.ErrShutdown) {
		t.Errorf("Go after Shutdown = %v; want ErrShutdown", err)
	}
	w1.Wake()
	w2.Wake()
	impl.ZeroWaker.Wake()
	if err := e.wait(pending, "the cancelled task"); !errors.Is(err, impl.ErrCancelled) {
		t.Errorf("pending task after Shutdown: Wait = %v, want ErrCancelled", err)
	}
	e.waitOK(done, "the finished task, again")
	if m := e.rt.Metrics(); m.Spawned != 2 || m.Completed != 1 || m.Cancelled != 1 || m.Polls != 2 {
		t.Errorf("Metrics: Spawned %d Completed %d Cancelled %d Polls %d, want 2 1 1 2\n%s",
			m.Spawned, m.Completed, m.Cancelled, m.Polls, m.Dump)
	}
}

// checkWaitContext: Wait honours a context that has already ended, or that
// ends while it waits, and the task goes on regardless. Several goroutines
// may wait on one handle.
func checkWaitContext(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	var released atomic.Bool
	wch := make(chan Waker, 1)
	h := e.spawn(func(cx Ctx) Poll {
		if released.Load() {
			return Ready
		}
		select {
		case wch <- cx.Waker():
		default:
		}
		return Pending
	})
	w := recv(e, wch, "the task's waker")

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Wait(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait(cancelled ctx) = %v, want context.Canceled", err)
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if err := h.Wait(expired); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait(expired ctx) = %v, want context.DeadlineExceeded", err)
	}
	short, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	if err := h.Wait(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait(ctx ending during the wait) = %v, want context.DeadlineExceeded", err)
	}

	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := h.Wait(e.ctx); err != nil {
				t.Errorf("concurrent Wait = %v, want nil", err)
			}
		})
	}
	released.Store(true)
	w.Wake()
	wg.Wait()
	e.waitOK(h, "the released task")
}

// checkNegativeSleep: Sleep(d < 0) returns ErrNegativeDuration and arranges
// no wake.
func checkNegativeSleep(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	var polls atomic.Int32
	wch := make(chan Waker, 1)
	h := e.spawn(func(cx Ctx) Poll {
		if polls.Add(1) > 1 {
			return Ready
		}
		if err := cx.Sleep(-time.Nanosecond); !errors.Is(err, impl.ErrNegativeDuration) {
			t.Errorf("Sleep(-1ns) = %v, want ErrNegativeDuration", err)
		}
		wch <- cx.Waker()
		return Pending
	})
	w := recv(e, wch, "the task's waker")
	time.Sleep(settle)
	if n := polls.Load(); n != 1 {
		t.Errorf("after a refused Sleep the task was polled %d times, want 1", n)
	}
	w.Wake()
	e.waitOK(h, "the woken task")
}

// checkZeroWaker: the zero Waker does nothing, from outside and inside.
func checkZeroWaker(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	impl.ZeroWaker.Wake()
	e.waitOK(e.spawn(func(cx Ctx) Poll {
		impl.ZeroWaker.Wake()
		cx.Wake(impl.ZeroWaker)
		return Ready
	}), "the task waking the zero Waker")
}

// checkNewShutdownNoLeak: runtimes created, used and shut down one after
// another leave no goroutine behind.
func checkNewShutdownNoLeak(t *testing.T, impl Impl) {
	baseline := runtime.NumGoroutine()
	for range 20 {
		rt, err := impl.New(Config{Workers: 8})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), Watchdog)
		for range 10 {
			h, err := rt.SpawnFunc(func() {})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Wait(ctx); err != nil {
				t.Fatalf("Wait: %v\n%s", err, rt.Metrics().Dump)
			}
		}
		if err := rt.Shutdown(ctx); err != nil {
			t.Fatalf("Shutdown: %v\n%s", err, rt.Metrics().Dump)
		}
		cancel()
	}
	CheckNoLeak(t, baseline)
}

// checkCrossRuntimeWake: a task of one runtime wakes, through
// Context.Wake, a task of another runtime; the wake must reach the other
// runtime (it cannot use this worker's queues).
func checkCrossRuntimeWake(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	other := start(t, impl, 2)
	var released atomic.Bool
	wch := make(chan Waker, 1)
	h := other.spawn(func(cx Ctx) Poll {
		if released.Load() {
			return Ready
		}
		select {
		case wch <- cx.Waker():
		default:
		}
		return Pending
	})
	w := recv(e, wch, "the other runtime's task to wait")
	e.waitOK(e.spawn(func(cx Ctx) Poll {
		released.Store(true)
		cx.Wake(w)
		return Ready
	}), "the waking task")
	other.waitOK(h, "the task woken from another runtime")
}

// checkContextAfterPoll: a Context kept after its poll (a goroutine
// started by the poll that calls it later) panics at the call with a
// message naming the mistake, for every method but Waker; Waker is the
// task's own, and wakes it. Nothing is queued or run by the refused calls.
func checkContextAfterPoll(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	kept := make(chan Ctx, 1)
	var polls atomic.Int32
	h, err := e.rt.Spawn(e.guard(func(cx Ctx) Poll {
		if polls.Add(1) == 1 {
			kept <- cx
			return Pending
		}
		return Ready
	}))
	if err != nil {
		t.Fatal(err)
	}
	cx := <-kept
	cx.Waker().Wake() // valid anywhere: the second poll finishes the task
	e.waitOK(h, "the task woken by its kept Context's waker")
	uses := []struct {
		op  string
		use func()
	}{
		{"Go", func() { _ = cx.Go(func() {}) }},
		{"Spawn", func() { _, _ = cx.Spawn(func(Ctx) Poll { return Ready }) }},
		{"Sleep", func() { _ = cx.Sleep(time.Millisecond) }},
		{"Wake", func() { cx.Wake(cx.Waker()) }},
		{"Yield", func() { cx.Yield() }},
		{"Worker", func() { cx.Worker() }},
	}
	for _, u := range uses {
		msg := PanicMessage(u.use)
		if want := "sched: Context." + u.op + " called after its poll returned"; !strings.HasPrefix(msg, want) {
			t.Errorf("kept Context's %s: panic %q, want prefix %q", u.op, msg, want)
		}
	}
	cx.Waker().Wake() // after the task finished: nothing
	if n := polls.Load(); n != 2 {
		t.Errorf("%d polls, want 2", n)
	}
	e.shutdownClean()
	if m := e.rt.Metrics(); m.Spawned != 1 {
		t.Errorf("the refused calls spawned: %d tasks, want 1", m.Spawned)
	}
}

// checkNilContext: Shutdown and Wait with a nil context panic, saying so,
// before they change anything (the runtime still runs tasks after the
// panicking Shutdown), as net/http does with a nil context.
func checkNilContext(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	//lint:ignore SA1012 the nil context is the point
	if msg := PanicMessage(func() { _ = e.rt.Shutdown(nil) }); !strings.HasPrefix(msg, "sched: Shutdown with a nil context.Context") {
		t.Errorf("Shutdown(nil): panic %q", msg)
	}
	h, err := e.rt.SpawnFunc(e.counted(func() {}))
	if err != nil {
		t.Fatalf("Spawn after Shutdown(nil) panicked: %v (the runtime was shut down)", err)
	}
	e.waitOK(h, "a task after Shutdown(nil)")
	//lint:ignore SA1012 the nil context is the point
	if msg := PanicMessage(func() { _ = h.Wait(nil) }); !strings.HasPrefix(msg, "sched: Wait with a nil context.Context") {
		t.Errorf("Wait(nil): panic %q", msg)
	}
	e.shutdownClean()
}

// checkShutdownInsideTask: Shutdown called from a task begins the shutdown
// and returns ErrShutdownInsideTask at once (it cannot wait for its own
// poll); the caller's poll finishes, and a Shutdown from outside then
// completes.
func checkShutdownInsideTask(t *testing.T, impl Impl) {
	e := start(t, impl, 2)
	var inner error
	h, err := e.rt.SpawnFunc(e.counted(func() { inner = e.rt.Shutdown(context.Background()) }))
	if err != nil {
		t.Fatal(err)
	}
	e.waitOK(h, "the task that called Shutdown")
	if !errors.Is(inner, impl.ErrShutdownInsideTask) {
		t.Errorf("Shutdown from a task = %v, want ErrShutdownInsideTask", inner)
	}
	if _, err := e.rt.SpawnFunc(func() {}); !errors.Is(err, impl.ErrShutdown) {
		t.Errorf("Spawn after a task's Shutdown = %v, want ErrShutdown", err)
	}
	e.shutdownClean()
}

// PanicMessage runs f and returns the string it panicked with, "" if it
// returned (and a note if it panicked with something else).
func PanicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			var ok bool
			if msg, ok = r.(string); !ok {
				msg = fmt.Sprintf("(a %T panic: %v)", r, r)
			}
		}
	}()
	f()
	return ""
}
