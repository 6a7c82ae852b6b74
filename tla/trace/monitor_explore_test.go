//go:build tlatrace && explore

package trace

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/tlatrace"
)

// monitorScenario is a run of impl/sched whole (one worker, or two), the
// monitor helping (LongPoll > 0) but with no extra workers (MonitorIdle
// has none), whose MonitorIdle records are checked against the spec: the
// explorer's protocol/monitor-idle and protocol/monitor-idle-self-wake
// (explore/scenarios/monitor_idle_test.go) with a plain task for the
// blocking one (a task that blocks on a child needs an extra worker).
// Virtual time passes with nothing to do, so the worker parks and the
// monitor looks and may go to sleep with no period, or be about to, or be
// past its re-check; then a task from outside wakes the worker (a
// notifier's claim), or, with the park timeout, the worker wakes by itself
// first. The log stops once the task ran, before Shutdown. The monitor
// pairs alone (monitor/pair-*) are traced in impl/sched
// (TestTraceMonitorPairs).
type monitorScenario struct {
	name  string
	cfg   sched.Config
	idle  time.Duration // virtual time with nothing to do before the spawn
	opt   explore.Options
	model MonitorModel
}

var monitorScenarios = []monitorScenario{
	{
		// Every schedule at bound 2 (exhaustive).
		name:  "monitor/idle-then-spawn",
		cfg:   sched.Config{Workers: 1, LongPoll: time.Millisecond, ExtraWorkers: -1},
		idle:  2 * time.Millisecond,
		opt:   explore.Options{Preemptions: 2, MaxSchedules: 400_000},
		model: MonitorModel{N: 1},
	},
	{
		// The worker's timeout comes first (1 ms), the monitor's idle
		// decision may fall between its two steps. Every schedule at
		// bound 2 (exhaustive).
		name:  "monitor/self-wake-then-spawn",
		cfg:   sched.Config{Workers: 1, LongPoll: 10 * time.Millisecond, ParkTimeout: time.Millisecond, ExtraWorkers: -1},
		idle:  3 * time.Millisecond / 2,
		opt:   explore.Options{Preemptions: 2, MaxSchedules: 400_000},
		model: MonitorModel{N: 1},
	},
	{
		// Two workers, both parked when the task comes: the notifier
		// claims the lowest. Every schedule at bound 1 (exhaustive:
		// 16,564; bound 2 is a search of minutes).
		name:  "monitor/idle-then-spawn-two",
		cfg:   sched.Config{Workers: 2, LongPoll: time.Millisecond, ExtraWorkers: -1},
		idle:  2 * time.Millisecond,
		opt:   explore.Options{Preemptions: 1, MaxSchedules: 20_000},
		model: MonitorModel{N: 2},
	},
}

// exploreMonitor explores sc and returns its distinct logs, as TLA+.
func exploreMonitor(sc monitorScenario) ([]string, explore.Result) {
	m := sc.model
	var logs distinct
	res := explore.Explore(sc.opt, func() {
		tlatrace.Start()
		rt, err := sched.New(sc.cfg)
		if err != nil {
			explore.Failf("New: %v", err)
		}
		explore.Sleep(sc.idle, "idleness")
		ran := false
		h, err := rt.Spawn(sched.Func(func() { ran = true }))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		werr := h.Wait(context.Background())
		s, lerr := m.MonitorLog(tlatrace.Stop())
		if lerr != nil {
			explore.Failf("log: %v", lerr)
		}
		logs.add(s)
		if werr != nil || !ran {
			explore.Failf("Wait: %v (ran %v)", werr, ran)
		}
		if err := rt.Shutdown(context.Background()); err != nil {
			explore.Failf("Shutdown: %v", err)
		}
	})
	return logs.logs, res
}

// TestTraceMonitorExplored runs each monitor scenario under the schedules
// of its search and has TLC check every distinct log against MonitorIdle,
// one TLC run per model (the one-worker scenarios together).
func TestTraceMonitorExplored(t *testing.T) {
	batches := map[MonitorModel][]string{}
	var order []MonitorModel
	for _, sc := range monitorScenarios {
		logs, res := exploreMonitor(sc)
		if f := res.Failure; f != nil {
			// As in TestTraceIdleExplored: the failing schedule's log
			// goes to TLC first.
			t.Errorf("%s failed under the explorer: %v\n%s", sc.name, f, f.Trace)
			if s, err := sc.model.MonitorLog(tlatrace.Stop()); err == nil {
				logs = append([]string{s}, logs...)
				t.Logf("the failing schedule's log (first of its batch) goes to TLC")
			}
		}
		t.Logf("%s: %d schedules (exhaustive %v, bound %d), %d distinct logs, %s",
			sc.name, res.Schedules, res.Exhaustive, res.Bound, len(logs), res.Elapsed.Round(time.Millisecond))
		if _, ok := batches[sc.model]; !ok {
			order = append(order, sc.model)
		}
		batches[sc.model] = append(batches[sc.model], logs...)
	}
	for _, m := range order {
		Validate(t, Jar(), "..", fmt.Sprintf("monitor/explored (N = %d)", m.N), m.MonitorBatch(batches[m], nil), true)
	}
}

// monitorSpecMutants are mutants of MonitorIdle.tla: a text replacement
// in a copy of the spec (old by new) or a switch of the model (order,
// recheck): an order or a step the code does not have, a guard dropped.
// Each must make TLC reject some log of the unchanged code.
var monitorSpecMutants = []struct {
	name, what, old, new string
	order, recheck       string
}{
	{name: "Swapped", what: "a worker loads idle before it clears its bit (Order = load-then-clear)",
		order: "load-then-clear"},
	{name: "NoRecheck", what: "the monitor sleeps after storing idle without loading the bitmap again (MonitorRecheck = FALSE)",
		recheck: "FALSE"},
	{name: "LookIgnoresRunning", what: "the monitor goes to sleep idle whatever its look saw (Look's test of a running worker made FALSE)",
		old: "    /\\ mpc = \"look\"\n    /\\ IF AnyRunning", new: "    /\\ mpc = \"look\"\n    /\\ IF FALSE"},
	{name: "NotifyKeepsBit", what: "a notifier's claim leaves the claimed worker's bit set",
		old: "    /\\ bit[w]\n    /\\ bit' = [bit EXCEPT ![w] = FALSE]\n    /\\ wtoken'", new: "    /\\ bit[w]\n    /\\ UNCHANGED bit\n    /\\ wtoken'"},
}

// TestTraceMonitorSpecMutants checks the validation's teeth against the
// spec: for each mutant of MonitorIdle, TLC must reject a log of the
// unchanged code (the logs of the first scenario), one TLC run per mutant.
func TestTraceMonitorSpecMutants(t *testing.T) {
	logs, res := exploreMonitor(monitorScenarios[0])
	if res.Failure != nil {
		t.Fatalf("%s failed under the explorer: %v", monitorScenarios[0].name, res.Failure)
	}
	jar := Jar()
	for _, mu := range monitorSpecMutants {
		t.Run(mu.name, func(t *testing.T) {
			var mutate func(string) (string, error)
			if mu.old != "" {
				mutate = func(spec string) (string, error) {
					if strings.Count(spec, mu.old) != 1 {
						return "", fmt.Errorf("spec mutant %s: its text occurs %d times in MonitorIdle.tla, want once", mu.name, strings.Count(spec, mu.old))
					}
					return strings.Replace(spec, mu.old, mu.new, 1), nil
				}
			}
			m := MonitorModel{N: 1, Order: mu.order, Recheck: mu.recheck}
			r := Validate(t, jar, "..", "spec mutant "+mu.name, m.MonitorBatch(logs, mutate), false)
			if r.OK() {
				t.Errorf("spec mutant %s (%s): TLC accepted every log of the unchanged code", mu.name, mu.what)
				return
			}
			t.Logf("CAUGHT (%s): %s", mu.what, firstLines(r.Mismatch, 12))
		})
	}
}
