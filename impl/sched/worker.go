package sched

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

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
	// lifo holds the task this worker's own polls woke last. Only the
	// owner stores into it; atomic only so Metrics can look.
	lifo atomic.Pointer[task]

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

	state atomic.Uint32
	m     workerCounters
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
	w.cx.w = w
	w.setInterval(uint32(int64(targetGlobalLatency) / int64(initialAvgPoll)))
	return w
}

// run is the worker goroutine: ticks until shutdown.
func (w *worker) run() {
	if w.rt.cfg.Parker == ParkerFutex {
		// A futex park blocks the OS thread; keep this goroutine on
		// its own thread so nothing else is stuck behind it.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
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
	start := time.Now()
	n := 0
	for n < budgetPerTick {
		t := w.findWork()
		if t == nil {
			break
		}
		w.execute(t)
		n++
		// Observes shutdown between polls: polls already running
		// finish, queued tasks are left for the drain.
		if rt.closed.Load() {
			return
		}
	}
	if n == budgetPerTick {
		w.m.budgetYields.Add(1) // counter; relaxed
	}
	if w.woke {
		w.woke = false
		if n == 0 {
			w.m.emptyWakes.Add(1) // counter; relaxed
		}
	}
	w.updateInterval(start, n)
	w.lifoPolls = 0
	if n == 0 {
		w.park()
	}
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
	t.transitionToRunning()
	w.sinceGlobal++
	w.m.polls.Add(1) // counter; relaxed
	cx := &w.cx
	cx.t = t
	cx.yielded = false
	ready, err := w.poll(t, cx)
	cx.t = nil
	if ready {
		// Count before finish publishes the result, so a Metrics read
		// after Wait returned includes this task.
		w.m.completed.Add(1) // counter; relaxed
		t.finish(err)
		return
	}
	if t.transitionAfterPending(cx.yielded) {
		// Yield, or woken during its own poll: back of the ring.
		w.pushRing(t)
		w.rt.notifyLocal()
	}
}

// poll runs the task's Poll (or its func), turning a panic into a
// *PanicError: the task is then done and the worker goes on.
func (w *worker) poll(t *task, cx *Context) (ready bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			ready, err = true, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	if t.fn != nil {
		t.fn()
		return true, nil
	}
	return t.poll.Poll(cx) == Ready, nil
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
// is announced. A push into an empty slot does not notify: only this
// worker can take that task.
func (w *worker) pushLIFO(t *task) {
	// Owner-only slot: the atomics are for Metrics; relaxed would do.
	prev := w.lifo.Load()
	w.lifo.Store(t) // relaxed, as above
	if prev != nil {
		w.pushRing(prev)
		w.rt.notifyLocal()
	}
}

// spawnLocal spawns onto this worker's ring (from inside a poll).
func (w *worker) spawnLocal(t Task, f func()) (*JoinHandle, error) {
	// Observes shutdown; acquire.
	if w.rt.closed.Load() {
		return nil, ErrShutdown
	}
	h := w.rt.newTask(t, f)
	w.m.spawned.Add(1) // counter; relaxed
	w.pushRing(&h.t)
	w.rt.notifyLocal()
	return h, nil
}

// updateInterval feeds the average poll time of this tick into the moving
// average and derives the global-queue interval from it.
func (w *worker) updateInterval(start time.Time, n int) {
	if n == 0 {
		return
	}
	sample := float64(time.Since(start)) / float64(n)
	w.avgPoll = ewmaAlpha*sample + (1-ewmaAlpha)*w.avgPoll
	if w.avgPoll < 1 {
		w.avgPoll = 1
	}
	iv := float64(targetGlobalLatency) / w.avgPoll
	w.setInterval(uint32(min(max(iv, minGlobalInterval), maxGlobalInterval)))
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
	if t := w.lifo.Swap(nil); t != nil { // owner-only; relaxed
		rt.cancelQueued(t)
	}
	for ; w.bufHead < w.bufLen; w.bufHead++ {
		rt.cancelQueued(w.buf[w.bufHead])
		w.buf[w.bufHead] = nil
	}
	for t := w.ring.Pop(); t != nil; t = w.ring.Pop() {
		rt.cancelQueued(t)
	}
	w.setState(workerExited)
	rt.workerExited()
}
