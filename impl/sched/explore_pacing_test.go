//go:build explore

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
)

// The starvation signal and its pacing (starvation.go), as code the
// explore build runs: the scenario sets exploreCounts, so the monitor's
// rule reads goroutine counts the scenario chooses instead of skipping
// the rule (go test -tags explore -run TestExplorePacingPair ./impl/sched).
//
// The rule, restated here independently of the code: the stuck workers
// prove that one of them is blocked when they outnumber the goroutines
// running, the monitor (which runs, reading) aside, plus those runnable.
// Then, or when no extra worker runs, a start comes at once (the pacing
// starts over: gap 0). Otherwise starts are paced: the first at once with
// a gap of LongPoll, each next one no sooner than the gap after the
// last, the gap doubling up to maxPaceLongPolls LongPolls; a look before
// then gets no start.

// provenBlocked is the rule's test, from its statement.
func provenBlocked(stuck int, running, runnable uint64) bool {
	others := running
	if others > 0 {
		others-- // the monitor
	}
	return uint64(stuck) > others+runnable
}

const paceLongPoll = int64(time.Second)

// pacingGrid: with one extra worker counted as running and no goroutine
// behind it (the count alone), every count around the boundary: stuck 1
// to 3, running 0 to 4, runnable 0 to 3. Proven blocked: every look
// starts one at once. Not: the paced sequence, up to its cap.
func pacingGrid() {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Duration(paceLongPoll), ExtraWorkers: 1})
	m := &rt.mon
	rt.extras.running.StoreRelaxed(1)
	for stuck := 1; stuck <= 3; stuck++ {
		for running := uint64(0); running <= 4; running++ {
			for runnable := uint64(0); runnable <= 3; runnable++ {
				exploreCounts = func() (uint64, uint64) { return running, runnable }
				var p extraPacing
				if provenBlocked(stuck, running, runnable) {
					for now := int64(0); now < 3; now++ {
						if !p.allowExtra(m, now, stuck) || p.gap != 0 {
							explore.Failf("stuck %d, running %d, runnable %d (blocked): look at %d gave no start at once (gap %d)", stuck, running, runnable, now, p.gap)
						}
					}
					continue
				}
				want := paceLongPoll
				now := int64(0)
				for range 14 {
					if !p.allowExtra(m, now, stuck) || p.gap != want || p.next != now+want {
						explore.Failf("stuck %d, running %d, runnable %d: look at %d: a start with gap %d until %d, want gap %d", stuck, running, runnable, now, p.gap, p.next, want)
					}
					if p.allowExtra(m, now+want-1, stuck) {
						explore.Failf("stuck %d, running %d, runnable %d: a start %d before the gap of %d ends", stuck, running, runnable, int64(1), want)
					}
					now += want
					want = min(2*want, maxPaceLongPolls*paceLongPoll)
				}
			}
		}
	}
}

// pacingRetiring: the same rule while the one extra worker retires (its
// real loop: nothing to do, the re-check, the count down), with counts
// that prove nothing (stuck 1, two running, none runnable). Each look
// either starts one at once with the pacing over (it read the count
// down), or paces as above, or refuses before the gap ends; never a
// start before the gap ends with the pacing kept. Worker 0 stays parked
// and the scenario ends when the monitor and the extra worker have
// exited (awaitExits), without Shutdown: the rule reads the count alone,
// and Shutdown's steps against the extra worker's only multiplied the
// schedules (at 2 preemptions it took a minute and a half in the weak
// mode; TestExploreExtraSlotsPairShutdown has that race).
func pacingRetiring() {
	rt := newBareRuntime(Config{Workers: 1, LongPoll: time.Duration(paceLongPoll), ExtraWorkers: 1})
	w := rt.workers[0]
	w.beginPark()
	if !rt.extras.start() {
		explore.Failf("the extra worker could not start")
	}
	exploreCounts = func() (uint64, uint64) { return 2, 0 }
	mon := explore.Go("monitor", func() {
		var p extraPacing
		for _, now := range []int64{0, 1, paceLongPoll} {
			gap, next := p.gap, p.next
			ok := p.allowExtra(&rt.mon, now, 1)
			switch {
			case ok && p.gap == 0: // the count read down: at once
			case ok && now >= next && p.gap == min(max(2*gap, paceLongPoll), maxPaceLongPolls*paceLongPoll) && p.next == now+p.gap:
			case !ok && now < next && p.gap == gap && p.next == next:
			default:
				explore.Failf("look at %d (gap %d, next %d before): start %v, gap %d, next %d after", now, gap, next, ok, p.gap, p.next)
			}
		}
		rt.exited()
	})
	awaitExits(rt)
	mon.Join()
}

// TestExplorePacingPair is the grid; TestExplorePacingRetiring the look
// against a retiring extra worker (exhaustive at 3: 1,460 schedules
// plain, 95 in the weak layer's reduced search, milliseconds).
func TestExplorePacingPair(t *testing.T) {
	defer func() { exploreCounts = nil }()
	explore.Check(t, "monitor/pacing-grid", explore.Options{Preemptions: 3}, pacingGrid)
}

func TestExplorePacingRetiring(t *testing.T) {
	defer func() { exploreCounts = nil }()
	explore.Check(t, "monitor/pacing-retiring", explore.Options{Preemptions: 3}, pacingRetiring)
}
