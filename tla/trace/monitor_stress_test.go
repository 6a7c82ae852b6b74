//go:build tlatrace && !explore

package trace

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/tlatrace"
)

// The monitor's stress runs: impl/sched whole with real parallelism (and
// the chaos points with -tags chaos), two workers, the monitor looking
// every 50 µs (LongPoll at its minimum, 100 µs) with no extra workers
// (MonitorIdle has none), and one goroutine outside the runtime that
// spawns monitorStressTasks tasks with random pauses of up to 400 µs, so
// that the workers park and the monitor goes to sleep with no period and
// is woken again and again. The order of the log is faithful as the idle
// protocol's is (idle_stress_test.go): every write of the bitmap and of
// the monitor's idle flag, and every load of them that the spec has, holds
// internal/tlatrace's mutex from just before the atomic operation to the
// append of its record.
const monitorStressTasks = 24

// monitorStressRun runs the workers, the monitor and the producer once and
// returns the log.
func monitorStressRun(t *testing.T, seed uint64) []tlatrace.Event {
	rng := rand.New(rand.NewPCG(seed, 1))
	tlatrace.Start()
	rt, err := sched.New(sched.Config{Workers: 2, LongPoll: sched.MinLongPoll, ExtraWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	for range monitorStressTasks {
		switch rng.IntN(3) {
		case 0:
			time.Sleep(time.Duration(rng.IntN(400)) * time.Microsecond) // let the workers park and the monitor go idle
		case 1:
			runtime.Gosched()
		}
		h, err := rt.Spawn(sched.Func(func() {}))
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(2) == 0 {
			if err := h.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	evs := tlatrace.Stop()
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestTraceMonitorStress makes one log per stress run and has TLC check
// all of them against MonitorIdle in one run. WSCHED_LONG=1: 20 runs, not 4.
func TestTraceMonitorStress(t *testing.T) {
	runs := 4
	if os.Getenv("WSCHED_LONG") == "1" {
		runs = 20
	}
	m := MonitorModel{N: 2}
	var logs []string
	records, sleeps, wakes := 0, 0, 0
	began := time.Now()
	for k := range runs {
		evs := monitorStressRun(t, uint64(k)+1)
		for _, e := range evs {
			switch {
			case e.Action == "StoreIdle":
				sleeps++ // the monitor saw every worker parked and goes to sleep with no period
			case e.Action == "LoadIdle" && e.OK:
				wakes++ // a worker that left the parked set saw the monitor idle and woke it
			}
		}
		s, err := m.MonitorLog(evs)
		if err != nil {
			t.Fatalf("run %d: %v", k, err)
		}
		records += len(evs)
		logs = append(logs, s)
	}
	t.Logf("%d stress runs, %d records (%d idle stores of the monitor, %d wakes of it by a worker), %s",
		runs, records, sleeps, wakes, time.Since(began).Round(time.Millisecond))
	if sleeps == 0 || wakes == 0 {
		t.Fatal("the monitor never slept idle or was never woken by a worker: the logs do not exercise the pair")
	}
	Validate(t, Jar(), "..", "monitor/stress", m.MonitorBatch(logs, nil), true)
}
