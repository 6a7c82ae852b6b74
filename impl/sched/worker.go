package sched

import (
	"runtime/debug"

	"github.com/wsched/wsched/impl/internal/atomic"
	"github.com/wsched/wsched/impl/internal/sync"

	"github.com/wsched/wsched/impl/fastrand"
	"github.com/wsched/wsched/impl/park"
	"github.com/wsched/wsched/impl/queue"
)

// Worker states, for metrics only (a snapshot).
const (
	workerRunning uint32 = iota
	workerSearching
	workerParked
	workerExited
)

var workerStateNames = [...]string{"running", "searching", "parked", "exited"}

// worker is one worker goroutine and everything only it touches. Fields
// other goroutines read (ring, parker, the counters, the LIFO slot for
// metrics) are safe for that; the rest is owner-only.
type worker struct {
	rt     *Runtime
	index  int
	ring   *queue.Ring[task]
	parker park.Parker
	// lifo holds the task this worker's own polls woke last.
	// Owner only; Metrics sees lifoFull, published once per tick.
	lifo     *task
	lifoFull atomic.StatBool

	// Owner-only state.
	cx        Context
	rand      fastrand.Rand
	searching bool // holds a searching credit in the idle state
	// sinceGlobal counts polls since the global queue last had its turn
	// ahead of the local queues: the fairness clock. It counts down to the
	// interval rather than testing pollCount%interval, because the interval
	// is re-tuned every tick and a modulo test can then skip whole ticks.
	sinceGlobal uint32
	lifoPolls   int    // LIFO polls in this tick
	interval    uint32 // current global-queue interval, in polls
	avgPoll     float64
	woke        bool // parked and woke since the last tick: count an empty wake
	buf         [globalBufferSize]*task
	bufHead     int
	bufLen      int
	scratch     [globalBatchMax]*task
	expired     []*task
	deferred    []*task      // tasks that yielded in this tick, in order; see deferYield
	spare       []*task      // recycled records of Go tasks, see recycle.go
	slab        []JoinHandle // the rest of this worker's handle slab, see slab.go

	// warmSink keeps warmRecords' result (owner-only, never read).
	warmSink uint32

	state atomic.StatUint32 // metrics only
	m     workerCounters
	pc    pollCounts // owner-only; published into m by publishCounts
	// pub and pubLIFOFull are what publishCounts stored last (owner-only).
	pub         pollCounts
	pubLIFOFull bool
}

func newWorker(rt *Runtime, i int, p park.Parker) *worker {
	w := &worker{
		rt:      rt,
		index:   i,
		ring:    queue.NewRing[task](),
		parker:  p,
		rand:    fastrand.New(i),
		avgPoll: float64(initialAvgPoll),
	}
	w.deferred = make([]*task, 0, budgetPerTick)
	w.spare = make([]*task, 0, 2*spareBatch) // never grows: recycle gives a batch away at 2*spareBatch
	w.cx.w = w
	w.setInterval(uint32(int64(targetGlobalLatency) / int64(initialAvgPoll)))
	return w
}

// run is the worker goroutine: ticks until shutdown.
func (w *worker) run() {
	// Not locked to an OS thread, whatever the parker: a futex park
	// works from any thread, and a locked worker pays a thread handoff
	// for every Gosched (a task's, e.g.) and for every wake that finds
	// its P taken (see park.Futex).
	// Observes shutdown; acquire.
	for !w.rt.closed.Load() {
		w.tick()
	}
	w.exit()
}

// tick is one round of the worker loop:
//
//  1. worker 0 moves expired timers' tasks into its ring;
//  2. up to budgetPerTick polls, each task from findWork;
//  3. maintenance: count a budget yield, re-tune the global-queue
//     interval, reset the LIFO counter;
//  4. if this tick ran nothing, park.
func (w *worker) tick() {
	rt := w.rt
	if w.index == 0 {
		w.pollTimers()
	}
	start := sync.Nanotime()
	n := 0
	for n < budgetPerTick {
		t := w.findWork()
		if t == nil {
			break
		}
		w.execute(t)
		n++
		// Observes shutdown between polls: polls already running
		// finish, queued tasks are left for the drain (exit publishes
		// the counts).
		if rt.closed.Load() {
			return
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
	// Yielders of this tick go to the ring before anything else can look
	// at it (the next tick, thieves, the park-time re-check). A non-empty
	// list means n > 0, so this worker does not park now.
	w.flushDeferred()
	w.updateInterval(start, n)
	w.lifoPolls = 0
	if n == 0 {
		w.park()
	}
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
	if w.searching {
		// Rule 2: a searcher that found work gives its credit back;
		// if it was the last one, wake another worker to go on
		// searching for work published while it searched.
		w.searching = false
		w.setState(workerRunning)
		if w.rt.idle.TransitionFromSearching() {
			w.rt.notify()
		}
	}
	w.sinceGlobal++
	w.pc.polls++
	if t.detached {
		w.runDetached(t)
		return
	}
	t.transitionToRunning()
	cx := &w.cx
	cx.t = t
	cx.yielded = false
	ready, err := poll(t.poll, cx)
	cx.t = nil
	if ready {
		w.pc.completed++
		if err != nil {
			w.rt.panicked.Add(1) // counter; relaxed
		}
		t.finish(err)
		return
	}
	if t.transitionAfterPending(cx.yielded) {
		if cx.yielded {
			// Yield: behind everything else this worker has.
			w.deferYield(t)
			return
		}
		// Woken during its own poll: back of the ring.
		w.pushRing(t)
		w.rt.notifyLocal()
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
	w.recycle(t)
	if _, p := poll(f, nil); p != nil { // a Func ignores its Context
		w.rt.panicked.Add(1) // counter; relaxed
	}
	w.pc.completed++
}

// deferYield parks a task that yielded in the worker's deferred list. The
// list goes to the back of the ring when the worker runs out of other work
// (findWork) and at the end of every tick, so a yielding task runs again
// only after the ring, the prefetch buffer and the global queue had their
// turn: a task that yields asks to let the others go first, and the global
// queue is among the others (a ring-only requeue would let two busy
// yielders on a worker keep global tasks waiting for a whole fairness
// interval each). Tokio defers yield_now the same way; Go's Gosched puts
// the goroutine on the global run queue. At most one task per poll, so the
// list never holds more than budgetPerTick tasks.
func (w *worker) deferYield(t *task) {
	w.deferred = append(w.deferred, t)
}

// flushDeferred moves the deferred yielders to the back of the ring, where
// thieves can see them, and reports whether there were any.
func (w *worker) flushDeferred() bool {
	if len(w.deferred) == 0 {
		return false
	}
	for i, t := range w.deferred {
		w.pushRing(t)
		w.deferred[i] = nil
	}
	w.deferred = w.deferred[:0]
	w.rt.notifyLocal()
	return true
}

// poll runs tk.Poll, turning a panic into a *PanicError: the task is then
// done and the worker goes on. It runs every poll, a Go func's too.
//
// recover is called only when the poll did not return: a call to recover
// is a call into Go's runtime, and most polls do not panic.
func poll(tk Task, cx *Context) (ready bool, p *PanicError) {
	returned := false
	defer func() {
		if returned {
			return
		}
		if r := recover(); r != nil {
			ready, p = true, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	ready = tk.Poll(cx) == Ready
	returned = true
	return ready, nil
}

// pushRing puts t at the back of the ring; a full ring moves half of it to
// the global queue. The caller notifies.
func (w *worker) pushRing(t *task) {
	if w.ring.Push(t, w.rt.global) > 0 {
		w.m.overflows.Add(1) // counter; relaxed
	}
}

// pushLIFO puts a task this worker's poll woke into the LIFO slot. The
// previous occupant moves to the back of the ring and, being stealable now,
// is announced. A push into an empty slot does not notify:
// only this worker can take that task, and it will, right after the poll
// (or, past the per-tick cap, it moves the task to the ring and notifies).
func (w *worker) pushLIFO(t *task) {
	prev := w.lifo
	w.lifo = t
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
	if w.rt.closed.Load() {
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
	if w.rt.closed.Load() {
		return ErrShutdown
	}
	w.pushLocal(w.newDetached(f))
	return nil
}

// pushLocal counts a task spawned from inside a poll, puts it at the back
// of the ring and announces it.
func (w *worker) pushLocal(t *task) {
	w.pc.spawned++
	w.pushRing(t)
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
	if full := w.lifo != nil; full != w.pubLIFOFull {
		w.pubLIFOFull = full
		w.lifoFull.Store(full)
	}
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

func (w *worker) setState(s uint32) {
	// Metrics only; relaxed.
	w.state.Store(s)
}

// exit leaves the idle state clean, cancels whatever is in this worker's
// own queues, and tells the runtime.
func (w *worker) exit() {
	rt := w.rt
	if w.searching {
		w.searching = false
		rt.idle.TransitionFromSearching()
	}
	if t := w.lifo; t != nil {
		w.lifo = nil
		rt.cancelQueued(t)
	}
	for ; w.bufHead < w.bufLen; w.bufHead++ {
		rt.cancelQueued(w.buf[w.bufHead])
		w.buf[w.bufHead] = nil
	}
	for i, t := range w.deferred {
		rt.cancelQueued(t)
		w.deferred[i] = nil
	}
	w.deferred = w.deferred[:0]
	for t := w.ring.Pop(); t != nil; t = w.ring.Pop() {
		rt.cancelQueued(t)
	}
	// Neither is used again; a slab kept here would keep the records
	// handed out of it reachable for as long as the Runtime is.
	w.slab, w.spare = nil, nil
	w.publishCounts()
	w.setState(workerExited)
	rt.workerExited()
}
