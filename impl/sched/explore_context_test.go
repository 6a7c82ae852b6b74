//go:build explore

package sched

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// What a poll does through its Context, against the goroutine it races,
// alone (go test -tags explore -run 'TestExploreTask(WakeFromPoll|
// SleepInPoll|GoRecords|TakenTwice)' ./impl/sched; the weak layer runs
// them too). On a bare runtime (newBareRuntime): the scenario's main
// goroutine is worker 0 and runs tasks with the real execute, whose polls
// call the real Context methods; the whole-runtime scenarios
// (runtime/two-wakes, runtime/sleep-*, runtime/go-recycling-*) reach the
// same code but take minutes in the weak-memory mode.

// runQueued is worker 0's loop without its idle protocol: it runs what
// its slot, ring and the global queue hold until done reports true, then
// joins other; then nothing may be queued. Nothing queued and other not
// joined yet: it joins other (whatever other queued before it ended is
// run next; the join orders it). Nothing queued once other ended, with
// done still false: a wake was lost, and it fails naming what.
func runQueued(w *worker, done func() bool, other *explore.Thread, what string) {
	joined := false
	for !done() {
		t := w.popLocal()
		if t == nil {
			t = w.pollGlobal()
		}
		if t != nil {
			w.execute(t)
			continue
		}
		if joined {
			explore.Failf("%s: nothing queued, nothing left to wake it", what)
		}
		other.Join()
		joined = true
	}
	if !joined {
		other.Join()
	}
	if t := w.popLocal(); t != nil || w.rt.global.Len() != 0 {
		explore.Failf("a task still queued after the one awaited finished")
	}
}

// peekMsg is a relaxed read of the message a waker sent before its wake:
// in the weak-memory mode a load whose value the model chooses (what the
// state machine's orderings make visible), under sequential consistency a
// peek, which is no scheduling point.
func peekMsg(m *atomic.Int32) int32 {
	if sync.WeakMemory() {
		return m.LoadRelaxed()
	}
	return m.Peek()
}

// A poll of task A wakes task B through its Context (Context.Wake: B goes
// to the worker's LIFO slot) while a goroutine sends B a message and
// wakes it from outside (Waker.Wake: the global queue). B finishes once it
// has seen the message, and returns Pending (waiting for the wake) until
// then. Whichever wake comes first, the other is absorbed or makes B run
// once more, and B must see the message by its last poll: a wake absorbed
// while B was scheduled still publishes what its waker wrote before it.
// B is never in two queues (a poll of it while it runs would fail
// transitionToRunning).
func TestExploreTaskWakeFromPoll(t *testing.T) {
	explore.Check(t, "task/wake-from-poll", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: -1})
		w := rt.workers[0]
		var msg atomic.Int32
		bPolls := 0
		b := rt.newTask(TaskFunc(func(*Context) Poll {
			bPolls++
			if peekMsg(&msg) == 1 {
				return Ready
			}
			return Pending
		}))
		b.t.state.StoreRelaxed(stateIdle) // waiting for a wake
		bw := Waker{t: &b.t}
		a := rt.newTask(TaskFunc(func(cx *Context) Poll {
			cx.Wake(bw)
			return Ready
		}))
		waker := explore.Go("waker", func() {
			msg.AddRelaxed(1)
			bw.Wake()
		})
		w.execute(&a.t)
		runQueued(w, func() bool { return b.t.state.Peek() == stateDone }, waker, "task B has not seen the message")
		if bPolls > 3 {
			explore.Failf("task B polled %d times for two wakes", bPolls)
		}
	})
}

// A poll that sleeps (Context.Sleep: 1 ms, then for ever, which takes the
// timer away, then 1 ms again) and returns Pending, while the monitor
// (its help off) sleeps until the earliest deadline and fires the timers:
// the timer may fire while the poll still runs (the worker then queues
// the task again) or after it (the monitor queues it). Either way the
// task runs once more, exactly once, and finishes; the stale entry left
// by the timer taken away wakes nothing; a finished task keeps no timer.
func TestExploreTaskSleepInPoll(t *testing.T) {
	explore.Check(t, "task/sleep-in-poll", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 1, LongPoll: -1})
		w := rt.workers[0]
		polls := 0
		a := rt.newTask(TaskFunc(func(cx *Context) Poll {
			if polls++; polls > 1 {
				return Ready
			}
			for _, d := range []time.Duration{time.Millisecond, math.MaxInt64, time.Millisecond} {
				if err := cx.Sleep(d); err != nil {
					explore.Failf("Sleep(%v) = %v", d, err)
				}
			}
			return Pending
		}))
		mon := explore.Go("monitor", func() {
			for len(rt.mon.expired) == 0 { // what the last fireTimers took
				rt.mon.sleep(rt.now(), false)
				rt.mon.fireTimers(rt.now())
			}
		})
		w.execute(&a.t)
		runQueued(w, func() bool { return a.t.state.Peek() == stateDone }, mon, "the sleeping task's timer")
		if polls != 2 {
			explore.Failf("the task was polled %d times, want 2 (its first poll and one after its timer)", polls)
		}
		if n := rt.timers.len(); n != 0 {
			explore.Failf("%d timers left after the task finished", n)
		}
	})
}

// The records of Go tasks (recycle.go) move between workers through the
// shared spare stack: worker 1 runs the fourth of four Go tasks (it ran
// the first three before), so that its spare list reaches 2*spareBatch
// and it gives a batch to the stack (spareRecords.give), while a poll on
// worker 0, whose spare list is empty, calls Context.Go (goLocal,
// newDetached: the stack's size hint, and a batch taken from it if the
// hint says there is one, spareRecords.take; or a new record). Then worker
// 0 runs the Go task. Every func runs once; every record of the four
// ends in exactly one spare list or the stack, in state scheduled with no
// func; none is in two; the hint equals the stack's size.
func TestExploreTaskGoRecords(t *testing.T) {
	explore.Check(t, "task/go-records", explore.Options{Preemptions: 3, MaxSchedules: 200_000}, func() {
		rt := newBareRuntime(Config{Workers: 2, LongPoll: -1})
		w0, w1 := rt.workers[0], rt.workers[1]
		var ran [5]int
		var recs []*task
		for i := range 4 {
			recs = append(recs, rt.newGoRecord(func() { ran[i]++ }))
		}
		for _, r := range recs[:3] {
			w1.execute(r) // before the race: recycled into worker 1's list
		}
		other := explore.Go("worker 1", func() { w1.execute(recs[3]) })
		a := rt.newTask(TaskFunc(func(cx *Context) Poll {
			if err := cx.Go(func() { ran[4]++ }); err != nil {
				explore.Failf("Context.Go: %v", err)
			}
			return Ready
		}))
		w0.execute(&a.t)
		other.Join()
		g := w0.ring.Pop()
		if g == nil {
			explore.Failf("the Go task is not in worker 0's ring")
		}
		w0.execute(g)
		if ran != [5]int{1, 1, 1, 1, 1} {
			explore.Failf("runs of the five funcs: %v, want one each", ran)
		}
		where := map[*task]string{}
		for _, l := range []struct {
			name string
			ts   []*task
		}{{"worker 0's spare list", w0.spare}, {"worker 1's spare list", w1.spare}, {"the shared stack", rt.spare.stack}} {
			for _, r := range l.ts {
				if prev, ok := where[r]; ok {
					explore.Failf("a record listed twice: in %s and in %s", prev, l.name)
				}
				where[r] = l.name
				if r.state.Peek() != stateScheduled || r.poll != nil || !r.detached {
					explore.Failf("a record in %s: state %s, func kept %v, detached %v", l.name, stateNames[r.state.Peek()], r.poll != nil, r.detached)
				}
			}
		}
		for i, r := range recs {
			if _, ok := where[r]; !ok {
				explore.Failf("record %d of worker 1's four is in no spare list (%d records listed)", i, len(where))
			}
		}
		if n, hint := len(rt.spare.stack), rt.spare.size.Peek(); int(hint) != n {
			explore.Failf("the shared stack holds %d records, its size hint says %d", n, hint)
		}
	})
}

// A task record taken by two workers at once (as if it were in two
// queues): transitionToRunning lets exactly one poll it, and the other
// stops with the internal error, which names the state it found
// (running: the other's transition, which the failed compare-and-swap and
// the load after it read, by coherence).
func TestExploreTaskTakenTwice(t *testing.T) {
	explore.Check(t, "task/taken-twice", explore.Options{Preemptions: 3}, func() {
		tk := &task{} // born scheduled
		var got [2]any
		take := func(i int) func() {
			return func() {
				defer func() { got[i] = recover() }()
				tk.transitionToRunning()
			}
		}
		a, b := explore.Go("worker 0", take(0)), explore.Go("worker 1", take(1))
		a.Join()
		b.Join()
		if (got[0] == nil) == (got[1] == nil) {
			explore.Failf("both or neither of the two takers stopped: %v, %v", got[0], got[1])
		}
		msg, _ := got[0].(string)
		if got[0] == nil {
			msg, _ = got[1].(string)
		}
		if want := "sched: internal error: task polled in state running"; !strings.Contains(msg, want) {
			explore.Failf("the taker that lost stopped with %q, want %q", msg, want)
		}
		if s := tk.state.Peek(); s != stateRunning {
			explore.Failf("after the two takers: state %s, want running", stateNames[s])
		}
	})
}
