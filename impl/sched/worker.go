package sched

import (
	"runtime/debug"
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/fastrand"
	"github.com/wsched/wsched/impl/internal/raceedge"
	"github.com/wsched/wsched/impl/park"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/internal/goid"
	"github.com/wsched/wsched/internal/tlatrace"
)

// Worker states, for metrics (a snapshot) and for Shutdown, which waits
// for workers that are not in a tick whatever its context says: a worker
// seen starting or parked after closed was stored runs no task again
// (see setState).
const (
	workerRunning uint32 = iota
	workerSearching
	workerParked
	workerExited
	workerStarting // made, its goroutine not yet in its loop
)

var workerStateNames = [...]string{"running", "searching", "parked", "exited", "starting"}

// worker is one worker goroutine and everything only it touches. Fields
// other goroutines read (ring, lifo, parker, ticks, stuck, the counters)
// are safe for that; the rest is owner-only.
//
// Nothing a worker has queued is private to it: its ring and, once the
// monitor flagged it as stuck, its LIFO slot can be taken by others, so a
// poll that does not return holds up only its own task
// (docs/scheduler.md, "Stranding").
type worker struct {
	rt     *Runtime
	index  int // 0..Workers-1, then Workers+k for extra worker k
	extra  bool
	ring   *taskRing
	parker park.Parker // nil for an extra worker (it never parks)
	// lifo holds the task this worker's own polls woke last. The owner
	// puts and takes; thieves steal from it only while stuck is set.
	lifo taskSlot
	// rechecked is set when a park-time re-check sent this worker back to
	// searching, and cleared when it polls: a second re-check with no
	// poll between yields first (recheckFound). Owner only.
	rechecked bool
	// pollUnwound is set by poll when a poll unwound with nothing to
	// recover (runtime.Goexit, or panic(nil) under GODEBUG=panicnil=1),
	// and cleared when the poll returned after all. Owner only: see
	// afterGoexit.
	pollUnwound bool
	// ticks counts the ticks this worker began, and every 16th poll
	// within a tick: the monitor's measure of progress. A count that does
	// not move for Config.LongPoll is a stuck worker, whether or not work
	// waits behind it (the monitor helps only if some does): one poll, or
	// 16 in a row, took that long. The monitor decides by it, with
	// relaxed operations. A Stat type, not a scheduling point of the
	// explorer: no correctness argument rests on when the monitor sees a
	// count move (a late or early look only shifts a flag by one look),
	// and a point at every tick multiplied the schedules of every runtime
	// scenario; the weak-memory mode still runs each operation as
	// relaxed.
	ticks atomic.StatUint64
	// stuck is set by the monitor while this worker's tick has lasted
	// longer than LongPoll, and cleared when it has moved on: thieves
	// may then take its LIFO slot (healthy workers keep theirs).
	stuck atomic.Bool
	// active is set while an extra worker's goroutine runs (regular
	// workers: always); the monitor reuses an inactive extra slot.
	active atomic.Bool
	// stuckSince is when the monitor first saw the current tick
	// (diagnostics for Shutdown's error; the monitor's own copy decides).
	stuckSince atomic.StatInt64
	// watched is the monitor's record of this worker (monitor only, as
	// Go's sysmontick is on its P).
	watched watchRecord
	// goid is the worker goroutine's number: Shutdown tells a call from
	// a task by it.
	goid atomic.StatInt64
	// pollGoroutine is what a build with the race detector tells a
	// Context used from another goroutine by (pollcheck.go; empty
	// without it).
	pollGoroutine goid.Owner

	// Owner-only state.
	// polling is the task being polled (nil between polls and for a Go
	// func): what a Goexit in the poll finishes (afterGoexit).
	polling *task
	// pollYielded is set by Context.Yield during the current poll.
	pollYielded bool
	rand        fastrand.Rand
	searching   bool // holds a searching credit in the idle state: changed only by transitions.go
	// sinceGlobal counts polls since the global queue last had its turn
	// ahead of the local queues: the fairness clock. It counts down to the
	// interval rather than testing pollCount%interval, because the interval
	// is re-tuned every tick and a modulo test can then skip whole ticks.
	sinceGlobal uint32
	lifoPolls   int    // LIFO polls in this tick
	interval    uint32 // current global-queue interval, in polls
	avgPoll     float64
	woke        bool // parked and woke since the last tick: count an empty wake
	yielded     bool // a task yielded in this tick: announce the ring at its end
	// scratch is a batch in hand: taken from the global queue (findWork),
	// or out of this worker's queues by a drain (handOff, exit).
	scratch [globalBatchMax]*task
	expired []*task
	spare   []*task      // recycled records of Go tasks, see recycle.go
	slab    []JoinHandle // the rest of this worker's handle slab, see slab.go

	// warmSink keeps warmRecords' result (owner-only, never read).
	warmSink uint32

	// state is what the worker does (the constants above). Shutdown
	// decides by it whether a worker may still poll (setState and
	// noneInTick: a seq_cst Dekker pair, ordered operations); Metrics'
	// bare load is a snapshot. A Stat type: a store at every transition
	// as a scheduling point would multiply every runtime scenario's
	// schedules, and the explorer's weak-memory mode checks the pair
	// without one.
	state atomic.StatUint32
	m     workerCounters
	pc    pollCounts // owner-only; published into m by publishCounts
	// pub is what publishCounts stored last (owner-only).
	pub pollCounts

	// inPoll is set while the worker runs a task's Poll or a Go func:
	// Shutdown's error names these workers (stillRunning), and no other.
	// Set by poll, past every shutdown check the worker makes before the
	// poll; a worker in a tick but not in a poll (at the top of its loop,
	// searching) sees the shutdown without running anything more.
	// (Last: the fields before it keep the offsets they had.)
	inPoll atomic.StatBool
}

func newWorker(rt *Runtime, i int, p park.Parker) *worker {
	w := &worker{
		rt:     rt,
		index:  i,
		ring:   (*taskRing)(queue.NewRing[task]()),
		parker: p,
	}
	w.reset()
	return w
}

// reset gives the owner-only state its starting values: for a new worker,
// and for an extra worker slot that a new extra worker reuses (extra.go),
// which then starts as a new one would. What it keeps: the ring and the
// LIFO slot (empty: the previous goroutine's exit emptied them, and only
// an owner puts into them), the counters (Metrics adds them up per slot),
// the tick count and the monitor's record of it, and the stuck flag (the
// monitor's, cleared while the slot rests). The searching flag is false
// here: only transitions.go changes it, and exit gave the credit back.
func (w *worker) reset() {
	w.rechecked, w.pollUnwound, w.pollYielded = false, false, false
	w.polling = nil
	w.rand = fastrand.New(w.index)
	w.sinceGlobal, w.lifoPolls = 0, 0
	w.avgPoll = float64(initialAvgPoll)
	w.setInterval(uint32(int64(targetGlobalLatency) / int64(initialAvgPoll)))
	w.woke, w.yielded = false, false
	w.spare = make([]*task, 0, 2*spareBatch) // never grows: recycle gives a batch away at 2*spareBatch
	w.slab = nil
	w.setState(workerStarting) // before the goroutine starts; published by its start
	w.checkSearching("reset")
}

// run is the worker goroutine: ticks until shutdown, parking after a tick
// that found nothing.
func (w *worker) run() {
	looping := true
	defer func() {
		if looping { // only a Goexit leaves the loop without passing below
			w.afterGoexit()
		}
	}()
	w.recordGoroutine()
	if tlatrace.On { // TLA+ trace (IdleProtocol): this goroutine is worker w.index
		tlatrace.Bind(w.index)
	}
	w.setState(workerRunning) // before the first load of closed (see setState)
	// Not locked to an OS thread, whatever the parker: a futex park
	// works from any thread, and a locked worker pays a thread handoff
	// for every Gosched (a task's, e.g.) and for every wake that finds
	// its P taken (see park.Futex).

	// Observes shutdown. seq_cst: the load half of the worker's side of
	// the Dekker pair with Shutdown (setState); acquire let a worker that
	// Shutdown saw parked tick on after the shutdown (the weak layer's
	// shutdown/pair-close-state).
	for !w.rt.closed.LoadSeqCst() {
		if w.tick() == 0 {
			w.park()
		} else {
			w.rechecked = false // it polled: a re-check that follows is not a spin
		}
	}
	looping = false
	w.exit()
}

// tick is one round of the worker loop:
//
//  1. count the tick (the monitor watches the count), move expired
//     timers' tasks into the ring;
//  2. up to budgetPerTick polls, each task from findWork;
//  3. maintenance: count a budget yield, announce the yielders, re-tune
//     the global-queue interval, reset the LIFO counter.
//
// It returns how many tasks it polled; the caller parks (or retires)
// after a tick that polled none.
func (w *worker) tick() int {
	rt := w.rt
	// Publishes "a new tick began" to the monitor; an add is one locked
	// instruction per tick (up to 128 polls). Relaxed: the monitor only
	// compares counts, and acts through the idle protocol.
	w.ticks.AddRelaxed(1)
	start := sync.Nanotime()
	w.pollTimers(start - rt.start) // the tick's clock reading, reused (a clock read costs as much as a short poll)
	n := 0
	for n < budgetPerTick {
		t := w.findWork()
		if t == nil {
			break
		}
		w.execute(t)
		n++
		if n&(progressPolls-1) == 0 {
			w.ticks.AddRelaxed(1) // publishes progress within a long tick; relaxed, as at its start
		}
		// Observes shutdown between polls: polls already running
		// finish, queued tasks are left for the drain (exit publishes
		// the counts).
		if rt.closed.LoadAcquire() {
			return n
		}
	}
	if n > 0 {
		w.publishCounts()
	}
	if n == budgetPerTick {
		w.m.budgetYields.Add(1) // counter; relaxed
		w.yieldP()
	}
	if w.woke {
		w.woke = false
		if n == 0 {
			w.m.emptyWakes.Add(1) // counter; relaxed
		}
	}
	if w.yielded {
		// Tasks that yielded in this tick went to the back of the ring
		// without waking anybody; one announcement per tick, as when
		// they were flushed there together.
		w.yielded = false
		w.rt.notifyLocal()
	}
	w.updateInterval(start, n)
	w.lifoPolls = 0
	return n
}

// yieldP lets other goroutines run on this worker's P (Go's processor)
// after a tick that used its whole budget. Workers are goroutines: one that
// never blocks keeps its P until Go's scheduler preempts it, about every
// 10 ms, and a goroutine readied meanwhile on that P (a Wait whose task just
// finished, another worker unparked here) waits that long. Yielding once per
// full tick bounds that wait by one tick's polls, for the cost of one
// runtime.Gosched per 128 polls.
//
// A futex worker does not yield. It used to be locked to its OS thread,
// where a Gosched costs a thread switch; it no longer is (see run), but
// yielding here measured no better for it (BenchmarkSpawnManyRemoteBusy and
// BenchmarkYieldMany slightly worse), so the futex path is left as it was.
func (w *worker) yieldP() {
	if w.rt.cfg.Parker == ParkerFutex {
		return
	}
	sync.Gosched()
}

// execute polls one task taken from a queue.
func (w *worker) execute(t *task) {
	if w.searching && w.foundWork() {
		// Rule 2: the last searcher to find work wakes another worker
		// to go on searching for work published while it searched.
		w.rt.notify()
	}
	w.sinceGlobal++
	w.pc.polls++
	if t.detached {
		w.runDetached(t)
		return
	}
	// The task's Context finds this worker by its index; written before
	// the transition to running, which publishes it to a Context method
	// called on another goroutine (see Context.poller).
	t.worker = uint16(w.index)
	t.transitionToRunning()
	// Race build: the spawn, the wakes and the task's previous poll
	// happen before this poll, and this poll before the next one and
	// before whoever sees the task finished (raceedge; a Goexit's end is
	// afterGoexit's). Merge: a wake during the poll released already.
	raceedge.Acquire(unsafe.Pointer(t))
	w.polling = t
	w.pollYielded = false
	ready, err := poll(t.poll, w, t.context())
	raceedge.ReleaseMerge(unsafe.Pointer(t))
	w.polling = nil
	if ready {
		w.pc.completed++
		if err != nil {
			w.pollUnwound = false // a panic(nil) that recover stopped: the goroutine goes on
			w.rt.panicked.Add(1)  // counter; relaxed
		}
		if tlatrace.On { // TLA+ trace (Stranding): EndPoll, ready
			tlatrace.Strand("SEnd", w.index, t, -1, 0, true)
		}
		t.finish(err)
		return
	}
	if tlatrace.On { // TLA+ trace (Stranding): the pending poll's end is ordered with a waker's push
		tlatrace.Lock()
	}
	if t.transitionAfterPending(w.pollYielded) {
		if tlatrace.On {
			tlatrace.Unlock()
		}
		if w.pollYielded {
			if tlatrace.On { // TLA+ trace (Stranding): no step has a yield
				tlatrace.Strand("SEnd", w.index, t, -1, 2, false)
			}
			// Yield: behind everything else this worker has.
			w.pushYield(t)
			return
		}
		// Woken during its own poll: back of the ring.
		w.pushRing(t)
		if tlatrace.On { // TLA+ trace (Stranding): EndPoll, pending, to the ring
			tlatrace.Strand("SEnd", w.index, t, -1, 1, false)
		}
		w.rt.notifyLocal()
	} else if tlatrace.On { // TLA+ trace (Stranding): EndPoll, pending, waiting for a wake
		tlatrace.StrandDone("SEnd", w.index, t, -1, 0, false)
	}
}

// runDetached runs a Go task: its func, with no Context, and with no
// step of the task state machine. The record stays scheduled from its
// spawn to its next life (recycle.go): nothing can wake the task, no
// handle waits for it, and it is in no queue once a worker took it, so
// there is no transition for anybody to observe. The func is taken out
// and the record recycled before the run, so that a func spawning Go
// tasks reuses the record it came in.
func (w *worker) runDetached(t *task) {
	f, ok := t.poll.(Func)
	if !ok {
		// Recycle clears poll, so the record was taken twice: it was in
		// two queues, or in a queue and a spare list. Stop rather than
		// run a func twice or lose one (see transitionToRunning).
		panic("sched: internal error: Go task record taken twice")
	}
	// Race build: the spawn happens before the run (raceedge); before the
	// record is recycled, when another spawn may release it afresh.
	raceedge.Acquire(unsafe.Pointer(t))
	w.recycle(t)
	if _, p := poll(f, w, nil); p != nil { // a Func ignores its Context; polling stays nil: no handle to finish
		w.pollUnwound = false // see execute
		w.rt.panicked.Add(1)  // counter; relaxed
	}
	w.pc.completed++
}

// pushYield puts a task that yielded at the back of the ring, and gives
// the global queue its turn before the next local task: a task that yields
// asks to let the others go first, the global queue is among the others,
// and a ring-only requeue would let two busy yielders on a worker keep
// global tasks waiting for a whole fairness interval each. So the yielder
// runs again after everything queued before it, the global queue
// included. Go's Gosched puts the goroutine on the global run queue;
// Tokio defers yield_now to a list of its worker's.
//
// Not a private list, as the seeds and Tokio keep: a yielder there waits
// for its worker's current poll, however long it runs; in the ring it can
// be stolen. The announcement to idle workers waits for the end of the
// tick (one per tick, not one per yield).
func (w *worker) pushYield(t *task) {
	w.pushRing(t)
	w.sinceGlobal = w.interval // the global queue's turn comes first
	w.yielded = true
}

// poll runs tk.Poll, turning a panic into a *PanicError: the task is then
// done and the worker goes on. It runs every poll, a Go func's too.
//
// recover is called only when the poll did not return: a call to recover
// is a call into Go's runtime, and most polls do not panic. When it finds
// nothing to recover, the poll unwound for one of two reasons: panic(nil)
// under GODEBUG=panicnil=1 (recover has just stopped it: the task panicked,
// with a nil value), or runtime.Goexit, which no recover stops: the worker
// goroutine is ending, and poll marks it so, for the worker loop's
// deferred survival (worker.afterGoexit). Both cost nothing on the path of
// a poll that returns.
func poll(tk Task, w *worker, cx *Context) (ready bool, p *PanicError) {
	returned := false
	w.inPoll.StoreRelaxed(true) // publishes "inside a poll" to Shutdown's error; relaxed: nothing else reads it
	defer func() {
		w.inPoll.StoreRelaxed(false) // also when the poll panics or unwinds; relaxed, as above
		if returned {
			return
		}
		r := recover()
		if r == nil {
			w.pollUnwound = true // cleared by execute if the poll returns after all
		}
		ready, p = true, &PanicError{Value: r, Stack: debug.Stack()}
	}()
	ready = tk.Poll(cx) == Ready
	returned = true
	return ready, nil
}

// afterGoexit is called by a worker goroutine's deferred call (run,
// runExtra) when the goroutine leaves its loop without reaching its end,
// and does something only when a poll called runtime.Goexit, which ends the
// goroutine whatever its deferred calls do: it finishes the task that was
// being polled with ErrGoexit (a Go func has no handle: it only counts as
// completed) and starts a new goroutine that goes on with the same worker,
// its queues, slot and parked state untouched (the worker was between
// transitions: inside a poll). Nothing queued is lost and nothing waits for
// the dead goroutine. A panic out of the scheduler's own code (an internal
// error) is not a Goexit and unwinds on: pollUnwound is set only by poll.
// A goroutine that reached the end of its loop must not call it: after
// exit, an extra worker's slot may already belong to a new goroutine.
func (w *worker) afterGoexit() {
	if !w.pollUnwound {
		return
	}
	w.pollUnwound = false
	t := w.polling
	w.polling = nil
	w.pc.completed++
	if t != nil {
		raceedge.ReleaseMerge(unsafe.Pointer(t)) // the poll's end, as in execute
		t.finish(goexitMark)
	}
	if w.extra {
		sync.Go("extra worker", w.index, w.runExtra)
	} else {
		sync.Go("worker", w.index, w.run)
	}
}

// pushRing puts t at the back of the ring; a full ring moves half of it to
// the global queue. The caller notifies.
func (w *worker) pushRing(t *task) {
	if w.ring.Push(t, w.rt.global) > 0 {
		w.m.overflows.Add(1) // counter; relaxed
	}
}

// pushLIFO puts a task this worker's poll woke into the LIFO slot. The
// previous occupant moves to the back of the ring and is announced. A push
// into an empty slot does not notify: this worker takes that task right
// after the poll (or, past the per-tick cap, moves it to the ring and
// notifies). Should the poll not return, the monitor flags the worker as
// stuck, and the task can be stolen then (docs/scheduler.md, "Stranding").
func (w *worker) pushLIFO(t *task) {
	if tlatrace.On { // TLA+ trace (Stranding): WakeP into the slot, under the trace lock (the monitor's look may see it at once)
		tlatrace.Lock()
	}
	prev := w.lifo.Put(t)
	if tlatrace.On { // a displaced task: no step has it
		tlatrace.StrandDone("SLifo", w.index, t, -1, 0, prev == nil)
	}
	if prev != nil {
		w.pushRing(prev)
		w.rt.notifyLocal()
	}
}

// spawnLocal spawns onto this worker's ring (from inside a poll), and
// announces it. Not into the LIFO slot, as Tokio does: the slot is
// invisible to thieves, so a task that spawns a child and then keeps its
// worker busy (a long poll, or one that waits for the child) would keep
// the child from running anywhere.
func (w *worker) spawnLocal(t Task) (*JoinHandle, error) {
	// Observes shutdown; acquire.
	if w.rt.closed.LoadAcquire() {
		return nil, ErrShutdown
	}
	h := w.newHandle()
	h.t.rt, h.t.poll = w.rt, t
	w.pushLocal(&h.t)
	return h, nil
}

// goLocal is spawnLocal for a Go func, in a recycled record if this
// worker has one.
func (w *worker) goLocal(f func()) error {
	// Observes shutdown; acquire.
	if w.rt.closed.LoadAcquire() {
		return ErrShutdown
	}
	w.pushLocal(w.newDetached(f))
	return nil
}

// pushLocal counts a task spawned from inside a poll, puts it at the back
// of the ring and announces it.
func (w *worker) pushLocal(t *task) {
	raceedge.Release(unsafe.Pointer(t)) // race build: the spawning poll before the child's first poll (as pushRemote)
	w.pc.spawned++
	w.pushRing(t)
	if tlatrace.On { // TLA+ trace (Stranding): WakeP, Shape "spawn": into the ring
		tlatrace.Strand("SRing", w.index, t, -1, 0, true)
	}
	w.rt.notifyLocal()
}

// updateInterval feeds the average poll time of this tick into the moving
// average and derives the global-queue interval from it.
func (w *worker) updateInterval(start int64, n int) {
	if n == 0 {
		return
	}
	sample := float64(sync.Nanotime()-start) / float64(n)
	w.avgPoll = ewmaAlpha*sample + (1-ewmaAlpha)*w.avgPoll
	if w.avgPoll < 1 {
		w.avgPoll = 1
	}
	iv := float64(targetGlobalLatency) / w.avgPoll
	w.setInterval(uint32(min(max(iv, minGlobalInterval), maxGlobalInterval)))
}

// publishCounts copies the owner's poll counts to the atomics Metrics
// reads. Each store publishes a counter; relaxed would do.
//
// Only what changed since the last publish is stored: a Go atomic store is
// a locked exchange on amd64, and a worker whose ticks are one poll long
// (it parks in between) publishes once per poll.
func (w *worker) publishCounts() {
	pc, pub := &w.pc, &w.pub
	if pc.polls != pub.polls {
		w.m.polls.Store(pc.polls)
	}
	if pc.lifoPolls != pub.lifoPolls {
		w.m.lifoPolls.Store(pc.lifoPolls)
	}
	if pc.spawned != pub.spawned {
		w.m.spawned.Store(pc.spawned)
	}
	if pc.completed != pub.completed {
		w.m.completed.Store(pc.completed)
	}
	*pub = *pc
}

func (w *worker) setInterval(iv uint32) {
	w.interval = iv
	w.m.interval.Store(iv) // mirror for Metrics; relaxed
}

// A worker stores its state before it loads closed at the top of its loop
// (run, runExtra: each path back there stores running or searching
// first), and Shutdown stores closed before it loads the states: a Dekker
// pair, so a Shutdown that sees a worker starting or parked knows that the
// worker sees closed before its next tick. seq_cst for that; relaxed
// would do for the metrics.
func (w *worker) setState(s uint32) {
	// Publishes the worker's state. seq_cst: the store half of the
	// worker's side of the Dekker pair (see above); Metrics' bare load
	// is a snapshot.
	w.state.StoreSeqCst(s)
}

// exit leaves the idle state clean, cancels whatever is in this worker's
// own queues, and tells the runtime. (What waits in the queues of a worker
// stuck in a poll at shutdown, the monitor cancels: monitor.shutdown.) An
// extra worker that retires leaves through here too, with its queues
// empty.
func (w *worker) exit() {
	rt := w.rt
	if w.searching {
		w.foundWork() // no notify: the runtime is shutting down, or this extra worker retires with nothing queued
	}
	w.drain(nil, w.scratch[:], rt.cancelAll)
	// Neither is used again by this goroutine; a slab kept here would
	// keep the records handed out of it reachable for as long as the
	// Runtime is. (A later extra worker in this slot makes new ones.)
	w.slab, w.spare = nil, nil
	w.publishCounts()
	w.setState(workerExited)
	if w.extra {
		rt.extras.retired(w)
	}
	rt.exited()
}
