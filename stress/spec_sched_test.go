package stress

// Scenarios for spec/sched, the one-mutex reference scheduler that
// impl/sched is compared against. Its wake state machine (idle, scheduled,
// running, notified) is the contract's; these scenarios put it under many
// workers and many wakes at once and check the same properties as the
// impl/sched scenarios: every task finishes exactly once and is never polled
// after Ready nor by two workers at once, no wake that the contract promises
// is lost, and Shutdown cancels every task it leaves behind.
//
// A lost wake is seen without waiting for the watchdog: spec/sched reports
// a consistent snapshot (taken under its lock), and a snapshot with every
// worker waiting for the queue and the queue empty means nothing will run
// again unless a goroutine outside wakes something. Where no goroutine
// outside does, an unfinished task at that point has lost its wake.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/schedtest"
	spec "github.com/wsched/wsched/spec/sched"
)

// specSizes are the worker counts of the spec/sched scenarios.
var specSizes = []int{1, 2, 8}

// specEnv is one scenario's spec/sched runtime with its watchdog and its
// poll count.
type specEnv struct {
	t     *testing.T
	rt    *spec.Runtime
	ctx   context.Context // ends when the watchdog fires
	polls atomic.Uint64   // polls of the scenario's task bodies
}

// newSpecEnv starts a runtime; at the end of the scenario it is shut down
// and no goroutine may be left behind.
func newSpecEnv(t *testing.T, workers int) *specEnv {
	t.Helper()
	baseGoroutines := runtime.NumGoroutine()
	rt, err := spec.New(spec.Config{Workers: workers})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), schedWatchdog())
	t.Cleanup(func() {
		defer cancel()
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		if err := rt.Shutdown(sctx); err != nil {
			t.Errorf("Shutdown at the end: %v\n%s\n%s", err, rt.Metrics(), schedtest.Stacks())
			return
		}
		schedtest.CheckNoLeak(t, baseGoroutines)
	})
	return &specEnv{t: t, rt: rt, ctx: ctx}
}

// task wraps a body: it counts every poll and checks that the task is never
// polled by two workers at once nor after it returned Ready.
func (e *specEnv) task(f func(cx *spec.Context) spec.Poll) spec.Task {
	return spec.TaskFunc(guardPolls(e.t, &e.polls, f, spec.Ready))
}

func (e *specEnv) spawn(f func(cx *spec.Context) spec.Poll) *spec.JoinHandle {
	e.t.Helper()
	h, err := e.rt.Spawn(e.task(f))
	if err != nil {
		e.t.Fatalf("Spawn: %v", err)
	}
	return h
}

func (e *specEnv) hang(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf("%s\nmetrics:\n%s\ngoroutines:\n%s", fmt.Sprintf(format, args...), e.rt.Metrics(), schedtest.Stacks())
}

// idle reports a consistent snapshot in which no task is being polled and
// none is queued: every worker parked and no extra worker running. (An
// extra worker, which the monitor starts when every worker's poll has
// lasted LongPoll, as any poll may on a loaded machine, runs tasks while
// the workers park; it is in the snapshot's Extra, not in Workers.)
func (e *specEnv) idle() bool {
	m := e.rt.Metrics()
	if m.GlobalQueueLen != 0 || m.ExtraRunning != 0 {
		return false
	}
	for _, w := range m.Workers {
		if w.State != "parked" {
			return false
		}
	}
	for _, w := range m.Extra {
		if w.State != "exited" {
			return false
		}
	}
	return true
}

// The idle check's premise, with an extra worker: worker 0 blocks in one
// poll past LongPoll while a second task waits, so the monitor starts an
// extra worker, which polls the second task and blocks there; then the
// first poll returns and worker 0 parks. The snapshot then has every
// worker parked and the queue empty, yet a task is being polled: idle
// must say no (it once looked at Workers alone, and a scenario whose
// driver ran on an extra worker under load reported a lost wake).
func TestSpecIdleCountsExtraWorkers(t *testing.T) {
	e := newSpecEnv(t, 1)
	releaseFirst, releaseSecond := make(chan struct{}), make(chan struct{})
	onExtra := make(chan int, 1)
	first := e.spawn(func(*spec.Context) spec.Poll { <-releaseFirst; return spec.Ready })
	second := e.spawn(func(cx *spec.Context) spec.Poll {
		onExtra <- cx.Worker()
		<-releaseSecond
		return spec.Ready
	})
	select {
	case w := <-onExtra:
		if w != 1 {
			t.Fatalf("the second task ran on worker %d, want the extra worker 1", w)
		}
	case <-e.ctx.Done():
		e.hang("the extra worker to poll the second task")
	}
	close(releaseFirst)
	e.waitAll([]*spec.JoinHandle{first}, "the first task")
	for e.rt.Metrics().Workers[0].State != "parked" {
		if e.ctx.Err() != nil {
			e.hang("worker 0 to park")
		}
		time.Sleep(100 * time.Microsecond)
	}
	if e.idle() {
		t.Errorf("idle with the extra worker inside a poll:\n%s", e.rt.Metrics())
	}
	close(releaseSecond)
	e.waitAll([]*spec.JoinHandle{second}, "the second task")
	e.shutdown()
}

// waitAll requires every handle to return nil. Only for phases in which no
// goroutine outside the runtime wakes anything: if the runtime goes idle
// while a task is unfinished, that task's wake was lost.
func (e *specEnv) waitAll(hs []*spec.JoinHandle, what string) {
	e.t.Helper()
	for i, h := range hs {
		for {
			idle := e.idle() // before the look at h: idle stays idle
			short, cancel := context.WithTimeout(e.ctx, time.Millisecond)
			err := h.Wait(short)
			cancel()
			if err == nil {
				break
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				e.t.Fatalf("%s %d: Wait = %v", what, i, err)
			}
			if e.ctx.Err() != nil {
				e.hang("waiting for %s %d (watchdog %v)", what, i, schedWatchdog())
			}
			if idle {
				e.hang("%s %d is unfinished while the runtime is idle: a wake was lost", what, i)
			}
		}
	}
}

// shutdown shuts down within the watchdog and checks the accounting: every
// accepted task completed or cancelled, nothing queued, and the workers
// polled exactly as often as the bodies were called.
func (e *specEnv) shutdown() {
	e.t.Helper()
	if err := e.rt.Shutdown(e.ctx); err != nil {
		e.hang("Shutdown: %v", err)
	}
	m := e.rt.Metrics()
	checkCounts(e.t, counts{m.Spawned, m.Completed, m.Cancelled, m.TotalPolls(), m.GlobalQueueLen}, e.polls.Load(), m)
}

func forSpecSizes(t *testing.T, body func(t *testing.T, workers int)) {
	for _, w := range specSizes {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) { body(t, w) })
	}
}

// TestSpecSchedWakeDuringPoll: many tasks each wake themselves during
// every poll (through their Waker, or Yield) and return Pending a few
// times, then wake themselves once more during their last poll and return
// Ready. A wake during a poll must run the task again, exactly once more;
// a wake during the poll that returns Ready must not. Nothing outside the
// runtime wakes anything, so a dropped wake leaves the runtime idle with
// the task unfinished.
func TestSpecSchedWakeDuringPoll(t *testing.T) {
	forSpecSizes(t, func(t *testing.T, workers int) {
		e := newSpecEnv(t, workers)
		n := 2000 * stressScale()
		readies := make(once, n)
		hs := make([]*spec.JoinHandle, n)
		for i := range hs {
			polls, last := 0, 1+i%5
			hs[i] = e.spawn(func(cx *spec.Context) spec.Poll {
				polls++
				if polls > last { // polled after Ready: the wrapper reports it
					return spec.Ready
				}
				if polls < last {
					if polls%2 == 0 {
						return cx.Yield()
					}
					cx.Waker().Wake()
					return spec.Pending
				}
				cx.Waker().Wake()
				readies[i].Add(1)
				return spec.Ready
			})
		}
		e.waitAll(hs, "self-waking task")
		readies.check(t, "last polls", 1)
		e.shutdown()
	})
}

// TestSpecSchedDoubleWakes: every target publishes its Waker at its first
// poll and returns Pending; its next poll returns Ready. A driver task then
// wakes each target twice in one poll, while goroutines outside wake random
// targets. A wake of a task that is already queued is absorbed: each target
// is polled at most twice (once more after its first poll, however many
// wakes arrive) and finishes exactly once.
func TestSpecSchedDoubleWakes(t *testing.T) {
	forSpecSizes(t, func(t *testing.T, workers int) {
		e := newSpecEnv(t, workers)
		n := 2000 * stressScale()
		wakers := make([]spec.Waker, n)
		var published atomic.Int32
		polled := make(once, n)
		hs := make([]*spec.JoinHandle, n)
		for i := range hs {
			first := true
			hs[i] = e.spawn(func(cx *spec.Context) spec.Poll {
				polled[i].Add(1)
				if first {
					first = false
					wakers[i] = cx.Waker()
					published.Add(1)
					return spec.Pending
				}
				return spec.Ready
			})
		}
		for published.Load() != int32(n) {
			if e.ctx.Err() != nil {
				e.hang("every target to publish its Waker")
			}
			runtime.Gosched()
		}
		var stop atomic.Bool
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for k := g; !stop.Load(); k += 7 {
					wakers[k%n].Wake()
					if k%64 == 0 {
						runtime.Gosched()
					}
				}
			})
		}
		driver := e.spawn(func(cx *spec.Context) spec.Poll {
			for _, w := range wakers {
				cx.Wake(w)
				cx.Wake(w)
			}
			return spec.Ready
		})
		// The driver wakes every target, so every target finishes without
		// the outside wakes: the idle check of waitAll stays valid.
		e.waitAll(append(hs, driver), "target")
		stop.Store(true)
		wg.Wait()
		polled.check(t, "polls per target", 2)
		e.shutdown()
	})
}

// TestSpecSchedShutdownCancelsWaiters: Shutdown while tasks wait for a wake
// that never comes, yield forever, or are still queued. Shutdown returns
// nil, every one of them is cancelled (its handle answers ErrCancelled at
// once, even to an ended context), no body runs after Shutdown returned,
// and Spawned == Completed + Cancelled.
func TestSpecSchedShutdownCancelsWaiters(t *testing.T) {
	forSpecSizes(t, func(t *testing.T, workers int) {
		e := newSpecEnv(t, workers)
		n := 1000 * stressScale()
		var after atomic.Bool
		var late, waiting atomic.Int32
		var hs []*spec.JoinHandle
		for range n {
			hs = append(hs, e.spawn(func(*spec.Context) spec.Poll { // waits for a wake that never comes
				if after.Load() {
					late.Add(1)
				}
				waiting.Add(1)
				return spec.Pending
			}))
		}
		for waiting.Load() != int32(n) {
			if e.ctx.Err() != nil {
				e.hang("every waiter's first poll")
			}
			runtime.Gosched()
		}
		for range n {
			hs = append(hs, e.spawn(func(cx *spec.Context) spec.Poll { // yields for ever
				if after.Load() {
					late.Add(1)
				}
				return cx.Yield()
			}))
		}
		e.shutdown()
		after.Store(true)
		ended, cancel := context.WithCancel(context.Background())
		cancel()
		for i, h := range hs {
			if err := h.Wait(ended); !errors.Is(err, spec.ErrCancelled) {
				t.Fatalf("task %d after Shutdown: Wait = %v, want ErrCancelled", i, err)
			}
		}
		if n := late.Load(); n != 0 {
			t.Errorf("%d polls started after Shutdown returned", n)
		}
	})
}
