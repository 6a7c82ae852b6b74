//go:build explore

package sched

import (
	"context"
	"errors"
	"testing"

	"github.com/wsched/wsched/explore"
)

// When Shutdown decides the runtime was idle at close, alone (go test
// -tags explore -run TestExploreIdleAtClose ./impl/sched). Shutdown stores
// closed, looks at every worker's state (noneInTick: starting, parked or
// exited), and only then wakes them: a worker it wakes leaves the parked
// state on its way out, so a look after the wakes could see an idle
// runtime busy. With a context that has ended, that decision is the whole
// answer: idle, Shutdown waits for the exits and returns nil; not, it
// returns a StillRunningError.
//
// The bare runtime has one worker and no monitor (it has exited). The
// worker is parked before Shutdown (idle), or in its tick and parking as
// Shutdown runs (half-parked: it stores parked, joins the idle set and
// sleeps until closed); either way it then leaves the parked set and
// exits. Shutdown runs with a live context or one already ended:
//
//   - live: nil, always;
//   - ended, idle: nil, always (no worker is in a tick: waiting for the
//     exits waits for no task);
//   - ended, half-parked: nil if Shutdown saw it parked, otherwise a
//     StillRunningError naming no poll (the worker was in its tick, not
//     in a poll), after which a Shutdown with a live context returns nil.
//
// Busy runtimes (a worker inside a poll) are TestExploreCloseStatePair's.
func idleAtClose(parkedBefore, ended bool) {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: -1, ParkTimeout: 0})
	rt.exited() // the monitor's exit: live counts the worker alone
	w := rt.workers[0]
	if parkedBefore {
		w.beginPark()
	} else {
		w.setState(workerRunning)
	}
	worker := explore.Go("worker", func() {
		if !parkedBefore {
			w.beginPark()
		}
		for !rt.closed.LoadAcquire() {
			w.parker.Park(0) // until Shutdown's token
		}
		w.endPark()
		w.exit()
	})
	ctx, cancel := explore.WithCancel(context.Background())
	if ended {
		cancel()
	}
	defer cancel()
	err := rt.Shutdown(ctx)
	var sr *StillRunningError
	switch {
	case err == nil:
	case !ended:
		explore.Failf("Shutdown with a live context = %v, want nil", err)
	case parkedBefore:
		explore.Failf("Shutdown of an idle runtime (its worker parked) with an ended context = %v, want nil", err)
	case errors.As(err, &sr) && errors.Is(err, context.Canceled) && len(sr.Polls) == 0:
		if err := rt.Shutdown(context.Background()); err != nil {
			explore.Failf("Shutdown after the ended one = %v, want nil", err)
		}
	default:
		explore.Failf("Shutdown of a half-parked runtime = %v, want nil or a StillRunningError naming no poll", err)
	}
	worker.Join()
	if s := w.state.LoadRelaxed(); s != workerExited {
		explore.Failf("after Shutdown the worker's state is %d, want exited", s)
	}
}

func TestExploreIdleAtClosePair(t *testing.T) {
	for _, c := range []struct {
		name                string
		parkedBefore, ended bool
	}{
		{"idle-live", true, false},
		{"idle-ended", true, true},
		{"half-parked-live", false, false},
		{"half-parked-ended", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			explore.Check(t, "shutdown/idle-at-close-"+c.name, explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
				idleAtClose(c.parkedBefore, c.ended)
			})
		})
	}
}
