package stress

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// Tasks that block. Go is documented as "like a go statement", so a poll
// may block on a channel, a lock or a sleep, or compute for a long time. A
// task queued behind such a poll must still run while a worker could run
// it: the monitor flags the stuck worker and wakes a parked one, a busy
// worker takes from it at its fairness turn, or the monitor starts an extra
// worker (impl/sched/monitor.go; docs/scheduler.md, "Stranding").
//
// Every blocking operation below also watches the scenario's watchdog
// context (block, send), so a stranded task ends the scenario as a failure
// with the dump instead of leaving goroutines blocked for good. Each
// scenario logs how many extra workers it used.

// blockingSizes are the worker counts of the blocking scenarios.
var blockingSizes = []int{1, 2, 4}

// recvOrHang receives from ch inside a task, giving up when the watchdog
// fires (the task is then reported, and the scenario fails).
func recvOrHang[T any](e *schedEnv, ch <-chan T, what string) (v T, ok bool) {
	select {
	case v, ok = <-ch:
		return v, ok
	case <-e.ctx.Done():
		e.t.Errorf("a task blocked on %s for the whole watchdog: the task it waits for never ran", what)
		return v, false
	}
}

// sendOrHang sends v on ch inside a task, giving up when the watchdog fires.
func sendOrHang[T any](e *schedEnv, ch chan<- T, v T, what string) bool {
	select {
	case ch <- v:
		return true
	case <-e.ctx.Done():
		e.t.Errorf("a task blocked sending on %s for the whole watchdog: its receiver never ran", what)
		return false
	}
}

// waitDone waits for done outside the runtime, within the watchdog.
func (e *schedEnv) waitDone(done <-chan struct{}, what string) {
	e.t.Helper()
	select {
	case <-done:
	case <-e.ctx.Done():
		e.hang("waiting for %s", what)
	}
}

// logExtra reports how many extra workers the monitor started and how many
// parked workers it woke: the help the scenario needed.
func (e *schedEnv) logExtra() {
	m := e.rt.Metrics()
	e.t.Logf("METRIC extra_started=%d monitor_wakes=%d", m.ExtraStarted, m.MonitorWakes)
}

// TestSchedPipelines: pipelines of K = 1..8 stages started with Go, each
// stage ranging over an unbuffered channel and sending to the next. With
// fewer workers than stages every stage but one is blocked at any time,
// so the pipeline moves only if the blocked stages' worker is helped. The
// source sends from outside the runtime, then from inside a task; the sink
// checks that every item arrives exactly once and in order.
func TestSchedPipelines(t *testing.T) { forSizes(t, blockingSizes, schedPipelines) }

func schedPipelines(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	items := 50 * stressScale()
	for stages := 1; stages <= 8; stages++ {
		for _, inside := range []bool{false, true} {
			runPipeline(e, stages, items, inside)
			if t.Failed() {
				return
			}
		}
	}
	e.logExtra()
	e.shutdown()
}

// runPipeline runs one pipeline of the given number of stages and waits for
// its sink to have seen every item.
func runPipeline(e *schedEnv, stages, items int, inside bool) {
	what := fmt.Sprintf("pipeline of %d stages (source inside: %v)", stages, inside)
	first := make(chan int)
	in := first
	for s := range stages {
		out := make(chan int)
		stageIn := in
		if err := e.rt.Go(e.fn(func() {
			defer close(out)
			for {
				v, ok := recvOrHang(e, stageIn, fmt.Sprintf("stage %d's input", s))
				if !ok || !sendOrHang(e, out, v, fmt.Sprintf("stage %d's output", s)) {
					return
				}
			}
		})); err != nil {
			e.t.Fatalf("Go: %v", err)
		}
		in = out
	}
	seen := make(once, items)
	done := make(chan struct{})
	last := in
	if err := e.rt.Go(e.fn(func() {
		defer close(done)
		next := 0
		for {
			v, ok := recvOrHang(e, last, "the sink's input")
			if !ok {
				break
			}
			if v != next {
				e.t.Errorf("%s: item %d arrived where %d was due", what, v, next)
			}
			next = v + 1
			if v >= 0 && v < items {
				seen[v].Add(1)
			}
		}
	})); err != nil {
		e.t.Fatalf("Go: %v", err)
	}
	source := func() {
		defer close(first)
		for i := range items {
			if !sendOrHang(e, first, i, "the pipeline's first stage") {
				return
			}
		}
	}
	if inside {
		if err := e.rt.Go(e.fn(source)); err != nil {
			e.t.Fatalf("Go: %v", err)
		}
	} else {
		source()
	}
	e.waitDone(done, what)
	seen.check(e.t, what+": arrivals per item", 1)
}

// TestSchedProducerConsumer: a consumer that ranges over an unbuffered
// channel and a producer that sends into it, the consumer started first
// (the order in which a worker that takes both from the global queue runs
// the consumer and blocks). From outside with Go, and from inside a poll.
func TestSchedProducerConsumer(t *testing.T) { forSizes(t, blockingSizes, schedProducerConsumer) }

func schedProducerConsumer(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	rounds := 100 * stressScale()
	const values = 10
	for r := range rounds {
		ch := make(chan int)
		done := make(chan struct{})
		var got atomic.Int32
		consumer := e.fn(func() {
			defer close(done)
			for {
				if _, ok := recvOrHang(e, ch, "the producer's channel"); !ok {
					return
				}
				got.Add(1)
			}
		})
		producer := e.fn(func() {
			defer close(ch)
			for i := range values {
				if !sendOrHang(e, ch, i, "the consumer's channel") {
					return
				}
			}
		})
		if r%2 == 0 {
			if err := errors.Join(e.rt.Go(consumer), e.rt.Go(producer)); err != nil {
				t.Fatalf("Go: %v", err)
			}
		} else {
			root := e.spawn(func(cx *sched.Context) sched.Poll {
				if err := errors.Join(cx.Go(consumer), cx.Go(producer)); err != nil {
					t.Errorf("Context.Go: %v", err)
				}
				return sched.Ready
			})
			e.waitAll([]*sched.JoinHandle{root}, "the pair's root")
		}
		e.waitDone(done, fmt.Sprintf("round %d: the consumer", r))
		if n := got.Load(); n != values {
			t.Fatalf("round %d: the consumer got %d values, want %d", r, n, values)
		}
	}
	e.logExtra()
	e.shutdown()
}

// TestSchedLongPollTasksBehind: a poll that computes (no blocking call, a
// spin) until a set of other tasks has run. They are queued behind it two
// ways: spawned from outside while the workers are parked, and spawned by
// the long task itself from inside its poll. Each runs exactly once while
// the long poll is still going.
func TestSchedLongPollTasksBehind(t *testing.T) { forSizes(t, blockingSizes, schedLongPollTasksBehind) }

func schedLongPollTasksBehind(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const behind = 8
	for r := range 20 {
		runs := make(once, behind)
		var ran atomic.Int32
		body := func(i int) func(*sched.Context) sched.Poll {
			return func(*sched.Context) sched.Poll {
				runs[i].Add(1)
				ran.Add(1)
				return sched.Ready
			}
		}
		fromInside := r%2 == 1
		var hs []*sched.JoinHandle
		spin := func() {
			for ran.Load() < behind {
				if e.ctx.Err() != nil {
					t.Errorf("round %d: a long poll spun for the whole watchdog: %d of %d tasks behind it ran", r, ran.Load(), behind)
					return
				}
			}
		}
		long := e.spawn(func(cx *sched.Context) sched.Poll {
			if fromInside {
				for i := range behind {
					h, err := cx.Spawn(e.task(body(i)))
					if err != nil {
						t.Errorf("Context.Spawn: %v", err)
						ran.Add(1)
						continue
					}
					hs = append(hs, h)
				}
			}
			spin()
			return sched.Ready
		})
		if !fromInside {
			for i := range behind {
				hs = append(hs, e.spawn(body(i)))
			}
		}
		e.waitAll([]*sched.JoinHandle{long}, "the long poll")
		e.waitAll(hs, "a task queued behind the long poll")
		runs.check(t, fmt.Sprintf("round %d: runs per task behind the long poll", r), 1)
		if t.Failed() {
			return
		}
	}
	e.logExtra()
	e.shutdown()
}

// TestSchedTimerDuringLongPolls: every worker is inside a poll that waits
// until a sleeping task has woken and run. No worker starts a tick while
// they wait, so only the monitor can fire the timer.
func TestSchedTimerDuringLongPolls(t *testing.T) {
	forSizes(t, blockingSizes, schedTimerDuringLongPolls)
}

func schedTimerDuringLongPolls(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	for r := range 10 {
		woke := make(chan struct{})
		slept := false
		sleeper := e.spawn(func(cx *sched.Context) sched.Poll {
			if !slept {
				slept = true
				if err := cx.Sleep(2 * time.Millisecond); err != nil {
					t.Errorf("Sleep: %v", err)
				}
				return sched.Pending
			}
			close(woke)
			return sched.Ready
		})
		var inside atomic.Int32
		var hs []*sched.JoinHandle
		for range cfg.Workers {
			hs = append(hs, e.spawn(func(*sched.Context) sched.Poll {
				inside.Add(1)
				recvOrHang(e, woke, "the sleeping task's wake")
				return sched.Ready
			}))
		}
		e.waitAll([]*sched.JoinHandle{sleeper}, fmt.Sprintf("round %d: the sleeper", r))
		e.waitAll(hs, fmt.Sprintf("round %d: the polls waiting for the timer", r))
		if n := inside.Load(); n != int32(cfg.Workers) {
			t.Fatalf("round %d: %d waiting polls ran, want %d", r, n, cfg.Workers)
		}
	}
	e.logExtra()
	e.shutdown()
}

// TestSchedRendezvousBeyondWorkers: N tasks, N greater than the workers,
// each blocking until all N are inside their poll. They can only finish if
// all N run at once, so the monitor must start extra workers. Spawned from
// outside and from inside a poll.
func TestSchedRendezvousBeyondWorkers(t *testing.T) {
	forSizes(t, blockingSizes, schedRendezvousBeyondWorkers)
}

func schedRendezvousBeyondWorkers(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	for r, n := range []int{cfg.Workers + 3, 2*cfg.Workers + 1, cfg.Workers + 3, 2*cfg.Workers + 1} {
		arrived := make(chan struct{}, n)
		all := make(chan struct{})
		runs := make(once, n)
		var finished atomic.Int32
		body := func(i int) func() {
			return e.fn(func() {
				runs[i].Add(1)
				arrived <- struct{}{}
				recvOrHang(e, all, "the others at the rendezvous")
				finished.Add(1)
			})
		}
		if r%2 == 0 {
			for i := range n {
				if err := e.rt.Go(body(i)); err != nil {
					t.Fatalf("Go: %v", err)
				}
			}
		} else {
			root := e.spawn(func(cx *sched.Context) sched.Poll {
				for i := range n {
					if err := cx.Go(body(i)); err != nil {
						t.Errorf("Context.Go: %v", err)
					}
				}
				return sched.Ready
			})
			e.waitAll([]*sched.JoinHandle{root}, "the rendezvous' root")
		}
		for i := range n {
			select {
			case <-arrived:
			case <-e.ctx.Done():
				e.hang("round %d: %d of %d tasks at the rendezvous", r, i, n)
			}
		}
		close(all)
		e.until(func() bool { return finished.Load() == int32(n) }, "the rendezvous tasks to finish")
		runs.check(t, fmt.Sprintf("round %d: runs per rendezvous task", r), 1)
	}
	m := e.rt.Metrics()
	e.logExtra()
	if m.ExtraStarted == 0 {
		t.Errorf("a rendezvous of more tasks than workers finished without an extra worker:\n%s", m)
	}
	e.shutdown()
}

// TestSchedShutdownWithBlockedTask: Shutdown while a task is blocked for
// good returns an error wrapping the context's that names the poll still
// running, cancels what was queued (its Wait returns), loses nothing; once
// the task is released, the runtime finishes and every goroutine is gone.
func TestSchedShutdownWithBlockedTask(t *testing.T) {
	forSizes(t, blockingSizes, schedShutdownWithBlockedTask)
}

func schedShutdownWithBlockedTask(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	started, release := make(chan struct{}), make(chan struct{})
	blocked := e.spawn(func(*sched.Context) sched.Poll {
		close(started)
		<-release // blocked for good, until the scenario releases it
		return sched.Ready
	})
	e.waitDone(started, "the blocking task to start")
	var queued []*sched.JoinHandle
	ran := make(once, 64)
	for i := range ran {
		queued = append(queued, e.spawn(func(*sched.Context) sched.Poll {
			ran[i].Add(1)
			return sched.Ready
		}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	err := e.rt.Shutdown(ctx)
	cancel()
	var still *sched.StillRunningError
	switch {
	case !errors.Is(err, context.DeadlineExceeded):
		t.Errorf("Shutdown with a task blocked for good = %v, want an error wrapping context.DeadlineExceeded", err)
	case !errors.As(err, &still) || len(still.Polls) != 1:
		t.Errorf("Shutdown = %v, want a *StillRunningError naming the one poll still running", err)
	}
	for i, h := range queued {
		err := e.wait(h, "a task queued behind the blocked one")
		switch {
		case err == nil && ran[i].Load() == 1:
		case errors.Is(err, sched.ErrCancelled) && ran[i].Load() == 0:
		default:
			t.Errorf("queued task %d: Wait = %v after %d runs: want nil after one run or ErrCancelled after none", i, err, ran[i].Load())
		}
	}
	close(release)
	if err := e.wait(blocked, "the released task"); err != nil {
		t.Errorf("the released task: Wait = %v, want nil", err)
	}
	sctx, scancel := context.WithTimeout(context.Background(), schedWatchdog())
	defer scancel()
	if err := e.rt.Shutdown(sctx); err != nil {
		t.Errorf("Shutdown after the release = %v, want nil\n%s", err, e.rt.Metrics())
	}
	e.shutDown = true
	e.checkAccounting()
}

// TestSchedChannelProgram is the first program a Go user writes with Go: a
// consumer ranging over an unbuffered channel, then a producer sending ten
// values and closing it, 1,000 rounds, with one worker and with the
// default configuration. It hung in its first round when a worker kept the
// producer in a private buffer behind the blocked consumer.
func TestSchedChannelProgram(t *testing.T) {
	def := sched.DefaultConfig()
	for _, c := range []struct {
		name string
		cfg  sched.Config
	}{{"workers=1", sched.Config{Workers: 1}}, {"default", def}} {
		t.Run(c.name, func(t *testing.T) {
			e := newSchedEnv(t, c.cfg)
			for r := range 1000 * stressScale() {
				ch := make(chan int)
				done := make(chan int)
				consumer := e.fn(func() {
					sum := 0
					for {
						v, ok := recvOrHang(e, ch, "the producer's channel")
						if !ok {
							break
						}
						sum += v
					}
					done <- sum
				})
				producer := e.fn(func() {
					defer close(ch)
					for i := range 10 {
						if !sendOrHang(e, ch, i, "the consumer's channel") {
							return
						}
					}
				})
				if err := errors.Join(e.rt.Go(consumer), e.rt.Go(producer)); err != nil {
					t.Fatalf("Go: %v", err)
				}
				select {
				case sum := <-done:
					if sum != 45 {
						t.Fatalf("round %d: the consumer summed %d, want 45", r, sum)
					}
				case <-e.ctx.Done():
					e.hang("round %d: the consumer", r)
				}
			}
			e.logExtra()
			e.shutdown()
		})
	}
}
