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

// strandScenario is one of the explorer's stranding scenarios
// (explore/scenarios/stranding_test.go), its body copied here (the
// scenarios are test code of another package), whose Stranding records
// are checked against the spec at the code's grain: the log starts before
// New and stops once every task is done, before Shutdown (Stranding has no
// shutdown).
type strandScenario struct {
	name  string
	opt   explore.Options
	model StrandModel
}

// pendingTask is explore/scenarios' pendingTask: pending until msg is set,
// handing out its waker on its first poll.
type pendingTask struct {
	msg   bool
	waker sched.Waker
	have  bool
}

func (p *pendingTask) Poll(cx *sched.Context) sched.Poll {
	if p.msg {
		return sched.Ready
	}
	if !p.have {
		p.waker, p.have = cx.Waker(), true
	}
	return sched.Pending
}

func newStrandRuntime(cfg sched.Config) *sched.Runtime {
	rt, err := sched.New(cfg)
	if err != nil {
		explore.Failf("New: %v", err)
	}
	return rt
}

// stopStrand ends the log (once every task is done) and shuts rt down.
func stopStrand(rt *sched.Runtime, m StrandModel, logs *distinct) {
	s, err := m.StrandLog(tlatrace.Stop())
	if err != nil {
		explore.Failf("log: %v", err)
	}
	logs.add(s)
	if err := rt.Shutdown(context.Background()); err != nil {
		explore.Failf("Shutdown: %v", err)
	}
}

// stranding/batch-mate: two tasks from outside, the first blocking until
// the second has run.
func batchMate(m StrandModel, logs *distinct) {
	tlatrace.Start()
	rt := newStrandRuntime(sched.Config{Workers: 2})
	var ran explore.Event
	h1, _ := rt.Spawn(sched.Func(ran.Wait))
	h2, _ := rt.Spawn(sched.Func(ran.Set))
	if err := errors.Join(h1.Wait(context.Background()), h2.Wait(context.Background())); err != nil {
		explore.Failf("Wait: %v", err)
	}
	stopStrand(rt, m, logs)
}

// stranding/lifo-slot (-after-idle): P from outside returns pending; B
// from outside wakes it into its worker's slot and blocks until P ran.
func lifoSlot(m StrandModel, logs *distinct, idleFirst bool) {
	tlatrace.Start()
	rt := newStrandRuntime(sched.Config{Workers: 2})
	b := &pendingTask{}
	hb, _ := rt.Spawn(b)
	explore.Block(func() bool { return b.have }, "the task's waker")
	if idleFirst {
		explore.Sleep(5_000_000, "5 ms of idleness")
	}
	var ran explore.Event
	ha, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		b.msg = true
		cx.Wake(b.waker)
		ran.Wait()
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
	stopStrand(rt, m, logs)
}

// stranding/extra-worker: one worker, whose only poll spawns P into its
// ring and blocks until P ran: the monitor starts an extra worker.
func extraWorker(m StrandModel, logs *distinct) {
	tlatrace.Start()
	rt := newStrandRuntime(sched.Config{Workers: 1})
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
	stopStrand(rt, m, logs)
}

// strandScenarios: every schedule at bound 1 of batch-mate and lifo-slot
// (6,840 and 103,362 schedules); of the two larger searches, lifo-slot-
// after-idle at bound 1 (182,232) and extra-worker at bound 2 (375,238),
// part 0 of parts (the explorer's hash split, Options.Shard: about one
// schedule in parts), all of them with WSCHED_TRACE_STRIDE=1 (verify
// -long).
func strandScenarios(parts int) []strandScenario {
	part := explore.Shard{K: 0, N: parts}
	return []strandScenario{
		{name: "stranding/batch-mate", opt: explore.Options{Preemptions: 1, MaxSchedules: 200_000}, model: strandBatch},
		{name: "stranding/lifo-slot", opt: explore.Options{Preemptions: 1, MaxSchedules: 200_000}, model: strandLIFO},
		{name: "stranding/lifo-slot-after-idle", opt: explore.Options{Preemptions: 1, MaxSchedules: 300_000, Shard: part}, model: strandLIFO},
		{name: "stranding/extra-worker", opt: explore.Options{Preemptions: 2, MaxSchedules: 500_000, Shard: part}, model: strandSpawn},
	}
}

// exploreStrand explores sc and returns its distinct logs, as TLA+.
func exploreStrand(sc strandScenario) ([]string, explore.Result) {
	var logs distinct
	res := explore.Explore(sc.opt, func() {
		switch sc.name {
		case "stranding/batch-mate":
			batchMate(sc.model, &logs)
		case "stranding/lifo-slot":
			lifoSlot(sc.model, &logs, false)
		case "stranding/lifo-slot-after-idle":
			lifoSlot(sc.model, &logs, true)
		case "stranding/extra-worker":
			extraWorker(sc.model, &logs)
		default:
			explore.Failf("no body for %s", sc.name)
		}
	})
	return logs.logs, res
}

// TestTraceStrandingExplored runs each stranding scenario under every
// schedule of its search and has TLC check every distinct log against
// Stranding at the code's grain, one TLC run per shape; then each mutant
// of the spec against the same logs (strandSpecMutants).
func TestTraceStrandingExplored(t *testing.T) {
	batches := map[string][]string{}
	models := map[string]StrandModel{}
	var order []string
	for _, sc := range strandScenarios(stride(t, 4)) {
		logs, res := exploreStrand(sc)
		if f := res.Failure; f != nil {
			t.Errorf("%s failed under the explorer: %v\n%s", sc.name, f, f.Trace)
			if s, err := sc.model.StrandLog(tlatrace.Stop()); err == nil {
				logs = append([]string{s}, logs...)
				t.Logf("the failing schedule's log (first of its batch) goes to TLC")
			}
		}
		part := "all"
		if sc.opt.Shard.Split() {
			part = "part " + sc.opt.Shard.String()
		}
		t.Logf("%s: %d schedules (exhaustive %v, bound %d, %s), %d distinct logs, %s",
			sc.name, res.Schedules, res.Exhaustive, res.Bound, part, len(logs), res.Elapsed.Round(time.Millisecond))
		if _, ok := models[sc.model.Shape]; !ok {
			order = append(order, sc.model.Shape)
			models[sc.model.Shape] = sc.model
		}
		batches[sc.model.Shape] = append(batches[sc.model.Shape], logs...)
	}
	for _, s := range order {
		flags, stale := 0, 0
		for _, l := range batches[s] {
			flags += strings.Count(l, `a |-> "Flag"`)
			stale += strings.Count(l, "stale |-> TRUE")
		}
		t.Logf("shape %s: %d flags in the distinct logs, %d marked stale (StaleFlags)", s, flags, stale)
		Validate(t, Jar(), "..", fmt.Sprintf("stranding/explored (Shape %s)", s), models[s].StrandBatch(batches[s], nil), true)
	}
	// The teeth against the spec, on the same logs (no second search).
	if !t.Failed() {
		strandMutantsCaught(t, batches, models)
	}
}

// strandSpecMutants are mutants of Stranding.tla (a text replacement in a
// copy of the spec, old by new): a step the code does not have, a guard
// dropped or made stricter than the code's. Each must make TLC reject
// some log of the unchanged code of its shape.
var strandSpecMutants = []struct {
	name, what, old, new, shape string
	times                       int // how many times old occurs (0: once); each is replaced
}{
	{name: "PrivateRest", what: "the rest of a global batch goes to a private buffer (the old design), not the ring", shape: "batch",
		old: `LET kind == IF PrivateBuffer THEN "buf" ELSE IF RestApart THEN "hand" ELSE "ring"`, new: `LET kind == "buf"`},
	{name: "OnlyMonitorWakes", what: "a parked worker is woken only by the monitor, never by a notify (the design scenario's reading)", shape: "batch",
		old: "    /\\ NotifyWakes\n    /\\ ws[w] = \"parked\"", new: "    /\\ NotifyWakes /\\ FALSE\n    /\\ ws[w] = \"parked\""},
	{name: "SlotNeverStolen", what: "thieves never take a LIFO slot, flagged or not", shape: "lifo",
		old: `Reachable(v) == At("ring", v) \cup (IF SlotStealable /\ stuck[v] THEN At("lifo", v) ELSE {})`, new: `Reachable(v) == At("ring", v)`},
	{name: "WakeIntoRing", what: "a blocker's wake puts P at the back of its ring, not into its slot", shape: "lifo",
		old: `WakeKind == IF Shape = "lifo" THEN "lifo" ELSE "ring"`, new: `WakeKind == "ring"`},
	{name: "FlagOnlyInPoll", what: "the monitor flags only a worker inside a poll (the code flags by its tick count, also a worker not yet in its loop)", shape: "spawn",
		old: `/\ ws[v] \in {"looking", "polling"} /\ ~stuck[v]`, new: `/\ ws[v] = "polling" /\ ~stuck[v]`},
	{name: "HelpAtOnce", what: "the monitor wakes a parked worker or starts an extra one only while a task waits (its look at the queues and its help one step: MonSee's sight not used)", shape: "spawn",
		old: `(\E u \in All : stuck[u]) /\ monSaw`, new: `(\E u \in All : stuck[u]) /\ Waiting`, times: 2},
}

// strandMutantsCaught has TLC check, for each mutant of Stranding, the
// logs of the unchanged code of its shape: some log must be rejected.
// One TLC run per mutant.
func strandMutantsCaught(t *testing.T, batches map[string][]string, models map[string]StrandModel) {
	jar := Jar()
	for _, mu := range strandSpecMutants {
		t.Run("SpecMutant"+mu.name, func(t *testing.T) {
			mutate := func(spec string) (string, error) {
				if n := max(mu.times, 1); strings.Count(spec, mu.old) != n {
					return "", fmt.Errorf("spec mutant %s: its text occurs %d times in Stranding.tla, want %d", mu.name, strings.Count(spec, mu.old), n)
				}
				return strings.ReplaceAll(spec, mu.old, mu.new), nil
			}
			r := Validate(t, jar, "..", "spec mutant "+mu.name, models[mu.shape].StrandBatch(batches[mu.shape], mutate), false)
			if r.OK() {
				t.Errorf("spec mutant %s (%s): TLC accepted every log of the unchanged code", mu.name, mu.what)
				return
			}
			t.Logf("CAUGHT (%s): %s", mu.what, firstLines(r.Mismatch, 12))
		})
	}
}
