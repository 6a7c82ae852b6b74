package stress

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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
// Every blocking operation below (but the user's program of
// TestSchedChannelProgram, kept verbatim, and the poll that Shutdown must
// find blocked for good) also watches the scenario's watchdog context, so
// a stranded task ends the scenario as a failure with the dump instead of
// leaving goroutines blocked for good. Each scenario logs how many extra
// workers it used; it asserts on them only where nothing else could have
// run the tasks (more polls blocked at once than there are workers).

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

// goFn starts f with Runtime.Go, counted as a poll, and fails on error.
func (e *schedEnv) goFn(f func()) {
	e.t.Helper()
	if err := e.rt.Go(e.fn(f)); err != nil {
		e.t.Fatalf("Go: %v", err)
	}
}

// goAll starts fns, each counted as a poll, with Runtime.Go from outside,
// or with Context.Go from inside the poll of one root task, which it waits
// for.
func (e *schedEnv) goAll(fns []func(), fromInside bool) {
	e.t.Helper()
	if !fromInside {
		for _, f := range fns {
			e.goFn(f)
		}
		return
	}
	root := e.spawn(func(cx *sched.Context) sched.Poll {
		for _, f := range fns {
			if err := cx.Go(e.fn(f)); err != nil {
				e.t.Errorf("Context.Go: %v", err)
			}
		}
		return sched.Ready
	})
	e.waitAll([]*sched.JoinHandle{root}, "the root task")
}

// logExtra reports the help the scenario needed: extra workers started,
// the most that ran at once (extra slots are reused, so there are as many
// as ever ran together), and parked workers the monitor woke.
func (e *schedEnv) logExtra() {
	m := e.rt.Metrics()
	e.t.Logf("METRIC extra_started=%d monitor_wakes=%d", m.ExtraStarted, m.MonitorWakes)
	e.t.Logf("extra workers: %d started, at most %d at once, %d running now; %d parked workers woken by the monitor",
		m.ExtraStarted, len(m.Extra), m.ExtraRunning, m.MonitorWakes)
}

// TestSchedPipelines: pipelines of K = 1..8 stages started with Go, each
// stage ranging over an unbuffered channel and sending to the next. With
// fewer workers than stages most stages are blocked at any time, so the
// pipeline moves only if what waits behind a blocked stage is taken by
// another worker or an extra one. The source sends from outside the
// runtime, then, in a second pipeline, from inside a task; the sink checks
// that every item arrives exactly once and in order, and every stage, the
// sink and the source run exactly once.
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
	runs := make(once, stages+2) // the stages, the sink, the source
	first := make(chan int)
	in := first
	for s := range stages {
		out := make(chan int)
		stageIn := in
		e.goFn(func() {
			runs[s].Add(1)
			defer close(out)
			for {
				v, ok := recvOrHang(e, stageIn, fmt.Sprintf("stage %d's input", s))
				if !ok || !sendOrHang(e, out, v, fmt.Sprintf("stage %d's output", s)) {
					return
				}
			}
		})
		in = out
	}
	seen := make(once, items)
	done := make(chan struct{})
	last := in
	e.goFn(func() {
		runs[stages].Add(1)
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
	})
	source := func() {
		defer close(first)
		for i := range items {
			if !sendOrHang(e, first, i, "the pipeline's first stage") {
				return
			}
		}
	}
	if inside {
		e.goFn(func() { runs[stages+1].Add(1); source() })
	} else {
		runs[stages+1].Add(1)
		source()
	}
	// The sink saw the end of its input, so every stage has closed its
	// output: each has run (and the source has, having closed the first).
	e.waitDone(done, what)
	seen.check(e.t, what+": arrivals per item", 1)
	runs.check(e.t, what+": runs per stage, sink, source", 1)
}

// TestSchedProducerConsumer: consumers that range over an unbuffered
// channel and producers that send into them, each consumer started before
// its producer: the order in which a worker that takes both from the
// global queue runs the consumer, which blocks with its producer queued
// behind it (the order that hung). One pair a round, then Workers+1 pairs
// at once (more blocked consumers than workers); from outside with
// Runtime.Go, and from inside the poll of a root task with Context.Go. Each
// consumer gets its producer's values exactly once and in order; each
// function runs exactly once.
func TestSchedProducerConsumer(t *testing.T) { forSizes(t, blockingSizes, schedProducerConsumer) }

func schedProducerConsumer(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	rounds := 100 * stressScale()
	const values = 10
	for r := range rounds {
		pairs := 1
		if r%4 >= 2 {
			pairs = cfg.Workers + 1
		}
		fromInside := r%2 == 1
		runs := make(once, 2*pairs) // consumer i at 2i, producer i at 2i+1
		got := make([]int, pairs)   // written by consumer i only, read after its done
		dones := make([]chan struct{}, pairs)
		var fns []func() // consumer, producer, consumer, producer...
		for p := range pairs {
			ch := make(chan int)
			done := make(chan struct{})
			dones[p] = done
			fns = append(fns, func() {
				runs[2*p].Add(1)
				defer close(done)
				for {
					v, ok := recvOrHang(e, ch, "the producer's channel")
					if !ok {
						return
					}
					if v != got[p] {
						e.t.Errorf("round %d, pair %d: value %d arrived where %d was due", r, p, v, got[p])
					}
					got[p]++
				}
			}, func() {
				runs[2*p+1].Add(1)
				defer close(ch)
				for i := range values {
					if !sendOrHang(e, ch, i, "the consumer's channel") {
						return
					}
				}
			})
		}
		e.goAll(fns, fromInside)
		for p, done := range dones {
			e.waitDone(done, fmt.Sprintf("round %d: consumer %d of %d", r, p, pairs))
			if got[p] != values {
				t.Errorf("round %d, pair %d: the consumer got %d values, want %d", r, p, got[p], values)
			}
		}
		runs.check(t, fmt.Sprintf("round %d (%d pairs, from inside: %v): runs per consumer and producer", r, pairs, fromInside), 1)
		if t.Failed() {
			return
		}
	}
	e.logExtra()
	e.shutdown()
}

// TestSchedLongPollTasksBehind: a poll that computes (a spin on an atomic
// flag, no blocking call) until a set of other tasks has run, with tasks
// queued behind it two ways: spawned from outside once the long poll runs
// and every other worker has parked, and spawned by the long task itself
// from inside its poll, into its own worker's queues. Each runs exactly
// once, while the long poll is still going (the long poll ends only after
// all of them ran), and never on the spinning worker: with one worker, only
// an extra worker can run them. The spin gives up when the watchdog fires,
// failing the test rather than hanging it.
func TestSchedLongPollTasksBehind(t *testing.T) { forSizes(t, blockingSizes, schedLongPollTasksBehind) }

func schedLongPollTasksBehind(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const behind = 8
	// A pure spin holds its processor until Go preempts it (10 ms), which
	// makes a round slow at GOMAXPROCS 1: few rounds.
	for r := range 8 * stressScale() {
		runs := make(once, behind)
		where := make([]int, behind) // the worker each ran on
		var ran atomic.Int32
		body := func(i int) func(*sched.Context) sched.Poll {
			return func(cx *sched.Context) sched.Poll {
				runs[i].Add(1)
				where[i] = cx.Worker()
				ran.Add(1)
				return sched.Ready
			}
		}
		fromInside := r%2 == 1
		if !fromInside {
			e.until(func() bool { return e.rt.Metrics().Parked == e.workers }, "every worker parked")
		}
		var hs []*sched.JoinHandle
		longWorker := -1
		var spinning atomic.Bool
		long := e.spawn(func(cx *sched.Context) sched.Poll {
			longWorker = cx.Worker()
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
			spinning.Store(true)
			for ran.Load() < behind {
				if e.ctx.Err() != nil {
					t.Errorf("round %d: a long poll spun for the whole watchdog: %d of %d tasks behind it ran", r, ran.Load(), behind)
					break
				}
			}
			return sched.Ready
		})
		if !fromInside {
			// The long poll runs on one worker; the others go back to
			// sleep (nothing else is queued). Then the tasks arrive. An
			// extra worker of an earlier round that has not exited yet
			// may have taken the long task: then every worker parks.
			e.until(func() bool {
				if !spinning.Load() {
					return false
				}
				parked := e.workers // longWorker was written before spinning
				if longWorker < e.workers {
					parked--
				}
				return e.rt.Metrics().Parked == parked
			}, "the long poll running and every other worker parked")
			for i := range behind {
				hs = append(hs, e.spawn(body(i)))
			}
		}
		e.waitAll([]*sched.JoinHandle{long}, "the long poll")
		e.waitAll(hs, "a task queued behind the long poll")
		what := fmt.Sprintf("round %d (from inside: %v)", r, fromInside)
		runs.check(t, what+": runs per task behind the long poll", 1)
		for i, w := range where {
			if w == longWorker {
				t.Errorf("%s: task %d ran on worker %d, which was spinning in the long poll all along", what, i, w)
			}
		}
		if t.Failed() {
			return
		}
	}
	e.logExtra()
	e.shutdown()
}

// TestSchedTimerDuringLongPolls: every worker is inside a poll that blocks
// until a sleeping task has woken and run; only then is the sleeper
// spawned (from outside, or from inside one of the blocked polls), so its
// first poll, its timer and its second poll all happen while every worker
// is blocked. No worker starts a tick meanwhile: the sleeper's polls need
// an extra worker, and its timer the monitor or that extra worker. The
// sleeper waits with Context.Sleep, or with a Go timer (time.AfterFunc)
// that wakes it through its Waker from outside. It is polled exactly twice.
// When the blocked polls are on every worker (0..Workers-1, the usual
// case), both of the sleeper's polls must have run on extra workers.
func TestSchedTimerDuringLongPolls(t *testing.T) {
	forSizes(t, blockingSizes, schedTimerDuringLongPolls)
}

func schedTimerDuringLongPolls(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const d = 2 * time.Millisecond
	onEveryWorker := 0 // rounds whose blocked polls held every worker
	rounds := 12 * stressScale()
	for r := range rounds {
		fromInside, goTimer := r%2 == 1, r%4 >= 2
		what := fmt.Sprintf("round %d (from inside: %v, Go timer: %v)", r, fromInside, goTimer)
		woke, allIn := make(chan struct{}), make(chan struct{})
		var polls atomic.Int32
		var sleeperOn [2]int
		var armed time.Time
		sleeper := e.task(func(cx *sched.Context) sched.Poll {
			n := polls.Add(1)
			sleeperOn[min(n, 2)-1] = cx.Worker()
			switch n {
			case 1:
				armed = time.Now()
				if goTimer {
					w := cx.Waker()
					time.AfterFunc(d, w.Wake)
				} else if err := cx.Sleep(d); err != nil {
					t.Errorf("Sleep: %v", err)
				}
				return sched.Pending
			case 2:
				if slept := time.Since(armed); slept < d {
					t.Errorf("%s: the sleeper was woken after %v of its %v", what, slept, d)
				}
				close(woke)
			default:
				t.Errorf("%s: the sleeper was polled %d times, want 2", what, n)
			}
			return sched.Ready
		})
		var inside atomic.Int32
		blockedOn := make([]int, cfg.Workers)
		var sleeperH *sched.JoinHandle
		var hs []*sched.JoinHandle
		for i := range cfg.Workers {
			hs = append(hs, e.spawn(func(cx *sched.Context) sched.Poll {
				blockedOn[i] = cx.Worker()
				if inside.Add(1) == int32(cfg.Workers) {
					close(allIn)
				}
				if fromInside && i == 0 {
					recvOrHang(e, allIn, "the other blocked polls")
					h, err := cx.Spawn(sleeper)
					if err != nil {
						t.Errorf("Context.Spawn: %v", err)
						return sched.Ready
					}
					sleeperH = h
				}
				recvOrHang(e, woke, "the sleeping task's wake")
				return sched.Ready
			}))
		}
		if !fromInside {
			e.waitDone(allIn, what+": every blocked poll entered")
			h, err := e.rt.Spawn(sleeper)
			if err != nil {
				t.Fatalf("Spawn: %v", err)
			}
			sleeperH = h
		}
		e.waitAll(hs, what+": the polls blocked until the sleeper ran")
		e.waitAll([]*sched.JoinHandle{sleeperH}, what+": the sleeper")
		if n := polls.Load(); n != 2 {
			t.Fatalf("%s: the sleeper was polled %d times, want 2", what, n)
		}
		// The Workers polls were blocked at once, so on distinct workers:
		// all of them regular ones means every worker was blocked.
		if slices.Max(blockedOn) < cfg.Workers {
			onEveryWorker++
			for k, w := range sleeperOn {
				if w < cfg.Workers {
					t.Errorf("%s: the sleeper's poll %d ran on worker %d while every worker (%v) was blocked", what, k+1, w, blockedOn)
				}
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d of %d rounds had a blocked poll on every worker (their sleeper ran on extra workers)", onEveryWorker, rounds)
	e.logExtra()
	e.shutdown()
}

// TestSchedRendezvousBeyondWorkers: N tasks, N greater than the workers
// (Workers+3 and 2*Workers+1), each blocking until all N are inside their
// poll. They can only finish if all N run at once, so at that moment at
// least N-Workers extra workers must be running (asserted, with
// ExtraStarted > 0 at the end). Started with Runtime.Go from outside, and
// with Context.Go from inside a root task's poll; every task runs exactly
// once.
func TestSchedRendezvousBeyondWorkers(t *testing.T) {
	forSizes(t, blockingSizes, schedRendezvousBeyondWorkers)
}

func schedRendezvousBeyondWorkers(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	for r, n := range []int{cfg.Workers + 3, 2*cfg.Workers + 1, cfg.Workers + 3, 2*cfg.Workers + 1} {
		fromInside := r%2 == 1
		what := fmt.Sprintf("round %d (%d tasks, from inside: %v)", r, n, fromInside)
		arrived := make(chan struct{}, n)
		all := make(chan struct{})
		runs := make(once, n)
		var finished atomic.Int32
		fns := make([]func(), n)
		for i := range fns {
			fns[i] = func() {
				runs[i].Add(1)
				arrived <- struct{}{}
				recvOrHang(e, all, "the others at the rendezvous")
				finished.Add(1)
			}
		}
		e.goAll(fns, fromInside)
		for i := range n {
			select {
			case <-arrived:
			case <-e.ctx.Done():
				e.hang("%s: %d of %d tasks at the rendezvous", what, i, n)
			}
		}
		// All n polls are running now, and stay until all is closed.
		if m := e.rt.Metrics(); m.ExtraRunning < n-cfg.Workers {
			t.Errorf("%s: %d polls running at once with %d workers, but only %d extra workers running\n%s",
				what, n, cfg.Workers, m.ExtraRunning, m)
		}
		close(all)
		e.until(func() bool { return finished.Load() == int32(n) }, "the rendezvous tasks to finish")
		runs.check(t, what+": runs per rendezvous task", 1)
	}
	m := e.rt.Metrics()
	e.logExtra()
	if m.ExtraStarted == 0 {
		t.Errorf("a rendezvous of more tasks than workers finished without an extra worker:\n%s", m)
	}
	e.shutdown()
}

// TestSchedShutdownWithBlockedTask: Shutdown while tasks are blocked for
// good (one, and Workers+1, so that one is on an extra worker), with tasks
// queued from outside and by the blocked tasks themselves. Shutdown with a
// short context returns an error that errors.Is the context's error and is
// a *StillRunningError; once the other workers have exited it names exactly
// the blocked polls (their workers, extra or not). Every queued task then
// either ran exactly once (Wait nil) or never (ErrCancelled), and none runs
// after that. Released, the blocked tasks complete, a later Shutdown
// returns nil, the accounting adds up and every goroutine is gone.
func TestSchedShutdownWithBlockedTask(t *testing.T) {
	forSizes(t, blockingSizes, schedShutdownWithBlockedTask)
}

func schedShutdownWithBlockedTask(t *testing.T, cfg sched.Config) {
	for _, k := range []int{1, cfg.Workers + 1} {
		t.Run(fmt.Sprintf("blocked=%d", k), func(t *testing.T) { shutdownWithBlocked(t, cfg, k) })
	}
}

func shutdownWithBlocked(t *testing.T, cfg sched.Config, k int) {
	e := newSchedEnv(t, cfg)
	const children, queuedOutside = 4, 64
	release := make(chan struct{})
	var releaseOnce sync.Once
	// Runs before the environment's own cleanup, so that a failed
	// scenario still lets its runtime finish.
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })

	ran := make(once, k*children+queuedOutside)
	queued := make([]*sched.JoinHandle, len(ran))
	queuedTask := func(i int) sched.Task {
		return e.task(func(*sched.Context) sched.Poll { ran[i].Add(1); return sched.Ready })
	}
	blockedOn := make([]int, k)
	var entered sync.WaitGroup
	entered.Add(k)
	blocked := make([]*sched.JoinHandle, k)
	for b := range k {
		blocked[b] = e.spawn(func(cx *sched.Context) sched.Poll {
			blockedOn[b] = cx.Worker()
			for c := range children {
				i := b*children + c
				h, err := cx.Spawn(queuedTask(i))
				if err != nil {
					t.Errorf("Context.Spawn: %v", err)
					ran[i].Add(1) // reported; keep the counts consistent
				}
				queued[i] = h
			}
			entered.Done()
			<-release // blocked for good, until the scenario releases it
			return sched.Ready
		})
	}
	enteredAll := make(chan struct{})
	go func() { entered.Wait(); close(enteredAll) }()
	e.waitDone(enteredAll, "every blocking task to start")
	for i := k * children; i < len(ran); i++ {
		h, err := e.rt.Spawn(queuedTask(i))
		if err != nil {
			t.Fatalf("Spawn: %v", err)
		}
		queued[i] = h
	}

	// k polls blocked at once are on k distinct workers; with k > Workers
	// at least one of them is an extra worker (index Workers or more).
	blockedSet := map[int]bool{}
	for _, w := range blockedOn {
		blockedSet[w] = true
	}
	if len(blockedSet) != k {
		t.Fatalf("blocked polls on workers %v: two polls on one worker at once", blockedOn)
	}
	// Workers that are not blocked exit; until they have, Shutdown names
	// them too. Ask again until it names only the blocked polls.
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		err := e.rt.Shutdown(ctx)
		cancel()
		var still *sched.StillRunningError
		if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &still) || !errors.Is(still.Err, context.DeadlineExceeded) {
			t.Fatalf("Shutdown with %d tasks blocked for good = %v, want a *StillRunningError wrapping context.DeadlineExceeded", k, err)
		}
		named := map[int]bool{}
		for _, p := range still.Polls {
			if _, dup := named[p.Worker]; dup {
				t.Errorf("Shutdown names worker %d twice: %v", p.Worker, err)
			}
			named[p.Worker] = p.Extra
			if p.Extra != (p.Worker >= cfg.Workers) {
				t.Errorf("Shutdown says worker %d is extra: %v, with %d workers: %v", p.Worker, p.Extra, cfg.Workers, err)
			}
		}
		for w := range blockedSet {
			if _, ok := named[w]; !ok {
				t.Errorf("Shutdown = %v: the poll blocked on worker %d is not named (blocked: %v)", err, w, blockedOn)
			}
		}
		if t.Failed() {
			return
		}
		if len(named) == k {
			t.Logf("attempt %d: %v", attempt, err)
			break
		}
		if e.ctx.Err() != nil {
			e.hang("Shutdown still names %v, blocked are %v", still.Polls, blockedOn)
		}
	}
	// Only the blocked polls run now: nothing can run a queued task any
	// more. Each was run or is (or soon will be) cancelled.
	for i, h := range queued {
		if h == nil {
			continue
		}
		err := e.wait(h, "a queued task")
		switch n := ran[i].Load(); {
		case err == nil && n == 1:
		case errors.Is(err, sched.ErrCancelled) && n == 0:
		default:
			t.Errorf("queued task %d: Wait = %v after %d runs: want nil after one run or ErrCancelled after none", i, err, n)
		}
	}
	before := make([]int32, len(ran))
	for i := range ran {
		before[i] = ran[i].Load()
	}

	releaseOnce.Do(func() { close(release) })
	for b, h := range blocked {
		if err := e.wait(h, "a released task"); err != nil {
			t.Errorf("released task %d: Wait = %v, want nil", b, err)
		}
	}
	sctx, scancel := context.WithTimeout(context.Background(), schedWatchdog())
	defer scancel()
	if err := e.rt.Shutdown(sctx); err != nil {
		t.Errorf("Shutdown after the release = %v, want nil\n%s", err, e.rt.Metrics())
	}
	e.shutDown = true
	e.checkAccounting()
	for i := range ran {
		if n := ran[i].Load(); n != before[i] {
			t.Errorf("queued task %d ran after Shutdown had cancelled the queues (%d runs, %d before)", i, n, before[i])
		}
	}
	var cancelled int
	for i := range ran {
		if before[i] == 0 {
			cancelled++
		}
	}
	t.Logf("%d queued tasks ran, %d were cancelled", len(ran)-cancelled, cancelled)
	e.logExtra()
}

// TestSchedChannelProgram is the program of the bug report, verbatim: a
// consumer ranging over an unbuffered channel until it is closed, then
// signalling done, started with Go; then a producer sending ten values and
// closing the channel, started with Go; wait for done. 1,000 rounds, with
// the default configuration (GOMAXPROCS workers; the harness's park
// timeout of 0, so a lost wakeup hangs instead of being retried every
// 10 ms) and with one worker. It hung in its first round when a worker
// kept the producer in a private buffer behind the blocked consumer. The
// functions block as the user wrote them, without the watchdog: if the
// consumer is stranded, the test's wait for done fails at the watchdog
// with the dump. Each consumer sums the ten values once; each function
// runs exactly once.
func TestSchedChannelProgram(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  sched.Config
	}{{"workers=1", sched.Config{Workers: 1}}, {"default", sched.DefaultConfig()}} {
		t.Run(c.name, func(t *testing.T) { schedChannelProgram(t, c.cfg) })
	}
}

func schedChannelProgram(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	rounds := 1000 * stressScale()
	runs := make(once, 2*rounds) // consumer r at 2r, producer r at 2r+1
	for r := range rounds {
		ch := make(chan int)
		done := make(chan int, 1)
		consumer := func() {
			runs[2*r].Add(1)
			sum := 0
			for v := range ch {
				sum += v
			}
			done <- sum
		}
		producer := func() {
			runs[2*r+1].Add(1)
			for i := range 10 {
				ch <- i
			}
			close(ch)
		}
		e.goFn(consumer)
		e.goFn(producer)
		select {
		case sum := <-done:
			if sum != 45 {
				t.Fatalf("round %d: the consumer summed %d, want 45", r, sum)
			}
		case <-e.ctx.Done():
			e.hang("round %d: the consumer never signalled done", r)
		}
	}
	runs.check(t, "runs per consumer and producer", 1)
	e.logExtra()
	e.shutdown()
}
