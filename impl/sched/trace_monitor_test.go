//go:build explore && tlatrace

package sched

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/tlatrace"
	"github.com/wsched/wsched/tla/trace"
)

// TestTraceMonitorPairs is the trace validation of the monitor's idle
// sleep on the explorer's two pair scenarios (explore_monitor_test.go):
// every schedule of monitor/pair-timeout and monitor/pair-publish, as
// those tests search them (bound 3, exhaustive), logs the steps of
// tla/MonitorIdle.tla (internal/tlatrace; the goroutine that parks is
// worker 0), and TLC checks every distinct log against the spec
// (tla/TraceMonitorIdle.tla), one TLC run for both scenarios. It lives
// here, not in tla/trace, because the pairs run the monitor and the
// worker without the runtime's goroutines (newBareRuntime).
func TestTraceMonitorPairs(t *testing.T) {
	m := trace.MonitorModel{N: 1, Pair: true} // the monitor starts at its idle store
	var all []string
	seen := map[string]bool{}
	for _, sc := range []struct {
		name string
		cfg  Config
		body func(rt *Runtime)
	}{
		{"monitor/pair-timeout", Config{Workers: 1, LongPoll: time.Millisecond, ParkTimeout: time.Millisecond}, func(rt *Runtime) {
			mon := monitorSleeps(rt)
			rt.workers[0].park()
			mon.Join()
		}},
		{"monitor/pair-publish", Config{Workers: 1, LongPoll: time.Millisecond}, func(rt *Runtime) {
			mon := monitorSleeps(rt)
			p := explore.Go("publisher", func() { rt.pushRemote(&task{}) })
			rt.workers[0].park()
			p.Join()
			mon.Join()
		}},
	} {
		logs := 0
		res := explore.Explore(explore.Options{Preemptions: 3}, func() {
			tlatrace.Start()
			tlatrace.Bind(0) // this goroutine parks as worker 0
			sc.body(newBareRuntime(sc.cfg))
			s, err := m.MonitorLog(tlatrace.Stop())
			if err != nil {
				explore.Failf("log: %v", err)
			}
			if !seen[s] {
				seen[s] = true
				all = append(all, s)
				logs++
			}
		})
		if f := res.Failure; f != nil {
			// A mutant, or a bug: the failing schedule's log, up to
			// the failure, goes to TLC first, so that the test says
			// whether the spec rejects it too.
			t.Errorf("%s failed under the explorer: %v\n%s", sc.name, f, f.Trace)
			if s, err := m.MonitorLog(tlatrace.Stop()); err == nil && !seen[s] {
				seen[s] = true
				all = append([]string{s}, all...)
				t.Logf("the failing schedule's log (log 1 below) goes to TLC")
			}
			continue
		}
		if !res.Exhaustive {
			t.Fatalf("%s: the search was not exhaustive (%d schedules)", sc.name, res.Schedules)
		}
		t.Logf("%s: %d schedules (exhaustive, bound %d), %d distinct logs", sc.name, res.Schedules, res.Bound, logs)
	}
	trace.Validate(t, trace.Jar(), "../../tla", "monitor/pairs", m.MonitorBatch(all, nil), true)
}
