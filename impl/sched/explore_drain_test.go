//go:build explore

package sched

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
)

// The drains (drain.go) against the goroutines that take from the same
// queues, alone (go test -tags explore -run TestExploreDrainPair
// ./impl/sched; the weak layer runs them too). Worker 0 has three tasks
// queued, one in its LIFO slot and three in its ring (a steal takes two:
// one to run, one into the thief's ring), and is flagged stuck
// (its poll does not return), so that a thief may take the slot too.
// One of the three drains, with a batch buffer of two (so that a drain
// hands its tasks on in two batches):
//
//   - monitor: the monitor's drain at shutdown (cancelReachable: a
//     thief's drain, through a ring of its own, cancelling what it takes);
//   - exit: worker 0's own drain as it exits (the owner's, cancelling);
//   - handoff: worker 0's own drain handing its tasks to the global queue
//     (an extra worker that is not needed any more, handOff);
//
// runs against worker 1 stealing from worker 0 as a searching worker
// does (stealSlot, stealRing, then its own ring). And, for the
// cancellation itself, monitor-wait: the monitor's drain against a Wait
// that cancels the ring's first task once the runtime terminated
// (join.go), no thief.
//
// The promise: a task a drain took is in no queue any more, so whoever
// took it hands it on exactly once: no task is taken twice, none is
// lost (each is taken, or still queued, and the last owner's drain finds
// it), a cancelling drain's tasks are cancelled and counted (cancelled),
// a handoff's are in the global queue, and of two cancels of one task
// exactly one wins.
func drainPair(kind string) {
	rt := newBareRuntime(Config{Workers: 2, LongPoll: -1})
	v, w := rt.workers[0], rt.workers[1]
	tasks := []*task{rt.newGoRecord(func() {}), rt.newGoRecord(func() {}), rt.newGoRecord(func() {}), rt.newGoRecord(func() {})}
	v.lifo.Put(tasks[0])
	for _, t := range tasks[1:] {
		v.ring.Push(t, rt.global)
	}
	v.stuck.StoreRelaxed(true)
	taken := map[*task]string{}
	take := func(by string, t *task) {
		if prev, ok := taken[t]; ok {
			explore.Failf("a task taken twice: by the %s and by the %s", prev, by)
		}
		taken[t] = by
	}
	buf := make([]*task, 2)
	byDrain := 0
	cancelling := func(ts []*task) {
		for _, t := range ts {
			take("drain", t)
			byDrain++
		}
		rt.cancelAll(ts)
	}
	var drainer, other *explore.Thread
	waitWon := false
	switch kind {
	case "monitor", "monitor-wait":
		drainer = explore.Go("monitor", func() { v.drain((*taskRing)(queue.NewRing[task]()), buf, cancelling) })
	case "exit":
		drainer = explore.Go("owner", func() { v.drain(nil, buf, cancelling) })
	case "handoff":
		drainer = explore.Go("owner", func() {
			v.drain(nil, buf, func(ts []*task) {
				for _, t := range ts {
					take("drain", t)
					byDrain++
				}
				rt.global.PushBatch(ts)
			})
		})
	}
	if kind == "monitor-wait" {
		other = explore.Go("waiter", func() { waitWon = tasks[1].cancel() })
	} else {
		other = explore.Go("thief", func() {
			for {
				t := w.stealSlot(v)
				if t == nil {
					t = w.stealRing(v)
				}
				if t == nil {
					return
				}
				take("thief", t)
				for t := w.ring.Pop(); t != nil; t = w.ring.Pop() {
					take("thief", t)
				}
			}
		})
	}
	drainer.Join()
	other.Join()
	// What is still queued (a steal in progress made the drain stop
	// early) is taken by its owner's last drain.
	v.drain(nil, buf, func(ts []*task) {
		for _, t := range ts {
			take("last drain", t)
		}
	})
	if kind == "monitor-wait" {
		if len(taken) != 4 {
			explore.Failf("%d of 4 tasks taken", len(taken))
		}
		if drainWon := rt.cancelled.Load(); waitWon == (drainWon == 4) {
			explore.Failf("task 1 cancelled by the Wait: %v; the drain counts %d cancelled of 4: want exactly one of the two to win", waitWon, drainWon)
		}
	} else if len(taken) != 4 {
		explore.Failf("%d of 4 tasks taken (%v): one lost", len(taken), taken)
	}
	switch kind {
	case "monitor", "exit":
		if got := rt.cancelled.Load(); got != uint64(byDrain) {
			explore.Failf("the drain took %d tasks and counts %d cancelled", byDrain, got)
		}
	case "handoff":
		gbuf := make([]*task, 8)
		if n := rt.global.PopBatch(gbuf); n != byDrain {
			explore.Failf("the drain handed %d tasks to the global queue, which holds %d", byDrain, n)
		}
	}
	for t, by := range taken {
		cancelled := t.state.LoadRelaxed() == stateCancelled
		if want := by == "drain" && kind != "handoff" || t == tasks[1] && waitWon; cancelled != want {
			explore.Failf("a task taken by the %s: cancelled %v, want %v", by, cancelled, want)
		}
	}
}

// Exhaustive at 3 preemptions in both modes. In the weak mode (the
// reduced search) 9,871, 10,116, 10,116 and 39 schedules, about 10 s of
// CPU for the four (2.3 s at 2, where they were 2,214, 2,232, 2,232 and
// 25), measured on a loaded machine.
func TestExploreDrainPair(t *testing.T) {
	for _, kind := range []string{"monitor", "exit", "handoff", "monitor-wait"} {
		t.Run(kind, func(t *testing.T) {
			explore.Check(t, "drain/pair-"+kind, explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() { drainPair(kind) })
		})
	}
}
