package stress

// Shared helpers of the scheduler scenarios (spawn_test.go, wake_test.go,
// fairness_test.go, idle_test.go, timer_test.go, shutdown_test.go,
// blocking_test.go).
//
// Every scenario runs on a runtime with ParkTimeout 0, so a lost wakeup is a
// hang, and every hang is caught by a watchdog that fails the test with the
// runtime's Metrics dump and every goroutine's stack. After each scenario
// the runtime is shut down and four invariants are checked:
//
//   - exactly once: the scenario's own per-task counters (in the scenario);
//   - the accounting adds up: Spawned == Completed + Cancelled, and the
//     workers' polls equal the polls the scenario's task bodies counted;
//   - no goroutine leak: the count returns to what it was before New;
//   - no heap leak: after GC the live heap is back near where it started.

import (
	"context"
	"errors"
	"fmt"
	"github.com/wsched/wsched/internal/schedtest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// stressSizes are the worker counts of the scenarios: one worker, the
// machine's two cores, and the widest runtime (every bit of the parked
// bitmap in use, far more workers than cores).
var stressSizes = []int{1, 2, 64}

// stressScale multiplies the scenario sizes: WSCHED_STRESS_SCALE=n, or 8
// with WSCHED_LONG=1. The default keeps the package well inside its time
// budget under -race on two cores.
func stressScale() int {
	if n, err := strconv.Atoi(os.Getenv("WSCHED_STRESS_SCALE")); err == nil && n > 0 {
		return n
	}
	if os.Getenv("WSCHED_LONG") == "1" {
		return 8
	}
	return 1
}

// stressDuration is WSCHED_STRESS_DURATION (for example "10m"): run every
// scenario again and again for that long. Zero means once.
func stressDuration(t *testing.T) time.Duration {
	s := os.Getenv("WSCHED_STRESS_DURATION")
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("WSCHED_STRESS_DURATION=%q: %v", s, err)
	}
	return d
}

// schedWatchdog bounds one round of one scenario: a minute for each unit
// of stressScale. A correct runtime takes a few seconds at the default
// scale; a scenario's work grows with the scale, and at 8 (WSCHED_LONG)
// under the race detector TestSchedShutdownUnderLoad/workers=64 (64
// workers polling 8,000 tasks that yield forever while one goroutine
// spawns 32,000) takes 44 s on two quiet cores and passed a fixed minute
// on a loaded machine: a hang detector that fires on a slow run is a
// flake. WSCHED_WATCHDOG overrides the bound.
func schedWatchdog() time.Duration {
	return schedtest.WatchdogFromEnv(time.Duration(stressScale()) * time.Minute)
}

// heapSlack is how far above its starting point the live heap may be after
// a scenario and a GC. Generous: it catches tasks, rings or timers kept
// alive by the thousand, not allocator noise.
const heapSlack = 32 << 20

// scenario is the signature of every scheduler scenario. cfg sets the
// workers and may set the parker and stealing; the scenario forces
// ParkTimeout to 0.
type scenario func(t *testing.T, cfg sched.Config)

// forSizes runs body as a subtest for each worker count, with the default
// parker and stealing on.
func forSizes(t *testing.T, sizes []int, body scenario) {
	for _, w := range sizes {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) { body(t, sched.Config{Workers: w}) })
	}
}

// schedScenarios lists every scheduler scenario with its worker counts, for
// the soak run. Each also has its own Test function.
var schedScenarios = []struct {
	name  string
	sizes []int
	run   scenario
}{
	{"SpawnStormOutside", stressSizes, schedSpawnStormOutside},
	{"SpawnStormInside", stressSizes, schedSpawnStormInside},
	{"SpawnTrees", stressSizes, schedSpawnTrees},
	{"SpawnBurstOverflow", stressSizes, schedSpawnBurstOverflow},
	{"RecycleChurn", []int{2, 4, 64}, schedRecycleChurn},
	{"YieldStorm", stressSizes, schedYieldStorm},
	{"PingPong", stressSizes, schedPingPong},
	{"WakeFromOutside", stressSizes, schedWakeFromOutside},
	{"WakerManyAtOnce", stressSizes, schedWakerManyAtOnce},
	{"WakesRaceCompletion", stressSizes, schedWakesRaceCompletion},
	{"TwoWakesOfIdleTasks", []int{2, 4}, schedTwoWakesOfIdleTasks},
	{"YieldLetsOthersGo", []int{1}, schedYieldLetsOthersGo},
	{"FairnessYieldFlood", []int{1}, schedFairnessYieldFlood},
	{"FairnessLIFOFlood", []int{1}, schedFairnessLIFOFlood},
	{"IdleChurn", stressSizes, schedIdleChurn},
	{"Rendezvous", []int{2, 4, 64}, schedRendezvous},
	{"TimersMixed", stressSizes, schedTimersMixed},
	{"TimersUnderFlood", []int{1, 2}, schedTimersUnderFlood},
	{"TimerIntoParkedRuntime", stressSizes, schedTimerIntoParkedRuntime},
	{"NegativeSleepUnderLoad", []int{2}, schedNegativeSleepUnderLoad},
	{"ShutdownUnderLoad", stressSizes, schedShutdownUnderLoad},
	{"ShutdownBlockedPoll", stressSizes, schedShutdownBlockedPoll},
	{"ShutdownRacesRemote", stressSizes, schedShutdownRacesRemote},
	{"PanicStorm", stressSizes, schedPanicStorm},
	{"Pipelines", blockingSizes, schedPipelines},
	{"ProducerConsumer", blockingSizes, schedProducerConsumer},
	{"LongPollTasksBehind", blockingSizes, schedLongPollTasksBehind},
	{"TimerDuringLongPolls", blockingSizes, schedTimerDuringLongPolls},
	{"RendezvousBeyondWorkers", blockingSizes, schedRendezvousBeyondWorkers},
	{"ShutdownWithBlockedTask", blockingSizes, schedShutdownWithBlockedTask},
	{"ChannelProgram", []int{1, 2}, schedChannelProgram},
}

// schedVariants are the configurations besides the default that the
// variant test runs a few scenarios under: the futex parker (Linux only; a
// different park/unpark path, workers locked to OS threads) and stealing
// switched off (idle workers must not spin on rings they may not take from,
// and owners must still find everything).
var schedVariants = []struct {
	name string
	cfg  sched.Config
}{
	{"futex", sched.Config{Parker: sched.ParkerFutex}},
	{"nosteal", sched.Config{DisableStealing: true}},
	{"futex-nosteal", sched.Config{Parker: sched.ParkerFutex, DisableStealing: true}},
}

// variantScenarios are the scenarios that exercise parking, waking and
// stealing hardest.
var variantScenarios = []struct {
	name string
	run  scenario
}{
	{"IdleChurn", schedIdleChurn},
	{"SpawnTrees", schedSpawnTrees},
	{"SpawnBurstOverflow", schedSpawnBurstOverflow},
	{"WakeFromOutside", schedWakeFromOutside},
	{"TimerIntoParkedRuntime", schedTimerIntoParkedRuntime},
	{"ShutdownUnderLoad", schedShutdownUnderLoad},
}

// TestSchedVariants runs the variantScenarios with 4 workers under each of
// schedVariants.
func TestSchedVariants(t *testing.T) {
	for _, v := range schedVariants {
		t.Run(v.name, func(t *testing.T) {
			if v.cfg.Parker == sched.ParkerFutex && runtime.GOOS != "linux" {
				t.Skip("the futex parker is Linux only")
			}
			for _, sc := range variantScenarios {
				t.Run(sc.name, func(t *testing.T) {
					cfg := v.cfg
					cfg.Workers = 4
					sc.run(t, cfg)
				})
			}
		})
	}
}

// TestSchedSoak runs every scheduler scenario, round after round, for
// WSCHED_STRESS_DURATION, printing one progress line per round on stderr
// (go test shows it with -v) and stopping at the first failing round:
//
//	WSCHED_STRESS_DURATION=10m go test -race -v -timeout 0 -run TestSchedSoak ./stress
//
// Without the variable it is skipped: the scenarios' own tests have each
// run once. If go test's -timeout would strike first, the soak stops a
// round early instead.
func TestSchedSoak(t *testing.T) {
	d := stressDuration(t)
	if d == 0 {
		t.Skip("set WSCHED_STRESS_DURATION (e.g. 10m) to run the scheduler scenarios repeatedly")
	}
	began := time.Now()
	end := began.Add(d)
	if deadline, ok := t.Deadline(); ok && deadline.Add(-2*time.Minute).Before(end) {
		end = deadline.Add(-2 * time.Minute)
		fmt.Fprintf(os.Stderr, "wsched stress: go test -timeout ends the soak at %v (pass -timeout 0 for the full %v)\n",
			time.Until(end).Round(time.Second), d)
	}
	for round := 1; time.Now().Before(end); round++ {
		ok := t.Run(fmt.Sprintf("round=%d", round), func(t *testing.T) {
			for _, sc := range schedScenarios {
				t.Run(sc.name, func(t *testing.T) { forSizes(t, sc.sizes, sc.run) })
			}
			TestSchedVariants(t)
		})
		fmt.Fprintf(os.Stderr, "wsched stress: round %d %s, %v of %v\n", round,
			map[bool]string{true: "ok", false: "FAILED"}[ok], time.Since(began).Round(time.Second), d)
		if !ok {
			return
		}
	}
}

// schedEnv is one scenario's runtime with its watchdog and its poll count.
type schedEnv struct {
	t        *testing.T
	rt       *sched.Runtime
	workers  int
	ctx      context.Context // ends when the watchdog fires
	polls    atomic.Uint64   // polls of the scenario's task bodies
	shutDown bool            // the scenario shut the runtime down itself
}

// newSchedEnv starts a runtime with ParkTimeout 0 and registers the
// end-of-scenario checks.
func newSchedEnv(t *testing.T, cfg sched.Config) *schedEnv {
	t.Helper()
	cfg.ParkTimeout = 0
	baseGoroutines := runtime.NumGoroutine()
	baseHeap := liveHeap()
	rt, err := sched.New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), schedWatchdog())
	e := &schedEnv{t: t, rt: rt, workers: cfg.Workers, ctx: ctx}
	// If the scenario is stuck where the watchdog's context cannot reach,
	// dump and die rather than wait for the go test timeout.
	kill := time.AfterFunc(schedWatchdog()+30*time.Second, func() {
		fmt.Fprintf(os.Stderr, "%s: stuck beyond its watchdog\n%s\n%s", t.Name(), rt.Metrics(), schedtest.Stacks())
		panic("stress: scenario stuck beyond its watchdog")
	})
	t.Cleanup(func() {
		defer kill.Stop()
		defer cancel()
		if !e.shutDown {
			sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := rt.Shutdown(sctx)
			scancel()
			if err != nil {
				t.Errorf("Shutdown at the end: %v\n%s\n%s", err, rt.Metrics(), schedtest.Stacks())
				return
			}
			e.checkAccounting()
		}
		e.rt = nil
		schedtest.CheckNoLeak(t, baseGoroutines)
		checkHeap(t, baseHeap)
	})
	return e
}

// shutdown shuts down within the watchdog and checks the accounting.
func (e *schedEnv) shutdown() {
	e.t.Helper()
	if err := e.rt.Shutdown(e.ctx); err != nil {
		e.hang("Shutdown: %v", err)
	}
	e.shutDown = true
	e.checkAccounting()
}

// checkAccounting: after Shutdown every accepted task was completed or
// cancelled, nothing is queued, and the workers polled exactly as often as
// the scenario's bodies were called.
func (e *schedEnv) checkAccounting() {
	e.t.Helper()
	m := e.rt.Metrics()
	e.t.Logf("METRIC tasks=%d polls=%d", m.Spawned, m.TotalPolls())
	checkCounts(e.t, counts{m.Spawned, m.Completed, m.Cancelled, m.TotalPolls(), m.GlobalQueueLen}, e.polls.Load(), m)
	if m.PendingTimers != 0 {
		e.t.Errorf("%d timers still pending after Shutdown (they keep their tasks alive)\n%s", m.PendingTimers, m)
	}
}

// counts are the Metrics fields both schedulers report, for checkCounts.
type counts struct {
	spawned, completed, cancelled, polls uint64
	globalQueueLen                       int
}

// checkCounts is the accounting after Shutdown, for either scheduler: every
// accepted task was completed or cancelled, the workers polled exactly as
// often as the scenario's bodies were called (wantPolls), and the global
// queue is empty. dump is the Metrics, printed with any error.
func checkCounts(t *testing.T, c counts, wantPolls uint64, dump fmt.Stringer) {
	t.Helper()
	if c.spawned != c.completed+c.cancelled {
		t.Errorf("after Shutdown: Spawned %d != Completed %d + Cancelled %d\n%s", c.spawned, c.completed, c.cancelled, dump)
	}
	if c.polls != wantPolls {
		t.Errorf("Metrics polls %d, the scenario's bodies ran %d times\n%s", c.polls, wantPolls, dump)
	}
	if c.globalQueueLen != 0 {
		t.Errorf("GlobalQueueLen %d after Shutdown\n%s", c.globalQueueLen, dump)
	}
}

// hang fails the scenario with the Metrics dump and every stack.
func (e *schedEnv) hang(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf("%s (watchdog %v)\nmetrics:\n%s\ngoroutines:\n%s",
		fmt.Sprintf(format, args...), schedWatchdog(), e.rt.Metrics(), schedtest.Stacks())
}

// wait waits for h within the watchdog and returns the task's result.
func (e *schedEnv) wait(h *sched.JoinHandle, what string) error {
	e.t.Helper()
	err := h.Wait(e.ctx)
	if err != nil && e.ctx.Err() != nil && errors.Is(err, e.ctx.Err()) {
		e.hang("waiting for %s", what)
	}
	return err
}

// waitAll requires every handle to return nil.
func (e *schedEnv) waitAll(hs []*sched.JoinHandle, what string) {
	e.t.Helper()
	for i, h := range hs {
		if err := e.wait(h, what); err != nil {
			e.t.Fatalf("%s %d: Wait = %v", what, i, err)
		}
	}
}

// until polls cond within the watchdog.
func (e *schedEnv) until(cond func() bool, what string) {
	e.t.Helper()
	for !cond() {
		if e.ctx.Err() != nil {
			e.hang("waiting until %s", what)
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// task wraps a body: it counts every poll for the accounting and checks
// that the task is never polled by two workers at once nor after it
// returned Ready.
func (e *schedEnv) task(f func(cx *sched.Context) sched.Poll) sched.Task {
	return sched.TaskFunc(guardPolls(e.t, &e.polls, f, sched.Ready))
}

// guardPolls wraps the poll function of one task, of either scheduler (C is
// its context, P its poll result, ready the value that ends it): every call
// is counted in polls, and a call while another is running, or after one
// returned ready, is an error.
func guardPolls[C any, P comparable](t *testing.T, polls *atomic.Uint64, f func(C) P, ready P) func(C) P {
	var inPoll, finished atomic.Bool
	return func(cx C) P {
		polls.Add(1)
		if !inPoll.CompareAndSwap(false, true) {
			t.Errorf("task polled concurrently")
		}
		defer inPoll.Store(false)
		if finished.Load() {
			t.Errorf("task polled after it returned Ready")
		}
		p := f(cx)
		if p == ready {
			finished.Store(true)
		}
		return p
	}
}

// fn wraps a func for Go so that its call counts as a poll.
func (e *schedEnv) fn(f func()) func() {
	return func() {
		e.polls.Add(1)
		f()
	}
}

// spawn spawns a wrapped body from outside and fails on error.
func (e *schedEnv) spawn(f func(cx *sched.Context) sched.Poll) *sched.JoinHandle {
	e.t.Helper()
	h, err := e.rt.Spawn(e.task(f))
	if err != nil {
		e.t.Fatalf("Spawn: %v", err)
	}
	return h
}

// once is one exactly-once counter per task.
type once []atomic.Int32

// check fails unless every counter equals want.
func (c once) check(t *testing.T, what string, want int32) {
	t.Helper()
	var bad []string
	for i := range c {
		if n := c[i].Load(); n != want {
			bad = append(bad, fmt.Sprintf("#%d=%d", i, n))
		}
	}
	if len(bad) > 0 {
		n := len(bad)
		if n > 20 {
			bad = append(bad[:20], "...")
		}
		t.Errorf("%s: %d of %d not exactly %d: %s", what, n, len(c), want, strings.Join(bad, " "))
	}
}

// checkHeap requires the live heap, after GC, to be back within heapSlack
// of where it was before New.
func checkHeap(t *testing.T, baseline uint64) {
	t.Helper()
	var now uint64
	for range 3 { // finalizers and sweeping may need more than one cycle
		if now = liveHeap(); now <= baseline+heapSlack {
			return
		}
	}
	t.Errorf("heap: %d MiB live after Shutdown and GC, %d MiB before New", now>>20, baseline>>20)
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
