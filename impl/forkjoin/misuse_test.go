package forkjoin_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/forkjoin"
)

// runWithin runs p.Run(f) and, if it does not return within a generous
// bound, prints the pool's snapshot and every goroutine's stack and exits
// the test binary: a hang must fail the test, not stall it (and a pool
// with a Run that never returns cannot be closed by the test's cleanup).
func runWithin(t *testing.T, p *forkjoin.Pool, f func(*forkjoin.Worker)) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.Run(f) }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "HANG: %s: Run did not return:\n%v\n%s\n", t.Name(), p.Snapshot(), buf[:runtime.Stack(buf, true)])
		os.Exit(3)
		return nil
	}
}

// panicOf runs f and returns the string it panicked with ("" if none).
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// runtime.Goexit in a job (what t.FailNow does) finishes that job with a
// *PanicError whose Value is ErrGoexit, re-raised by the Join or Scope
// above it and returned by Run; the worker goes on in a new goroutine and
// the pool stays usable; Close leaves no goroutine behind. Before: the
// worker goroutine ended silently and Run never returned.
func TestGoexitInJob(t *testing.T) {
	base := runtime.NumGoroutine()
	noop := func(*forkjoin.Worker) {}
	exit := func(*forkjoin.Worker) { runtime.Goexit() }
	for _, workers := range []int{1, 2} {
		p, err := forkjoin.New(forkjoin.Config{Workers: workers, NoSleepTimeout: true})
		if err != nil {
			t.Fatal(err)
		}
		cases := map[string]func(*forkjoin.Worker){
			"Run's function": exit,
			"Join's first":   func(w *forkjoin.Worker) { _ = w.Join(exit, noop) },
			"Join's second":  func(w *forkjoin.Worker) { _ = w.Join(noop, exit) },
			"nested Join":    func(w *forkjoin.Worker) { _ = w.Join(func(w *forkjoin.Worker) { _ = w.Join(noop, exit) }, noop) },
			"Scope's body":   func(w *forkjoin.Worker) { _ = w.Scope(func(*forkjoin.Scope) { runtime.Goexit() }) },
			"a spawn in Scope": func(w *forkjoin.Worker) {
				_ = w.Scope(func(s *forkjoin.Scope) { _ = s.Spawn(func(*forkjoin.Scope) { runtime.Goexit() }) })
			},
		}
		for name, f := range cases {
			for round := range 3 {
				err := runWithin(t, p, f)
				if !errors.Is(err, forkjoin.ErrGoexit) {
					t.Fatalf("workers=%d, Goexit in %s (round %d): Run = %v, want ErrGoexit", workers, name, round, err)
				}
				got, err := forkjoin.Do(p, func(w *forkjoin.Worker) int { return fibJoin(w, 15, 0) })
				if err != nil || got != 610 {
					t.Fatalf("workers=%d, after a Goexit in %s: fib(15) = %d, %v", workers, name, got, err)
				}
			}
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	waitGoroutines(t, base)
}

// waitGoroutines waits for the goroutine count to come back to base.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// panic(nil) in a job is a panic: with Go 1.21 semantics its value is a
// *runtime.PanicNilError; under GODEBUG=panicnil=1 (the default of a main
// module whose go.mod says go 1.20 or older) recover returns nil, and Run
// must still report a *PanicError (Value nil) rather than success. Before:
// the panic was swallowed and Run returned nil. The test runs itself again
// under that setting.
func TestPanicNilInJob(t *testing.T) {
	legacy := os.Getenv("WSCHED_PANICNIL_CHILD") == "1"
	p := newPool(t, 2)
	noop := func(*forkjoin.Worker) {}
	for name, f := range map[string]func(*forkjoin.Worker){
		"Run's function": func(*forkjoin.Worker) { panic(nil) },
		"Join's second":  func(w *forkjoin.Worker) { _ = w.Join(noop, func(*forkjoin.Worker) { panic(nil) }) },
		"a spawn": func(w *forkjoin.Worker) {
			_ = w.Scope(func(s *forkjoin.Scope) { _ = s.Spawn(func(*forkjoin.Scope) { panic(nil) }) })
		},
	} {
		err := runWithin(t, p, f)
		var pe *forkjoin.PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("panic(nil) in %s (panicnil=1: %v): Run = %v, want a *PanicError", name, legacy, err)
		}
		var pn *runtime.PanicNilError
		switch {
		case legacy && pe.Value != nil:
			t.Errorf("%s: under GODEBUG=panicnil=1 the value is %T, want nil", name, pe.Value)
		case !legacy && !errors.As(err, &pn):
			t.Errorf("%s: value %T, want *runtime.PanicNilError", name, pe.Value)
		}
	}
	if legacy {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPanicNilInJob$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WSCHED_PANICNIL_CHILD=1", "GODEBUG=panicnil=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("under GODEBUG=panicnil=1: %v\n%s", err, out)
	}
}

// Spawn on a scope that has ended returns ErrScopeDone every time and
// never runs its function. Before: the first call returned ErrScopeDone
// and lifted the count, so later calls ran their function with nobody
// waiting.
func TestSpawnOnFinishedScopeAlwaysRefused(t *testing.T) {
	p := newPool(t, 2)
	var kept *forkjoin.Scope
	if err := runWithin(t, p, func(w *forkjoin.Worker) {
		_ = w.Scope(func(s *forkjoin.Scope) { kept = s })
	}); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	for i := range 5 {
		if err := kept.Spawn(func(*forkjoin.Scope) { ran.Add(1) }); !errors.Is(err, forkjoin.ErrScopeDone) {
			t.Fatalf("Spawn %d on a finished scope = %v, want ErrScopeDone", i, err)
		}
	}
	// Give any wrongly queued function every chance to run.
	if err := runWithin(t, p, func(w *forkjoin.Worker) { fibJoin(w, 12, 0) }); err != nil {
		t.Fatal(err)
	}
	if n := ran.Load(); n != 0 {
		t.Fatalf("%d functions spawned on a finished scope ran", n)
	}
}

// Close from inside a job returns ErrInsideJob, and so does Run on a
// one-worker pool (before: both waited for ever); Run from a job of a
// larger pool runs its function on another worker. The pool is still open
// afterwards.
func TestRunAndCloseInsideJob(t *testing.T) {
	for _, workers := range []int{1, 2} {
		p := newPool(t, workers)
		var runErr, closeErr error
		if err := runWithin(t, p, func(*forkjoin.Worker) {
			runErr = p.Run(func(*forkjoin.Worker) {})
			closeErr = p.Close()
		}); err != nil {
			t.Fatal(err)
		}
		wantRun := error(nil)
		if workers == 1 {
			wantRun = forkjoin.ErrInsideJob
		}
		if !errors.Is(runErr, wantRun) || !errors.Is(closeErr, forkjoin.ErrInsideJob) {
			t.Fatalf("workers=%d: Run from a job = %v (want %v), Close from a job = %v (want ErrInsideJob)", workers, runErr, wantRun, closeErr)
		}
		if err := runWithin(t, p, func(*forkjoin.Worker) {}); err != nil {
			t.Fatalf("workers=%d: the pool is not usable after the refused Close: %v", workers, err)
		}
	}
}

// The zero Pool panics at Run and Close saying to use New (before: Run
// queued the function for workers that do not exist and waited for ever).
func TestZeroPoolPanics(t *testing.T) {
	var p forkjoin.Pool
	for name, call := range map[string]func(){
		"Run":   func() { _ = p.Run(func(*forkjoin.Worker) {}) },
		"Close": func() { _ = p.Close() },
	} {
		got := make(chan string, 1)
		go func() { got <- panicOf(call) }()
		select {
		case msg := <-got:
			if !strings.HasPrefix(msg, "forkjoin: zero Pool") {
				t.Errorf("%s on a zero Pool: panic %q", name, msg)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s on a zero Pool did not return", name)
		}
	}
	if n := p.Workers(); n != 0 {
		t.Errorf("zero Pool's Workers() = %d", n)
	}
}
