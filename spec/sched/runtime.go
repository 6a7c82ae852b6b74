package sched

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/wsched/wsched/internal/goid"
)

// Runtime runs tasks on a fixed set of worker goroutines.
//
// All of its state sits behind one mutex. Workers wait on a condition
// variable tied to that mutex until the queue holds a task or Shutdown
// begins; every push signals one waiter, Shutdown wakes them all.
//
// A task may block inside its poll; it holds up its own worker, and here
// nothing else (there is one queue, and any waiting worker takes from it).
// When every worker is inside a poll that has lasted LongPoll and a task
// waits, a monitor goroutine starts an extra worker to run it, up to
// ExtraWorkers at once; an extra worker exits when it finds the queue
// empty. So runnable tasks keep running while polls block, as goroutines
// do.
type Runtime struct {
	cfg  Config
	mu   sync.Mutex
	work sync.Cond     // L is &mu; signalled when the queue gains a task or shutdown begins
	stop chan struct{} // closed by Shutdown: the monitor exits

	// Everything below is guarded by mu.

	// queue holds exactly the tasks in state scheduled, oldest first.
	queue []*task
	// live holds every task that is neither done nor cancelled, so that
	// Shutdown can find the tasks waiting for a wake.
	live map[*task]struct{}
	// timers holds each task's Sleep timer that has not fired yet (a
	// task has one: a new Sleep replaces it), so that a finished task's
	// timer and Shutdown can stop it.
	timers   map[*task]*time.Timer
	born     time.Time // when New ran: the clock Sleep's deadlines are on
	shutdown bool
	running  int           // worker goroutines (and the monitor) that have not exited
	exited   chan struct{} // closed by the last of them to exit

	// workers holds the workers, then every extra worker ever started
	// (an extra worker's slot is not reused here).
	workers                                 []workerStats
	extras                                  int // extra workers running
	extraStarted                            uint64
	spawned, completed, cancelled, panicked uint64
}

// workerStats is what Metrics reports for one worker.
type workerStats struct {
	state     string // "running", "parked" (waiting on the condition variable) or "exited"
	polls     uint64
	extra     bool
	pollStart time.Time // when its current poll began; zero outside a poll
	goroutine int64     // the worker goroutine's number (Shutdown tells a call from a task by it)
}

// New validates cfg and starts cfg.Workers worker goroutines. An invalid
// config gives an error wrapping ErrInvalidConfig.
func New(cfg Config) (*Runtime, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	rt := &Runtime{
		cfg:     cfg,
		stop:    make(chan struct{}),
		live:    make(map[*task]struct{}),
		timers:  make(map[*task]*time.Timer),
		born:    time.Now(),
		running: cfg.Workers + 1, // and the monitor
		exited:  make(chan struct{}),
		workers: make([]workerStats, cfg.Workers),
	}
	rt.work.L = &rt.mu
	for i := range cfg.Workers {
		rt.workers[i].state = "running"
		go rt.worker(i)
	}
	go rt.monitor()
	return rt, nil
}

// monitor looks every LongPoll/2: if a task waits in the queue and every
// worker is inside a poll that has lasted LongPoll (none is waiting on
// the condition variable, which the push would have woken), it starts an
// extra worker, if fewer than ExtraWorkers run.
func (rt *Runtime) monitor() {
	long := rt.cfg.longPoll()
	period := max(long/2, time.Millisecond/2)
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-rt.stop:
			rt.mu.Lock()
			rt.exitLocked()
			rt.mu.Unlock()
			return
		case now := <-tick.C:
			rt.mu.Lock()
			if long > 0 && len(rt.queue) > 0 && rt.extras < rt.cfg.extraWorkers() && rt.allStuck(now, long) {
				id := len(rt.workers)
				rt.workers = append(rt.workers, workerStats{state: "running", extra: true})
				rt.extras++
				rt.extraStarted++
				rt.running++
				go rt.worker(id)
			}
			rt.mu.Unlock()
		}
	}
}

// allStuck reports whether every worker still running is inside a poll
// that began at least long ago; mu is held.
func (rt *Runtime) allStuck(now time.Time, long time.Duration) bool {
	for _, w := range rt.workers {
		switch {
		case w.state == "exited":
		case w.pollStart.IsZero() || now.Sub(w.pollStart) < long:
			return false
		}
	}
	return true
}

// exitLocked counts one worker or the monitor out; the last closes
// exited. mu is held.
func (rt *Runtime) exitLocked() {
	rt.running--
	if rt.running == 0 {
		close(rt.exited)
	}
}

// Spawn schedules t and returns a handle to wait for it. It returns
// ErrNilTask for a nil t and ErrShutdown once Shutdown has begun.
func (rt *Runtime) Spawn(t Task) (*JoinHandle, error) {
	if isNil(t) {
		return nil, ErrNilTask
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.shutdown {
		return nil, ErrShutdown
	}
	tk := &task{rt: rt, body: t, finished: make(chan struct{})}
	rt.live[tk] = struct{}{}
	rt.spawned++
	rt.schedule(tk)
	return &JoinHandle{tk}, nil
}

// Go spawns f as a task that runs to completion in a single poll, like a
// go statement: there is no handle. A panic in f is recovered and counted
// in Metrics.Panicked.
func (rt *Runtime) Go(f func()) error {
	if f == nil {
		return ErrNilTask
	}
	_, err := rt.Spawn(Func(f))
	return err
}

// schedule puts t at the tail of the queue and wakes one waiting worker.
// Called with mu held, for a task that is idle, notified or new.
func (rt *Runtime) schedule(t *task) {
	t.state = scheduled
	rt.queue = append(rt.queue, t)
	rt.work.Signal()
}

// wake is what every Waker.Wake, Context.Wake, Context.Yield and fired
// Sleep timer comes down to.
func (rt *Runtime) wake(t *task) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.wakeLocked(t)
}

// wakeLocked applies a wake to t's state; mu is held. Only an idle task
// needs queueing; a running one is marked to run again when its poll
// returns; in every other state the wake is absorbed.
func (rt *Runtime) wakeLocked(t *task) {
	switch t.state {
	case idle:
		rt.schedule(t)
	case running:
		t.state = notified
	}
}

// sleep sets t's timer to wake it after d > 0, replacing the timer an
// earlier sleep set. A d whose deadline overflows the runtime's clock (Go's
// "for ever", time.Duration(math.MaxInt64)) sets none.
func (rt *Runtime) sleep(t *task, d time.Duration) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.shutdown {
		return // t is running, so it is cancelled as its poll returns
	}
	rt.stopTimerLocked(t)
	if d > math.MaxInt64-time.Since(rt.born) {
		return
	}
	var tm *time.Timer
	// The callback takes mu, so it cannot read tm before the assignment
	// below (made with mu held) has happened.
	tm = time.AfterFunc(d, func() {
		rt.mu.Lock()
		defer rt.mu.Unlock()
		if rt.timers[t] != tm {
			return // replaced, or its task finished, after it fired
		}
		delete(rt.timers, t)
		rt.wakeLocked(t)
	})
	rt.timers[t] = tm
}

// stopTimerLocked stops t's timer if it has one; mu is held.
func (rt *Runtime) stopTimerLocked(t *task) {
	if tm := rt.timers[t]; tm != nil {
		tm.Stop()
		delete(rt.timers, t)
	}
}

// worker is the loop of worker goroutine id: take the oldest scheduled task,
// poll it without the lock, record the outcome, repeat until Shutdown (an
// extra worker: until the queue is empty).
func (rt *Runtime) worker(id int) {
	me, handle := goid.Current(), goid.Handle()
	rt.mu.Lock()
	rt.workers[id].goroutine = me
	rt.mu.Unlock()
	var cx *Context
	returned := false
	defer func() {
		if returned {
			return
		}
		if v := recover(); v != nil {
			panic(v) // not a poll's: polls recover their panics
		}
		// The poll of cx.t called runtime.Goexit, which ends this
		// goroutine whatever we do: record the task as finished with
		// ErrGoexit and go on with worker id in a new goroutine.
		rt.mu.Lock()
		rt.workers[id].pollStart = time.Time{}
		cx.ended = true
		rt.finish(cx.t, done, ErrGoexit)
		rt.mu.Unlock()
		go rt.worker(id)
	}()
	rt.mu.Lock()
	for {
		t := rt.next(id)
		if t == nil {
			break
		}
		cx = &Context{rt: rt, t: t, worker: id, goroutine: handle}
		rt.workers[id].pollStart = time.Now()
		rt.mu.Unlock()
		res, perr := t.poll(cx)
		rt.mu.Lock()
		rt.workers[id].pollStart = time.Time{}
		cx.ended = true
		rt.afterPoll(t, res, perr)
	}
	rt.workers[id].state = "exited"
	if rt.workers[id].extra {
		rt.extras--
	}
	rt.exitLocked()
	rt.mu.Unlock()
	returned = true
}

// next waits until the queue holds a task or Shutdown has begun. It pops the
// oldest task and marks it running, or returns nil once Shutdown has begun
// (or, for an extra worker, when the queue is empty). Called with mu held;
// the wait releases it.
func (rt *Runtime) next(id int) *task {
	for len(rt.queue) == 0 && !rt.shutdown {
		if rt.workers[id].extra {
			return nil
		}
		rt.workers[id].state = "parked"
		rt.work.Wait()
	}
	if rt.shutdown {
		return nil
	}
	t := rt.queue[0]
	rt.queue[0] = nil // let the task be collected once it finishes
	rt.queue = rt.queue[1:]
	t.state = running
	rt.workers[id].state = "running"
	rt.workers[id].polls++
	return t
}

// afterPoll records the outcome of a poll of t; mu is held. t is running or
// notified.
func (rt *Runtime) afterPoll(t *task, res Poll, perr *PanicError) {
	switch {
	case perr != nil:
		rt.panicked++
		rt.finish(t, done, perr)
	case res == Ready:
		rt.finish(t, done, nil)
	case rt.shutdown:
		rt.finish(t, cancelled, ErrCancelled)
	case t.state == notified:
		rt.schedule(t) // woken during the poll: run again, once
	default:
		t.state = idle // wait for a wake
	}
}

// finish moves t to its final state s (done or cancelled) with the result
// err, and releases everyone waiting on its handle; mu is held.
func (rt *Runtime) finish(t *task, s state, err error) {
	t.state = s
	t.err = err
	delete(rt.live, t)
	rt.stopTimerLocked(t)
	if s == done {
		rt.completed++
	} else {
		rt.cancelled++
	}
	close(t.finished)
}

// Shutdown stops the runtime. New spawns fail with ErrShutdown at once;
// tasks that are queued or waiting for a wake are cancelled (their handles
// return ErrCancelled); polls already running finish, and a task whose poll
// then returns Pending is cancelled too; every worker goroutine exits.
//
// Shutdown returns nil once all workers have exited, or, if ctx ends first, a
// *StillRunningError wrapping ctx.Err() that lists the polls still running
// (the shutdown still completes when they return); when ctx ends while no
// poll runs, it waits for the workers' exits, which run no task, and
// returns nil. It is idempotent and safe to call from several goroutines
// at once. Called from inside a task it begins the shutdown and returns
// ErrShutdownInsideTask: it cannot wait for its own poll. A nil ctx panics.
func (rt *Runtime) Shutdown(ctx context.Context) error {
	if ctx == nil {
		panic("sched: Shutdown with a nil context.Context (use context.Background())")
	}
	rt.mu.Lock()
	if !rt.shutdown {
		rt.shutdown = true
		close(rt.stop)
		for t := range rt.live {
			if t.state == idle || t.state == scheduled {
				rt.finish(t, cancelled, ErrCancelled)
			}
		}
		clear(rt.queue)
		rt.queue = nil
		for _, tm := range rt.timers {
			tm.Stop()
		}
		clear(rt.timers)
		rt.work.Broadcast()
	}
	me := goid.Current()
	inside := false
	for _, w := range rt.workers {
		inside = inside || w.goroutine == me && w.state != "exited"
	}
	rt.mu.Unlock()
	if inside {
		return ErrShutdownInsideTask
	}

	select {
	case <-rt.exited:
		return nil
	default:
	}
	select {
	case <-rt.exited:
		return nil
	case <-ctx.Done():
		if err := rt.stillRunning(ctx.Err()); len(err.Polls) > 0 {
			return err
		}
		<-rt.exited // no poll runs, and none starts after shutdown
		return nil
	}
}

// stillRunning describes the polls running at a Shutdown that timed out.
func (rt *Runtime) stillRunning(err error) *StillRunningError {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	e := &StillRunningError{Err: err}
	now := time.Now()
	for i, w := range rt.workers {
		if !w.pollStart.IsZero() {
			e.Polls = append(e.Polls, RunningPoll{Worker: i, Extra: w.extra, For: now.Sub(w.pollStart)})
		}
	}
	return e
}
