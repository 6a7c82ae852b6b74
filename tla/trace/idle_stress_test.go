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

// The idle protocol's stress runs: impl/sched whole with real parallelism
// (GOMAXPROCS as the machine has it; with -tags chaos the chaos points
// widen the race windows), two workers, and one goroutine outside the
// runtime that spawns idleStressTasks tasks with random pauses, so that
// the workers park and are woken again and again. The park timeout is off
// and the monitor does not help long polls (as in the explored
// scenarios): every idle record is a worker's or the producer's.
//
// The producer waits for a task to run before the next only now and then
// (at random, one time in two), so the global queue often holds several,
// and a worker's poll of the global queue takes a batch: impl/sched's
// pollGlobal runs the first task and holds the rest out of every queue
// until it has pushed them into its ring. IdleProtocol has that step with
// GlobalBatch (the trace's model); before it, the producer had to wait for
// every task (docs/tla.md, "Trace validation": a log of this test under
// -tags chaos, rejected when the producer did not wait).
//
// The order of the log is the order of the operations: every logged
// operation of impl/idle holds internal/tlatrace's mutex from just before
// its atomic operation to the append of its record, and every write of
// ns, np and the bitmap is a logged operation; so no two of them overlap,
// and each load's value, each update's result and each goroutine's
// program order agree with the log. What the log does not observe (the
// queues, the parkers' tokens) is left free in the trace module.
const idleStressTasks = 16

func idleStressModel() IdleModel { return IdleModel{N: 2, ExtTasks: idleStressTasks} }

// idleStressRun runs the workers and the producer once and returns the log
// and how many of the global queue's takes took more than one task.
func idleStressRun(t *testing.T, seed uint64) ([]tlatrace.Event, uint64) {
	rng := rand.New(rand.NewPCG(seed, 0))
	tlatrace.Start()
	rt, err := sched.New(sched.Config{Workers: 2, LongPoll: -1})
	if err != nil {
		t.Fatal(err)
	}
	var hs []*sched.JoinHandle
	for range idleStressTasks {
		switch rng.IntN(4) {
		case 0:
			time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond) // let the workers park
		case 1:
			runtime.Gosched()
		}
		h, err := rt.Spawn(sched.Func(func() {}))
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
		if rng.IntN(2) == 0 {
			if err := h.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, h := range hs {
		if err := h.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	evs := tlatrace.Stop()
	var batched uint64 // tasks taken from the global queue beyond one per take
	for _, w := range rt.Metrics().Workers {
		batched += w.GlobalPolls - w.GlobalBatches
	}
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return evs, batched
}

// TestTraceIdleStress makes one log per stress run and has TLC check all
// of them against IdleProtocol in one run. WSCHED_LONG=1: 20 runs, not 4.
func TestTraceIdleStress(t *testing.T) {
	runs := 4
	if os.Getenv("WSCHED_LONG") == "1" {
		runs = 20
	}
	m := idleStressModel()
	var logs []string
	events, claims, cancels := 0, 0, 0
	var batched uint64
	began := time.Now()
	for k := range runs {
		evs, b := idleStressRun(t, uint64(k)+1)
		batched += b
		for _, e := range evs {
			switch {
			case e.Action == "NFetchAnd" && e.OK:
				claims++
			case e.Action == "PkCancel":
				cancels++
			}
		}
		events += len(evs)
		s, err := m.IdleLog(evs)
		if err != nil {
			t.Fatalf("run %d: %v", k, err)
		}
		logs = append(logs, s)
	}
	t.Logf("%d stress runs, %d idle actions logged (%d claims of a parked worker, %d park-time re-checks that found work, %d tasks held in global batches), %s",
		runs, events, claims, cancels, batched, time.Since(began).Round(time.Millisecond))
	if claims == 0 {
		t.Fatal("no notifier claimed a parked worker in any run: the logs do not exercise the wake protocol")
	}
	if batched == 0 {
		t.Fatal("no take of the global queue took more than one task: the logs do not exercise the batch")
	}
	validateIdle(t, Jar(), "idle/stress", m, logs, 1, nil)
}
