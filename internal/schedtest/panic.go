package schedtest

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

var errSentinel = errors.New("schedtest: sentinel")

// checkPanic: a panic in Poll reaches the handle as the implementation's
// PanicError, carrying the value; an error value stays visible to
// errors.Is; a task woken during the poll that panics is not polled again;
// the workers keep running tasks afterwards; a panic in a Go func, which
// has no handle, is counted in Metrics.Panicked.
func checkPanic(e *env) {
	expectPanic := func(h Handle, what string, want any) {
		e.t.Helper()
		err := e.wait(h, what)
		v, ok := e.impl.PanicValue(err)
		if !ok {
			e.t.Errorf("%s: Wait = %v, want a PanicError", what, err)
			return
		}
		if v != want {
			e.t.Errorf("%s: panic value %v, want %v", what, v, want)
		}
		if werr, isErr := want.(error); isErr && !errors.Is(err, werr) {
			e.t.Errorf("%s: errors.Is(%v, %v) = false", what, err, werr)
		}
	}

	expectPanic(e.spawn(func(Ctx) Poll { panic("boom") }), "panic in the first poll", "boom")

	wrapped := fmt.Errorf("wrapped: %w", errSentinel)
	polls := 0
	expectPanic(e.spawn(func(cx Ctx) Poll {
		if polls++; polls == 1 {
			return cx.Yield()
		}
		panic(wrapped)
	}), "panic with an error in the second poll", wrapped)

	funcPanic, err := e.rt.SpawnFunc(e.counted(func() { panic("from a Func") }))
	if err != nil {
		e.t.Fatalf("Spawn(Func): %v", err)
	}
	expectPanic(funcPanic, "panic in a Func", "from a Func")

	var wokenPolls atomic.Int32
	expectPanic(e.spawn(func(cx Ctx) Poll {
		wokenPolls.Add(1)
		cx.Waker().Wake()
		panic("woken, then panicked")
	}), "panic after a wake during the poll", "woken, then panicked")

	// The workers survive: a mix of panicking and normal tasks, more of
	// them than there are workers.
	const n = 200
	ran := make(counters, n)
	hs := make([]Handle, n)
	for i := range n {
		hs[i] = e.spawn(func(Ctx) Poll {
			ran[i].Add(1)
			if i%3 == 0 {
				panic(i)
			}
			return Ready
		})
	}
	for i, h := range hs {
		if i%3 == 0 {
			expectPanic(h, fmt.Sprintf("panicking task %d", i), i)
		} else {
			e.waitOK(h, fmt.Sprintf("task %d after panics", i))
		}
	}
	ran.check(e.t, "bodies among panicking tasks", 1)
	time.Sleep(settle)
	if n := wokenPolls.Load(); n != 1 {
		e.t.Errorf("task that panicked after waking itself polled %d times, want 1", n)
	}

	// A Go func has no handle for its panic: the panic is recovered and
	// counted, and the worker goes on (the next Go funcs still run).
	const ng = 20
	goRan := make(counters, ng)
	goDone := make(chan struct{}, ng)
	for i := range ng {
		err := e.rt.Go(e.counted(func() {
			goRan[i].Add(1)
			goDone <- struct{}{}
			if i%2 == 0 {
				panic(i)
			}
		}))
		if err != nil {
			e.t.Fatalf("Go: %v", err)
		}
	}
	for range ng {
		recv(e, goDone, "a Go func among panicking ones")
	}
	e.shutdownClean()
	goRan.check(e.t, "Go funcs among panicking ones", 1)
	panics := uint64(4 + (n+2)/3 + ng/2)
	if m := e.rt.Metrics(); m.Completed != n+4+ng || m.Cancelled != 0 || m.Panicked != panics {
		e.t.Errorf("Metrics: Completed %d Cancelled %d Panicked %d, want %d 0 %d (panicked tasks count as completed)\n%s",
			m.Completed, m.Cancelled, m.Panicked, n+4+ng, panics, m.Dump)
	}
}

// checkGoexit: a poll that calls runtime.Goexit (what t.FailNow does when a
// test's assertion fails inside a task) ends the goroutine it runs on,
// which no deferred call can stop. The task finishes with ErrGoexit, the
// worker goes on, every task queued behind runs exactly once, and a Go
// func that calls Goexit disturbs nothing either. More Goexits than
// workers, so each worker goroutine is replaced at least once on one
// worker.
func checkGoexit(e *env) {
	n := 2*e.workers + 1
	var exits []Handle
	for i := range n {
		polls := 0
		exits = append(exits, e.spawn(func(cx Ctx) Poll {
			if polls++; polls == 1 && i%2 == 1 {
				return cx.Yield() // the odd ones after a yield
			}
			runtime.Goexit()
			return Ready
		}))
		if err := e.rt.Go(e.counted(runtime.Goexit)); err != nil {
			e.t.Fatalf("Go: %v", err)
		}
	}
	const behind = 50
	runs := make(counters, behind)
	var hs []Handle
	for i := range behind {
		hs = append(hs, e.spawnFunc(func() { runs[i].Add(1) }))
	}
	for i, h := range exits {
		if err := e.wait(h, fmt.Sprintf("Goexit task %d", i)); !errors.Is(err, e.impl.ErrGoexit) {
			e.t.Errorf("Goexit task %d: Wait = %v, want ErrGoexit", i, err)
		}
	}
	for i, h := range hs {
		e.waitOK(h, fmt.Sprintf("task %d queued behind the Goexits", i))
	}
	runs.check(e.t, "runs of tasks queued behind the Goexits", 1)
	e.shutdownClean()
	if m := e.rt.Metrics(); m.Panicked != 0 {
		e.t.Errorf("Goexits counted as panics: %d\n%s", m.Panicked, m.Dump)
	}
}
