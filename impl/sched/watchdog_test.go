package sched

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// hangTimeout is how long a test may wait for its tasks before the
// watchdog calls it a hang. Generous: under -race on 2 quiet cores a
// healthy test needs well under a second, but on a shared machine at a
// load of 20 a test whose goroutines spin beside the workers has taken
// 10 s; a real hang (the park timeout is off, testConfig) never ends, so
// a long timeout costs only the time to report one. WSCHED_WATCHDOG (a
// time.Duration) overrides it.
var hangTimeout = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("WSCHED_WATCHDOG")); err == nil && d > 0 {
		return d
	}
	return time.Minute
}()

// testConfig is the configuration tests use: the park timeout OFF, so a
// lost wakeup is a hang the watchdog reports, not a 10 ms hiccup.
func testConfig(workers int) Config {
	return Config{Workers: workers, ParkTimeout: 0}
}

// unhelpedConfig is testConfig with the monitor's help off (LongPoll < 0),
// for tests whose premise is a task queued behind a blocked poll and
// staying there: with the help on, a worker the monitor wakes or starts
// would run it a millisecond later.
func unhelpedConfig(workers int) Config {
	cfg := testConfig(workers)
	cfg.LongPoll = -1
	return cfg
}

// start makes a runtime, shuts it down at the end of the test, and arms a
// watchdog: if the test is still running after hangTimeout, it prints the
// runtime's metrics and every goroutine's stack and fails the test binary
// (a hang is a failure, not a go test timeout).
func start(t testing.TB, cfg Config) *Runtime {
	t.Helper()
	rt, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	stop := watchdog(t, rt)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
		defer cancel()
		if err := rt.Shutdown(ctx); err != nil {
			hang(t, rt, "Shutdown did not finish: "+err.Error())
		}
		stop()
	})
	return rt
}

func watchdog(t testing.TB, rt *Runtime) (stop func()) {
	timer := time.AfterFunc(hangTimeout+5*time.Second, func() {
		hang(t, rt, "test did not finish")
	})
	return func() { timer.Stop() }
}

// hang reports a hang with the runtime's metrics and exits the test binary.
func hang(t testing.TB, rt *Runtime, why string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "WATCHDOG: %s: %s\n%s\n%s\n", t.Name(), why, rt.Metrics(), buf)
	os.Exit(3)
}

// waitAll waits for every handle with the hang timeout and fails the test
// with a metrics dump if one does not finish. It returns the errors.
func waitAll(t testing.TB, rt *Runtime, hs []*JoinHandle) []error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	errs := make([]error, len(hs))
	for i, h := range hs {
		errs[i] = h.Wait(ctx)
		if ctx.Err() != nil {
			hang(t, rt, fmt.Sprintf("task %d of %d did not finish", i, len(hs)))
		}
	}
	return errs
}

func mustNil(t testing.TB, errs []error) {
	t.Helper()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
	}
}

// waitUntil polls cond until it holds, or reports a hang.
func waitUntil(t testing.TB, rt *Runtime, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			hang(t, rt, "waiting for "+what)
		}
		time.Sleep(50 * time.Microsecond)
	}
}

func shutdown(t testing.TB, rt *Runtime) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := rt.Shutdown(ctx); err != nil {
		hang(t, rt, "Shutdown: "+err.Error())
	}
}
