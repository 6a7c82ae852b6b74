//go:build tlatrace && !explore

package trace

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/tlatrace"
)

// The stranding scenarios with real parallelism (and the chaos points with
// -tags chaos): the bodies of stranding/batch-mate, lifo-slot and
// extra-worker (strand_explore_test.go) on channels, the monitor looking
// every 50 µs (LongPoll at its minimum) with one extra worker slot (the
// model's ExtraMax), one log per run. The order of the log: the global
// queue's pushes are recorded under the trace lock (Global.Push), the
// notifiers' claims too (impl/idle); a take is recorded after it, which
// is sound (nobody else takes the task); a push into a slot or a ring is
// recorded after it without the lock, so a thief's take can be recorded
// first: PushesBeforeTakes moves such a push's record to just before the
// take (strand.go), and the test reports how many it moved.

func strandStressConfig(workers int) sched.Config {
	return sched.Config{Workers: workers, LongPoll: sched.MinLongPoll, ExtraWorkers: 1}
}

func strandStressRun(t *testing.T, shape string) []tlatrace.Event {
	tlatrace.Start()
	var rt *sched.Runtime
	var err error
	var hs []*sched.JoinHandle
	switch shape {
	case "batch":
		rt, err = sched.New(strandStressConfig(2))
		if err != nil {
			t.Fatal(err)
		}
		ran := make(chan struct{})
		h1, _ := rt.Spawn(sched.Func(func() { <-ran }))
		h2, _ := rt.Spawn(sched.Func(func() { close(ran) }))
		hs = append(hs, h1, h2)
	case "lifo":
		rt, err = sched.New(strandStressConfig(2))
		if err != nil {
			t.Fatal(err)
		}
		var msg atomic.Bool
		wakerc := make(chan sched.Waker, 1)
		hb, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			if msg.Load() {
				return sched.Ready
			}
			select {
			case wakerc <- cx.Waker():
			default:
			}
			return sched.Pending
		}))
		waker := <-wakerc
		ran := make(chan struct{})
		ha, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			msg.Store(true)
			cx.Wake(waker)
			<-ran
			return sched.Ready
		}))
		go func() {
			hb.Wait(context.Background())
			close(ran)
		}()
		hs = append(hs, ha, hb)
	case "spawn":
		rt, err = sched.New(strandStressConfig(1))
		if err != nil {
			t.Fatal(err)
		}
		h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			ran := make(chan struct{})
			if _, err := cx.Spawn(sched.Func(func() { close(ran) })); err != nil {
				panic(err)
			}
			<-ran
			return sched.Ready
		}))
		hs = append(hs, h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, h := range hs {
		if err := h.Wait(ctx); err != nil {
			t.Fatalf("%s: Wait: %v (stranded?)", shape, err)
		}
	}
	evs := tlatrace.Stop()
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestTraceStrandingStress makes one log per run, runsPerShape runs of
// each shape, and has TLC check each shape's logs in one run.
// WSCHED_LONG=1: 40 runs per shape, not 8.
func TestTraceStrandingStress(t *testing.T) {
	runs := 8
	if os.Getenv("WSCHED_LONG") == "1" {
		runs = 40
	}
	began := time.Now()
	var errs []error
	for _, m := range []StrandModel{strandBatch, strandLIFO, strandSpawn} {
		var logs []string
		records, moved, helps, flags, stale := 0, 0, 0, 0, 0
		for range runs {
			evs := strandStressRun(t, m.Shape)
			_, k := PushesBeforeTakes(evs)
			moved += k
			stale += len(StaleFlags(evs))
			for _, e := range evs {
				if e.Proc == tlatrace.StrandProc {
					records++
					switch e.Action {
					case "SMonWake", "SExtra":
						helps++
					case "SFlag":
						flags++
					}
				}
			}
			s, err := m.StrandLog(evs)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			logs = append(logs, s)
		}
		t.Logf("shape %s: %d runs, %d records (%d helps of the monitor, %d flags of which %d marked stale, %d push records moved before their take), %s",
			m.Shape, runs, records, helps, flags, stale, moved, time.Since(began).Round(time.Millisecond))
		if len(logs) > 0 {
			Validate(t, Jar(), "..", "stranding/stress (Shape "+m.Shape+")", m.StrandBatch(logs, nil), true)
		}
	}
	if err := errors.Join(errs...); err != nil {
		t.Errorf("logs the builder refused: %v", err)
	}
}
