//go:build explore

package scenarios

import (
	"context"
	"errors"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// Stranding: a poll that does not return must not hold up other queued
// tasks while a worker could run them (docs/scheduler.md, "Stranding").
// In each scenario a task's poll blocks until another task has run; if
// that other task is stranded where no worker can take it, every
// goroutine ends up waiting: a deadlock. Virtual time passes only when
// every goroutine waits, so the monitor looks (every LongPoll/2 = 0.5 ms)
// exactly when nothing else can happen.

// blockUntil is a task that blocks inside its poll until ev is set.
func blockUntil(ev *explore.Event) sched.Task {
	return sched.Func(ev.Wait)
}

// Two tasks from outside, the first blocking until the second has run:
// one worker may take both in one batch from the global queue. The second
// goes to its ring (not a private buffer) and is announced, so the other
// worker takes it. (Before, this deadlocked on the first schedule.)
// Exhaustive at two preemptions in 346,919 schedules with the state cache
// (cached), 2,160,284 without (about 42 s of one core; 6,840 at one). The
// reduced search does not pay here: 1,974,064 schedules at 2, in about 111
// s. Under WSCHED_LONG, without the cache, the rounds up to 2 again and a
// start on 3; in -long's weak layer the reduced search at 1, exhaustive
// in 502,022 schedules (about 108 s of one core).
func TestExploreBatchMateOfBlockedPoll(t *testing.T) {
	explore.Check(t, "stranding/batch-mate", cached(weakLongAtOne(explore.Options{MaxSchedules: 2_500_000}, 100_000)), func() {
		rt := newMonitoredRuntime(2)
		var ran explore.Event
		h1, _ := rt.Spawn(blockUntil(&ran))
		h2, _ := rt.Spawn(sched.Func(ran.Set))
		if err := errors.Join(h1.Wait(context.Background()), h2.Wait(context.Background())); err != nil {
			explore.Failf("Wait: %v", err)
		}
		shutdown(rt)
	})
}

// Go's parallelism test in small: three workers, three tasks from outside
// that can finish only when all three run at once. Every worker must be
// woken (Rule 1, Rule 2), and no task may wait in a private place.
// Exhaustive at one preemption in 212,660 schedules with the state cache
// (cached; about 19 s), 640,224 without (about 25 s). In the weak mode at
// 1 it has not ended: two parts of the cached search ran 110,706,352
// schedules in 140 minutes of one core each, every one passing
// (docs/explore.md, "Runtime scenarios in the weak mode").
func TestExploreThreeWorkersRendezvous(t *testing.T) {
	explore.Check(t, "stranding/rendezvous-3", cached(explore.Options{Preemptions: 1, MaxSchedules: budget(700_000, 200_000)}), func() {
		rt := newMonitoredRuntime(3)
		arrived := 0
		var hs []*sched.JoinHandle
		for range 3 {
			h, err := rt.Spawn(sched.Func(func() {
				touched(&arrived)
				arrived++
				blockOn(&arrived, func() bool { return arrived == 3 }, "the rendezvous")
			}))
			if err != nil {
				explore.Failf("Spawn: %v", err)
			}
			hs = append(hs, h)
		}
		for _, h := range hs {
			if err := h.Wait(context.Background()); err != nil {
				explore.Failf("Wait: %v", err)
			}
		}
		shutdown(rt)
	})
}

// A task wakes another into its worker's LIFO slot (no announcement: the
// owner runs it next) and then blocks until that one has run. The monitor
// sees the worker stuck, flags it, and wakes the parked worker, which
// steals the slot's task. Under -long, at 2 with the state cache:
// 3,250,284 schedules, within ten times 500,000. In -long's weak layer at
// 1 with it (weakLongAtOne): 8,355,845 schedules, within ten times
// 1,200,000, the layer's longest search (scenarioset.WeakLongFirst).
func TestExploreLIFOBehindBlockedPoll(t *testing.T) {
	explore.Check(t, "stranding/lifo-slot", weakLongAtOne(cachedUnderLong(explore.Options{Preemptions: 1, MaxSchedules: budget(200_000, 500_000)}), 1_200_000), func() {
		lifoBehindBlockedPoll(sched.Config{Workers: 2}, false)
	})
}

// lifoBehindBlockedPoll is the body of stranding/lifo-slot (and, with
// idleFirst, of stranding/lifo-slot-after-idle) on a runtime of cfg
// (TestExploreStrandingWithRescueOff runs it with the rescue off).
func lifoBehindBlockedPoll(cfg sched.Config, idleFirst bool) {
	rt := newRuntimeWith(cfg)
	b := &pendingTask{}
	hb, _ := rt.Spawn(b)
	b.waitForWaker()
	if idleFirst {
		// Let virtual time pass with nothing to do: the monitor looks,
		// finds every worker parked, and sleeps with no period.
		explore.Sleep(5_000_000, "5 ms of idleness")
	}
	var ran explore.Event
	ha, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		b.send()
		cx.Wake(b.waker) // into this worker's LIFO slot
		ran.Wait()       // blocks until b has run
		return sched.Ready
	}))
	wb := explore.Go("watcher", func() {
		hb.Wait(context.Background())
		ran.Set()
	})
	if err := errors.Join(ha.Wait(context.Background()), hb.Wait(context.Background())); err != nil {
		explore.Failf("Wait: %v", err)
	}
	wb.Join()
	shutdown(rt)
}

// The same after the runtime went idle: every worker parked and the
// monitor asleep with no period. The worker woken for the new task must
// wake the monitor (its half of their Dekker pair), or the monitor never
// sees it stuck. Under -long, at 2 with the state cache: 1,952,641
// schedules, within ten times 300,000; in -long's weak layer at 1 with
// it, 4,740,848, within ten times 700,000.
func TestExploreLIFOBehindBlockedPollAfterIdle(t *testing.T) {
	explore.Check(t, "stranding/lifo-slot-after-idle", weakLongAtOne(cachedUnderLong(explore.Options{Preemptions: 1, MaxSchedules: 300_000}), 700_000), func() {
		lifoBehindBlockedPoll(sched.Config{Workers: 2}, true)
	})
}

// One worker, and its only poll blocks until a task it spawned has run:
// no worker is parked, so the monitor starts an extra worker, which takes
// the task from the stuck worker's ring and runs it, and retires once it
// finds nothing more.
func TestExploreExtraWorkerForStuckWorker(t *testing.T) {
	// In the weak mode at 1, in the weak layer: 85,169 schedules, about
	// 18 s of one core.
	opt := explore.Options{MaxSchedules: 500_000}
	weakAtOne(&opt, 200_000)
	explore.Check(t, "stranding/extra-worker", cached(opt), func() {
		extraWorkerForStuckWorker(sched.Config{Workers: 1})
	})
}

// extraWorkerForStuckWorker is the body of stranding/extra-worker on a
// runtime of cfg (TestExploreStrandingWithRescueOff runs it with the
// rescue off).
func extraWorkerForStuckWorker(cfg sched.Config) {
	rt := newRuntimeWith(cfg)
	var ran explore.Event
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		if _, err := cx.Spawn(sched.Func(ran.Set)); err != nil {
			explore.Failf("Context.Spawn: %v", err)
		}
		ran.Wait()
		return sched.Ready
	}))
	if err := h.Wait(context.Background()); err != nil {
		explore.Failf("Wait: %v", err)
	}
	m := shutdown(rt)
	if m.ExtraStarted == 0 {
		explore.Failf("the child ran without an extra worker on a runtime of one worker\n%s", m)
	}
}

// One worker blocked in a poll until a sleeping task wakes: the timer is
// not tied to a worker, the monitor fires it, and an extra worker runs the
// woken task. Exhaustive at two preemptions in 214,282 schedules with the
// state cache (cached), 1,008,107 without (about 31 s).
func TestExploreTimerDuringBlockedPoll(t *testing.T) {
	// In -long's weak layer at 1: 264,972 schedules, about 73 s of one
	// core.
	explore.Check(t, "stranding/timer", cached(weakLongAtOne(explore.Options{MaxSchedules: budget(1_100_000, 200_000)}, 40_000)), func() {
		rt := newMonitoredRuntime(1)
		var woke explore.Event
		slept := false
		hs, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			if slept {
				woke.Set()
				return sched.Ready
			}
			slept = true
			cx.Sleep(1_000_000) // 1 ms
			return sched.Pending
		}))
		hb, _ := rt.Spawn(blockUntil(&woke))
		if err := errors.Join(hs.Wait(context.Background()), hb.Wait(context.Background())); err != nil {
			explore.Failf("Wait: %v", err)
		}
		shutdown(rt)
	})
}

// Shutdown while a poll is blocked for good: Shutdown returns the
// context's error, naming the running poll; the task queued behind it is
// cancelled (its Wait returns), nothing is lost; once the poll returns the
// runtime finishes, and Shutdown returns nil.
//
// The blocked poll usually runs on worker 0, but not always: if worker 0
// has not begun its loop when the monitor looks (twice), the monitor takes
// it for stuck with a task queued and starts an extra worker, which takes
// the task. Shutdown then names the extra worker, and worker 0, free, may
// take the second task before it sees Shutdown and run it: then that task
// was not queued when Shutdown cancelled the queues, and its Wait returns
// nil. Either way Shutdown names one poll: an extra worker that is in its
// loop but not inside a poll (the monitor started it, and it has not yet
// seen closed) is not a poll still running (impl/sched's
// shutdown/pair-still-running is that race alone). docs/explore.md has
// the searches that found each of these. The budget is for WSCHED_LONG,
// where the search at 3 preemptions needs more than 2,000,000 schedules.
// In the weak mode, at 1 (weakOneWorker: one worker, and the extra one the
// monitor starts): 2,167 schedules.
func TestExploreShutdownWithBlockedPoll(t *testing.T) {
	opt := explore.Options{MaxSchedules: 250_000}
	if explore.WeakMode() {
		weakOneWorker(&opt)
	}
	explore.Check(t, "stranding/shutdown", opt, func() {
		rt := newMonitoredRuntime(1)
		var started, release explore.Event
		ha, _ := rt.Spawn(sched.Func(func() {
			started.Set()
			release.Wait()
		}))
		started.Wait()
		ranB := 0
		hb, _ := rt.Spawn(sched.Func(func() { ranB++ }))
		ctx, cancel := explore.WithCancel(context.Background())
		explore.Go("canceller", func() {
			explore.Sleep(1_000_000, "1 ms") // virtual time: give Shutdown a moment
			cancel()
		})
		_ = ctx
		err := rt.Shutdown(ctx)
		var sr *sched.StillRunningError
		onWorker0OrExtra := func(p sched.RunningPoll) bool { return p.Worker == 0 && !p.Extra || p.Worker != 0 && p.Extra }
		// In the weak-memory mode a second poll may be named: an extra
		// worker's poll of the queued task that has ended, even with the
		// extra worker retired, since a worker's inPoll is relaxed and
		// nothing orders the end of that poll before Shutdown's look,
		// which stops waiting at once on the cancelled context
		// (stillRunning: a poll that has just begun or ended may be
		// named or not). Never a poll that did not happen: checked
		// below, once the queued task's run is known.
		named := errors.As(err, &sr) && errors.Is(err, context.Canceled)
		endedNamed := named && explore.WeakMode() && len(sr.Polls) == 2 && sr.Polls[1].Extra && sr.Polls[0].Worker != sr.Polls[1].Worker
		if !named || (len(sr.Polls) != 1 && !endedNamed) || !onWorker0OrExtra(sr.Polls[0]) {
			explore.Failf("Shutdown with a blocked poll = %v, want a StillRunningError naming one poll, on worker 0 or an extra worker, wrapping context.Canceled", err)
		}
		switch err := hb.Wait(context.Background()); {
		case err == nil && ranB == 1, errors.Is(err, sched.ErrCancelled) && ranB == 0:
		default:
			explore.Failf("Wait of the task queued behind the blocked poll = %v after %d run(s), want ErrCancelled and no run, or nil and one", err, ranB)
		}
		if endedNamed && ranB != 1 {
			explore.Failf("Shutdown named two polls, %v, and the queued task was not polled", err)
		}
		release.Set()
		if err := ha.Wait(context.Background()); err != nil {
			explore.Failf("Wait of the blocked task = %v", err)
		}
		shutdown(rt)
	})
}
