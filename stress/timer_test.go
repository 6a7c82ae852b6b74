package stress

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// sleepDurations are the durations the timer scenarios mix.
var sleepDurations = []time.Duration{0, 50 * time.Microsecond, time.Millisecond,
	3 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond}

// sleeper returns a body that sleeps for each of ds in turn and checks
// that no sleep ends early (monotonic clock, from before the Sleep call)
// and that it is polled exactly len(ds)+1 times.
func sleeper(t *testing.T, ds []time.Duration) func(cx *sched.Context) sched.Poll {
	i := 0
	var began time.Time
	return func(cx *sched.Context) sched.Poll {
		if i > 0 {
			if slept := time.Since(began); slept < ds[i-1] {
				t.Errorf("Sleep(%v) woke the task after %v", ds[i-1], slept)
			}
		}
		if i == len(ds) {
			i++
			return sched.Ready
		}
		if i > len(ds) {
			t.Errorf("sleeper polled again after its last sleep")
			return sched.Ready
		}
		began = time.Now()
		if err := cx.Sleep(ds[i]); err != nil {
			t.Errorf("Sleep(%v): %v", ds[i], err)
		}
		i++
		return sched.Pending
	}
}

// TestSchedTimersMixed: many tasks sleep a few times each for mixed
// durations. Every sleep fires (watchdog), none early, and each task is
// polled exactly once per sleep plus once (the accounting checks the
// total).
func TestSchedTimersMixed(t *testing.T) { forSizes(t, stressSizes, schedTimersMixed) }

func schedTimersMixed(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	tasks := 3000 * stressScale()
	rng := rand.New(rand.NewPCG(uint64(e.workers), 11))
	hs := make([]*sched.JoinHandle, tasks)
	wantPolls := 0
	for i := range hs {
		ds := make([]time.Duration, 1+rng.IntN(3))
		for k := range ds {
			ds[k] = sleepDurations[rng.IntN(len(sleepDurations))]
		}
		wantPolls += len(ds) + 1
		hs[i] = e.spawn(sleeper(t, ds))
	}
	e.waitAll(hs, "sleeper")
	e.shutdown()
	if got := e.rt.Metrics().TotalPolls(); got != uint64(wantPolls) {
		t.Errorf("sleepers polled %d times, want %d", got, wantPolls)
	}
}

// TestSchedTimersUnderFlood: while every worker is kept busy by tasks that
// yield forever, sleepers must still wake, and not early. Two paths fire
// them: each tick starts by polling the timers (the budget ends a tick),
// and the monitor fires due timers whatever LongPoll says; either alone is
// enough here, so this test does not show that the budget ends a tick
// (impl/sched TestBudgetLetsTimersRun does).
func TestSchedTimersUnderFlood(t *testing.T) { forSizes(t, []int{1, 2}, schedTimersUnderFlood) }

func schedTimersUnderFlood(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	var stop atomic.Bool
	var flood []*sched.JoinHandle
	for range 8 * e.workers {
		flood = append(flood, e.spawn(func(cx *sched.Context) sched.Poll {
			if stop.Load() {
				return sched.Ready
			}
			return cx.Yield()
		}))
	}
	var hs []*sched.JoinHandle
	for i := range 50 {
		hs = append(hs, e.spawn(sleeper(t, []time.Duration{sleepDurations[i%len(sleepDurations)], time.Millisecond})))
	}
	e.waitAll(hs, "sleeper under a yield flood")
	stop.Store(true)
	e.waitAll(flood, "flood task")
}

// TestSchedTimerIntoParkedRuntime: every worker is parked with no timeout
// (ParkTimeout 0) when a task arms a timer; the timer alone must bring the
// runtime back. Repeated so the Sleep lands on different workers, including
// ones other than worker 0 (which serves the timers).
func TestSchedTimerIntoParkedRuntime(t *testing.T) {
	forSizes(t, stressSizes, schedTimerIntoParkedRuntime)
}

func schedTimerIntoParkedRuntime(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	// Every worker parked and no extra worker running (one the monitor
	// started, for a poll that looked long on a loaded machine, may
	// still tick): nothing but the timer runs the sleeper.
	allParked := func() bool {
		m := e.rt.Metrics()
		return m.Parked == e.workers && m.ExtraRunning == 0
	}
	for r := range 100 {
		e.until(allParked, fmt.Sprintf("every worker parked before round %d", r))
		d := []time.Duration{time.Millisecond, 2 * time.Millisecond}[r%2]
		e.waitAll([]*sched.JoinHandle{e.spawn(sleeper(t, []time.Duration{d}))},
			"a sleeper in an otherwise idle runtime")
	}
}

// TestSchedNegativeSleepUnderLoad: Sleep(d < 0) keeps returning
// ErrNegativeDuration under load and arms nothing.
func TestSchedNegativeSleepUnderLoad(t *testing.T) {
	forSizes(t, []int{2}, schedNegativeSleepUnderLoad)
}

func schedNegativeSleepUnderLoad(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	hs := make([]*sched.JoinHandle, 500)
	for i := range hs {
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			if err := cx.Sleep(-time.Duration(i + 1)); !errors.Is(err, sched.ErrNegativeDuration) {
				t.Errorf("Sleep(negative) = %v", err)
			}
			return sched.Ready
		})
	}
	e.waitAll(hs, "task with a negative sleep")
}
