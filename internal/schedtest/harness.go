package schedtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Watchdog bounds every check. A check still waiting when it expires fails
// with the runtime's Metrics dump and the goroutine stacks. The bound is
// generous: the slowest check takes well under a second. The environment
// variable WSCHED_WATCHDOG (a time.Duration such as "5s") overrides it, which
// keeps runs against deliberately broken code short.
var Watchdog = WatchdogFromEnv(60 * time.Second)

// WatchdogFromEnv is WSCHED_WATCHDOG when set to a positive duration, else def.
func WatchdogFromEnv(def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv("WSCHED_WATCHDOG")); err == nil && d > 0 {
		return d
	}
	return def
}

// backstop is how long after the watchdog a check that is stuck somewhere
// the watchdog cannot reach is killed, with the same dump on stderr.
const backstop = 30 * time.Second

// leakDeadline bounds the wait for goroutines to exit after Shutdown.
const leakDeadline = 10 * time.Second

// settle is how long a check gives a bug the chance to show an extra poll
// before it counts polls. It is never a bound on how fast anything must
// be: a correct runtime passes with any value, including zero.
const settle = 20 * time.Millisecond

// env is one check's runtime plus its watchdog.
type env struct {
	t        *testing.T
	impl     Impl
	rt       Runtime
	workers  int
	helped   bool            // the monitor's help is on: a queued task may run beside a blocked poll
	ctx      context.Context // ends when the watchdog fires
	shutdown bool            // the check already shut down cleanly
	polls    atomic.Uint64   // polls of guarded bodies and calls of counted funcs
}

// start builds a runtime with the given number of workers, ParkTimeout 0
// and the monitor's help on (the default LongPoll), arms the watchdog, and
// registers a cleanup that shuts the runtime down and checks that the
// accounting adds up and no goroutine is left behind.
func start(t *testing.T, impl Impl, workers int) *env {
	t.Helper()
	return startWith(t, impl, Config{Workers: workers})
}

// startUnhelped is start with the monitor's help off, for checks whose
// premise is a task that stays queued behind a blocked poll: with the help
// on, a worker the monitor wakes or starts may run that task once the poll
// has been blocked for LongPoll, which a loaded machine reaches whenever
// the check's goroutine is descheduled for a millisecond.
func startUnhelped(t *testing.T, impl Impl, workers int) *env {
	t.Helper()
	return startWith(t, impl, Config{Workers: workers, LongPoll: -1})
}

func startWith(t *testing.T, impl Impl, cfg Config) *env {
	t.Helper()
	baseline := runtime.NumGoroutine()
	cfg.ParkTimeout = 0
	rt, err := impl.New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Watchdog)
	e := &env{t: t, impl: impl, rt: rt, workers: cfg.Workers, helped: cfg.LongPoll >= 0, ctx: ctx}
	kill := time.AfterFunc(Watchdog+backstop, func() {
		fmt.Fprintf(os.Stderr, "%s: stuck beyond the watchdog\n%s\n%s", t.Name(), rt.Metrics().Dump, Stacks())
		panic("schedtest: check stuck beyond its watchdog")
	})
	t.Cleanup(func() {
		defer kill.Stop()
		defer cancel()
		if !e.shutdown {
			// A fresh context: the check's own may be the one that expired.
			sctx, scancel := context.WithTimeout(context.Background(), leakDeadline)
			err := rt.Shutdown(sctx)
			scancel()
			if err != nil {
				t.Errorf("Shutdown in cleanup: %v\nmetrics:\n%s\ngoroutines:\n%s", err, rt.Metrics().Dump, Stacks())
				return
			}
			e.checkAccounting()
		}
		CheckNoLeak(t, baseline)
	})
	return e
}

// shutdownClean shuts the runtime down within the watchdog and checks the
// accounting.
func (e *env) shutdownClean() {
	e.t.Helper()
	if err := e.rt.Shutdown(e.ctx); err != nil {
		e.hang("Shutdown: %v", err)
	}
	e.shutdown = true
	e.checkAccounting()
}

// checkAccounting checks, after Shutdown returned nil, that every accepted
// task ended up completed or cancelled, that nothing is left queued, and
// that no searching credit is left (every worker gave its own back as it
// stopped searching or exited; a credit kept makes publishers skip their
// wakes for good).
func (e *env) checkAccounting() {
	e.t.Helper()
	m := e.rt.Metrics()
	if m.Spawned != m.Completed+m.Cancelled {
		e.t.Errorf("after Shutdown: Spawned %d != Completed %d + Cancelled %d\n%s",
			m.Spawned, m.Completed, m.Cancelled, m.Dump)
	}
	if n := e.polls.Load(); m.Polls != n {
		e.t.Errorf("after Shutdown: Metrics polls = %d, the check's tasks were polled %d times\n%s",
			m.Polls, n, m.Dump)
	}
	if m.GlobalQueueLen != 0 {
		e.t.Errorf("after Shutdown: GlobalQueueLen = %d, want 0\n%s", m.GlobalQueueLen, m.Dump)
	}
	if m.Searching != 0 {
		e.t.Errorf("after Shutdown: the idle state counts %d searchers, want 0 (a searching credit not given back, or given back twice)\n%s", m.Searching, m.Dump)
	}
}

// hang fails the check with the Metrics dump and every goroutine's stack.
func (e *env) hang(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf("%s (watchdog %v)\nmetrics:\n%s\ngoroutines:\n%s",
		fmt.Sprintf(format, args...), Watchdog, e.rt.Metrics().Dump, Stacks())
}

// wait waits for h within the watchdog and returns the task's result.
func (e *env) wait(h Handle, what string) error {
	e.t.Helper()
	err := h.Wait(e.ctx)
	if err != nil && e.ctx.Err() != nil && errors.Is(err, e.ctx.Err()) {
		e.hang("waiting for %s", what)
	}
	return err
}

// waitOK waits for h and requires it to return nil.
func (e *env) waitOK(h Handle, what string) {
	e.t.Helper()
	if err := e.wait(h, what); err != nil {
		e.t.Fatalf("%s: Wait = %v, want nil", what, err)
	}
}

// cancelledOrRanOnce checks the fate of a task that was queued behind a
// blocked poll when Shutdown began, given how many times its body ran (read
// after its Wait returned, which orders the body's writes before the read).
// With the monitor's help off it must be cancelled without running. With
// the help on, a worker the monitor woke or started may have taken it
// before Shutdown began; then it ran exactly once and Wait returns nil.
// Reports whether it ran.
func (e *env) cancelledOrRanOnce(h Handle, what string, runs func() int32) bool {
	e.t.Helper()
	err := e.wait(h, what)
	n := runs()
	switch {
	case errors.Is(err, e.impl.ErrCancelled) && n == 0:
		return false
	case e.helped && err == nil && n == 1:
		return true
	case e.helped:
		e.t.Errorf("%s: Wait = %v after %d runs, want ErrCancelled after none or nil after exactly one", what, err, n)
	default:
		e.t.Errorf("%s (the monitor's help off): Wait = %v after %d runs, want ErrCancelled after none", what, err, n)
	}
	return err == nil
}

// recv waits for a value on ch within the watchdog.
func recv[T any](e *env, ch <-chan T, what string) T {
	e.t.Helper()
	select {
	case v := <-ch:
		return v
	case <-e.ctx.Done():
		e.hang("waiting for %s", what)
		panic("unreachable")
	}
}

// block is how a task's poll waits for ch inside the runtime: like
// <-ch, but when the watchdog fires first it fails the check and
// returns, so that a stranded task ends as a failure (and Shutdown can
// finish) rather than as a poll blocked for good.
func block[T any](e *env, ch <-chan T, what string) {
	select {
	case <-ch:
	case <-e.ctx.Done():
		e.t.Errorf("a poll blocked on %s for the whole watchdog (%v): the task it waits for never ran", what, Watchdog)
	}
}

// until polls cond within the watchdog.
func (e *env) until(cond func() bool, what string) {
	e.t.Helper()
	for !cond() {
		if e.ctx.Err() != nil {
			e.hang("waiting until %s", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// spawn spawns f wrapped in guard and fails the check on error.
func (e *env) spawn(f PollFunc) Handle {
	e.t.Helper()
	h, err := e.rt.Spawn(e.guard(f))
	if err != nil {
		e.t.Fatalf("Spawn: %v", err)
	}
	return h
}

// guard wraps a task body with the invariants every poll must keep: the
// task is never polled by two workers at once, and Worker() names a worker
// of this runtime (one of Workers, or an extra worker).
func (e *env) guard(f PollFunc) PollFunc {
	var inPoll atomic.Bool
	return func(cx Ctx) Poll {
		if !inPoll.CompareAndSwap(false, true) {
			e.t.Errorf("task polled concurrently")
		}
		defer inPoll.Store(false)
		e.polls.Add(1)
		if w := cx.Worker(); w < 0 || w >= e.workers+e.impl.ExtraWorkers {
			e.t.Errorf("Worker() = %d, want 0..%d (%d workers, up to %d extra)", w, e.workers+e.impl.ExtraWorkers-1, e.workers, e.impl.ExtraWorkers)
		}
		return f(cx)
	}
}

// counted wraps a func for Go so that its call counts as a poll.
func (e *env) counted(f func()) func() {
	return func() {
		e.polls.Add(1)
		f()
	}
}

// spawnFunc spawns f with Spawn(Func(f)) and fails the check on error.
func (e *env) spawnFunc(f func()) Handle {
	e.t.Helper()
	h, err := e.rt.SpawnFunc(e.counted(f))
	if err != nil {
		e.t.Fatalf("Spawn(Func): %v", err)
	}
	return h
}

// CheckNoLeak waits until the goroutine count is back to baseline, and
// fails with every stack if it is not within leakDeadline.
func CheckNoLeak(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(leakDeadline)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			t.Errorf("goroutines: %d after Shutdown, %d before New\n%s",
				runtime.NumGoroutine(), baseline, Stacks())
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Stacks returns every goroutine's stack.
func Stacks() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// GoroutinesBlockedIn counts the goroutines that are blocked (on a channel
// receive or a select) with frame on their stack, read from a goroutine
// dump, so without synchronising with them.
func GoroutinesBlockedIn(frame string) int {
	k := 0
	for _, g := range strings.Split(Stacks(), "\n\n") {
		blocked := strings.Contains(g, "[chan receive") || strings.Contains(g, "[select")
		if blocked && strings.Contains(g, frame) {
			k++
		}
	}
	return k
}

// WaitGoroutinesGone waits until no goroutine's stack contains any of
// frames, without synchronising with those goroutines in the race
// detector's sense: it reads goroutine dumps, which the race detector does
// not see, where a channel or a WaitGroup would order everything the
// goroutines did before whatever follows. For checks whose point is that
// only the code under test orders two accesses. (A goroutine that has not
// started yet shows the wrapper Go makes for a go statement with
// arguments, gowrapN, not the function it will call: pass both.)
func WaitGoroutinesGone(t testing.TB, frames ...string) {
	t.Helper()
	for i := 0; ; i++ {
		dump := Stacks()
		if !slices.ContainsFunc(frames, func(f string) bool { return strings.Contains(dump, f) }) {
			return
		}
		if i == 100_000 {
			t.Fatalf("a goroutine with one of %q is still there\n%s", frames, dump)
		}
		runtime.Gosched()
	}
}

// counters is one exactly-once counter per task.
type counters []atomic.Int32

// check fails unless every counter equals want.
func (c counters) check(t *testing.T, what string, want int32) {
	t.Helper()
	var bad []string
	for i := range c {
		if n := c[i].Load(); n != want {
			bad = append(bad, fmt.Sprintf("#%d=%d", i, n))
		}
	}
	if len(bad) > 0 {
		if len(bad) > 20 {
			bad = append(bad[:20], "...")
		}
		t.Errorf("%s: %d of %d tasks not exactly %d: %s", what, len(bad), len(c), want, strings.Join(bad, " "))
	}
}
