//go:build tlatrace && explore

package trace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
	"github.com/wsched/wsched/internal/tlatrace"
)

// idleScenario is a run of impl/sched whole (its workers, the idle
// protocol, parking with the park timeout off) whose idle records are
// checked against IdleProtocol: the explorer's runtime/remote-spawn
// scenarios (explore/scenarios/runtime_test.go), as the spec has them: one
// goroutine outside the runtime spawns (the spec's producer), and the
// monitor does not help long polls (LongPoll < 0: it only fires timers,
// and there are none), so every idle record is a worker's or the
// producer's. The log stops once every task ran, before Shutdown (which
// IdleProtocol does not model): a prefix of a behaviour is a behaviour.
type idleScenario struct {
	name   string
	model  IdleModel
	opt    explore.Options
	stride int // every stride-th distinct log goes to TLC (1: all)
}

var idleScenarios = []idleScenario{
	{
		// One worker, one task from outside (runtime/remote-spawn-one-worker):
		// the spawn's notify against the worker's park.
		name:   "idle/remote-spawn-one-worker",
		model:  IdleModel{N: 1, ExtTasks: 1},
		opt:    explore.Options{MaxSchedules: 100_000},
		stride: 1,
	},
	{
		// Two workers, two tasks from outside (runtime/remote-spawn). Its
		// search is not exhaustive within the explorer's budget; the
		// trace takes the first 20,000 schedules of it (those of the
		// pair scenario's 200,000 gave 110 distinct logs, all accepted).
		name:   "idle/remote-spawn",
		model:  IdleModel{N: 2, ExtTasks: 2},
		opt:    explore.Options{MaxSchedules: 20_000},
		stride: 1,
	},
}

// spawnRemote starts a runtime of m.N workers and spawns m.ExtTasks tasks
// from the calling goroutine; once every task ran it hands the log to
// keep, then shuts the runtime down (the log is kept even if Shutdown
// fails).
func spawnRemote(m IdleModel, keep func([]tlatrace.Event)) {
	tlatrace.Start()
	rt, err := sched.New(sched.Config{Workers: m.N, LongPoll: -1})
	if err != nil {
		explore.Failf("New: %v", err)
	}
	runs := 0
	var hs []*sched.JoinHandle
	for range m.ExtTasks {
		h, err := rt.Spawn(sched.Func(func() { runs++ }))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		hs = append(hs, h)
	}
	var errs []error
	for _, h := range hs {
		errs = append(errs, h.Wait(context.Background()))
	}
	keep(tlatrace.Stop())
	if err := errors.Join(errs...); err != nil {
		explore.Failf("Wait: %v", err)
	}
	if runs != m.ExtTasks {
		explore.Failf("%d runs, want %d", runs, m.ExtTasks)
	}
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown: %v", err)
	}
}

// exploreIdle explores sc and returns its distinct logs, as TLA+.
func exploreIdle(t *testing.T, sc idleScenario) ([]string, explore.Result) {
	var logs distinct
	res := explore.Explore(sc.opt, func() {
		spawnRemote(sc.model, func(evs []tlatrace.Event) {
			s, err := sc.model.IdleLog(evs)
			if err != nil {
				explore.Failf("log: %v", err)
			}
			logs.add(s)
		})
	})
	return logs.logs, res
}

// TestTraceIdleExplored runs each idle scenario under every schedule the
// explorer's search reaches, logs the IdleProtocol actions of each, and
// has TLC check every distinct log (or every stride-th) against the spec,
// one TLC run per scenario.
func TestTraceIdleExplored(t *testing.T) {
	jar := Jar()
	for _, sc := range idleScenarios {
		t.Run(sc.name, func(t *testing.T) {
			logs, res := exploreIdle(t, sc)
			if f := res.Failure; f != nil {
				// The scenario failed under the explorer (a mutant, or a
				// bug): the log of the failing schedule, up to the
				// failure, goes to TLC first, so that the test says
				// whether the spec rejects it too.
				t.Errorf("%s: the scenario failed under the explorer: %v\n%s", sc.name, f, f.Trace)
				// (A failure after the log was kept, in Shutdown, left
				// that log among the others, and none here.)
				if evs := tlatrace.Stop(); len(evs) > 0 {
					if s, err := sc.model.IdleLog(evs); err == nil {
						logs = append([]string{s}, logs...)
						t.Logf("the failing schedule's log (log 1 below, %d records) goes to TLC", strings.Count(s, "[a |->"))
					}
				}
			}
			t.Logf("%s: %d schedules (exhaustive %v, bound %d), %d distinct logs, %s",
				sc.name, res.Schedules, res.Exhaustive, res.Bound, len(logs), res.Elapsed.Round(time.Millisecond))
			validateIdle(t, jar, sc.name, sc.model, logs, max(sc.stride, 1), nil)
		})
	}
}

// idleSpecMutants are mutants of IdleProtocol.tla, each a text replacement
// in a copy of the spec (old by new) or one of its bug switches set TRUE
// (sw): a guard dropped or weakened, an order the code does not have. Each
// must make TLC reject some log of the unchanged code.
// Each runs against the logs of one scenario: one-worker, or every 10th
// of remote-spawn (a claim between two parked workers needs two).
var idleSpecMutants = []struct {
	name, what, old, new, sw string
	two                      bool // remote-spawn's logs, not one-worker's
}{
	{name: "Rule2Dropped", what: "the last searcher that finds work does not notify (the guard of Rule 2 made FALSE)",
		old: `IF NoSearcher(ns - 1) /\ ~NoRule2Notify`, new: `IF FALSE`},
	{name: "NoFinalCheck", what: "a parker sleeps without re-checking the queues (the re-check step removed)",
		old: "AfterTransition(w, wasLast) ==\n    IF NoFinalCheck THEN", new: "AfterTransition(w, wasLast) ==\n    IF TRUE THEN"},
	{name: "DecBeforeBit", what: "a searcher gives its credit back before it sets its parked bit (the switch DecBeforeBit)",
		sw: "DecBeforeBit"},
	{name: "ClaimHighest", what: "a notifier claims the highest parked worker, not the lowest (a choice the code does not make)",
		old: `tgt' = [tgt EXCEPT ![p] = Min(bitmap)]`, new: `tgt' = [tgt EXCEPT ![p] = CHOOSE x \in bitmap : \A y \in bitmap : x >= y]`,
		two: true},
}

// TestTraceIdleSpecMutants checks the validation's teeth against the spec:
// for each mutant of IdleProtocol, TLC must reject a log of the unchanged
// code, in one TLC run per mutant.
func TestTraceIdleSpecMutants(t *testing.T) {
	jar := Jar()
	type set struct {
		model IdleModel
		logs  []string
	}
	var sets []set
	for _, sc := range idleScenarios {
		logs, ex := exploreIdle(t, sc)
		if ex.Failure != nil {
			t.Fatalf("%s failed under the explorer: %v", sc.name, ex.Failure)
		}
		st := 1
		if sc.model.N > 1 {
			st = 10
		}
		var batch []string
		for j := 0; j < len(logs); j += st {
			batch = append(batch, logs[j])
		}
		sets = append(sets, set{sc.model, batch})
	}
	if jar == "" {
		t.Skip("\n!!! no TLC jar: the spec mutants were NOT checked")
	}
	for _, mu := range idleSpecMutants {
		t.Run(mu.name, func(t *testing.T) {
			mutate := func(spec string) (string, error) {
				if mu.sw != "" {
					return spec, nil
				}
				if strings.Count(spec, mu.old) != 1 {
					return "", fmt.Errorf("spec mutant %s: its text occurs %d times in IdleProtocol.tla, want once", mu.name, strings.Count(spec, mu.old))
				}
				return strings.Replace(spec, mu.old, mu.new, 1), nil
			}
			s := sets[0]
			if mu.two {
				s = sets[1]
			}
			s.model.Switch = mu.sw
			res := validateIdle(t, jar, "spec mutant "+mu.name, s.model, s.logs, 1, mutate)
			if res.OK() {
				t.Errorf("spec mutant %s (%s): TLC accepted every log of the unchanged code", mu.name, mu.what)
				return
			}
			t.Logf("CAUGHT (%s): %s", mu.what, firstLines(res.Mismatch, 12))
		})
	}
}
