package sched

import (
	"context"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/impl/internal/raceedge"
	"github.com/wsched/wsched/internal/goid"
)

// Shutdown, and how the runtime's goroutines end: Shutdown stores closed
// and wakes every worker and the monitor; each worker cancels its own
// queues as it exits (worker.exit), the monitor cancels what waits behind
// a poll that does not return (monitor.shutdown), and the last goroutine
// to exit drains the global queue and closes terminated (exited). The
// drains are in drain.go.

// Shutdown stops the runtime: new spawns fail with ErrShutdown, polls
// already running finish, queued tasks and tasks waiting for a wake are
// cancelled (their Wait returns ErrCancelled), every worker goroutine
// exits. It is idempotent and safe to call concurrently.
//
// A poll that does not return keeps its worker goroutine; Shutdown cannot
// stop it. The tasks queued behind it are cancelled all the same, by the
// workers that exit, so their Waits return; nothing queued is lost. If ctx
// ends first, Shutdown returns a *StillRunningError, which wraps ctx.Err()
// and says which polls are still running and for how long; the shutdown
// completes in the background when they return. ctx bounds only that
// wait for polls: when it ends while no worker is inside a tick (every
// worker parked or exited, an idle runtime), the workers exit without
// running any task, and Shutdown waits for them and returns nil.
//
// Called from inside a task (a poll or a Go func), Shutdown begins the
// shutdown and returns ErrShutdownInsideTask at once: it cannot wait for
// the poll it is called from, which is still running. The shutdown
// completes when that poll (and any other) has returned; a Shutdown from
// outside, or a Wait of a task, waits for that.
//
// A nil ctx panics, as in net/http; use context.Background().
func (rt *Runtime) Shutdown(ctx context.Context) error {
	if ctx == nil {
		panic("sched: Shutdown with a nil context.Context (use context.Background())")
	}
	rt.shutdownOnce.Do(func() {
		// Publishes shutdown to workers, spawners and wakers. seq_cst,
		// not release: it is one side of the Dekker pair with
		// enterRemote (its increment of remote, then its load of
		// closed). Then every worker and the monitor get a token, so
		// one about to sleep returns at once. (An extra worker never
		// sleeps; it sees closed between polls.)
		rt.closed.StoreSeqCst(true)
		// Before the wakes below: a worker they wake leaves the
		// parked state on its way out.
		rt.idleAtClose = rt.noneInTick()
		for _, w := range rt.workers {
			w.parker.Unpark()
		}
		rt.mon.parker.Unpark()
	})
	if rt.calledFromWorker() {
		return ErrShutdownInsideTask
	}
	if sync.Select2(rt.terminated, ctx.Done()) == 0 {
		raceedge.Acquire(unsafe.Pointer(rt)) // race build: every worker's tasks happen before the return (exited)
		return nil
	}
	if rt.idleAtClose {
		sync.Recv(rt.terminated)             // no worker runs a task again: their exits are all there is to wait for
		raceedge.Acquire(unsafe.Pointer(rt)) // as above
		return nil
	}
	return rt.stillRunning(ctx.Err())
}

// calledFromWorker reports whether the caller is a worker goroutine: a
// task calling Shutdown. It reads the caller's goroutine number from a
// stack trace (a microsecond; Shutdown is no hot path) and compares it
// with each worker's, recorded as its goroutine started.
func (rt *Runtime) calledFromWorker() bool {
	me := goid.Current()
	for _, w := range rt.allWorkers() {
		if w.goid.LoadRelaxed() == me { // relaxed: a worker's own store, if it is the caller
			return true
		}
	}
	return false
}

// noneInTick reports whether every worker is starting, parked or has
// exited, after closed was stored: then none will poll again (it sees
// closed before its next tick: see setState), and waiting for their exits
// waits for no task.
func (rt *Runtime) noneInTick() bool {
	for _, w := range rt.allWorkersSeqCst() {
		if !w.outOfTick() {
			return false
		}
	}
	return true
}

// outOfTick is noneInTick's look at one worker: starting, parked, exited,
// or an extra worker slot with no goroutine.
func (w *worker) outOfTick() bool {
	// Observes the worker's state after our store of closed. seq_cst:
	// the load half of Shutdown's side of the Dekker pair described at
	// setState.
	if s := w.state.LoadSeqCst(); s == workerStarting || s == workerParked || s == workerExited {
		return true
	}
	// Observes whether an extra worker slot has a goroutine. seq_cst: as
	// the state above (retired stores it after the state exited).
	return w.extra && !w.active.LoadSeqCst()
}

// exited is called by each worker, extra worker and the monitor as its
// last act; the last one drains the global queue and the timers and closes
// terminated.
func (rt *Runtime) exited() {
	// Race build: what this goroutine ran (every poll and Go func of a
	// worker) happens before Shutdown's return (raceedge).
	raceedge.ReleaseMerge(unsafe.Pointer(rt))
	// acq_rel: the last decrement sees every other worker's drain.
	switch rt.live.AddAcqRel(-1) {
	case 0:
	case 1:
		// At shutdown the monitor exits last; it waits for this (a
		// sticky token: harmless when it is not shutting down yet).
		rt.mon.parker.Unpark()
		return
	default:
		return
	}
	// Wait for admitted remote spawns and wakes to finish their push;
	// they are a few instructions and a mutex away from done. seq_cst,
	// not acquire: this load comes after our load of closed, and must see
	// any enterRemote whose load of closed missed the store (Dekker pair).
	for rt.remote.LoadSeqCst() != 0 {
		sync.Gosched()
	}
	var buf [globalBatchMax]*task
	rt.cancelGlobal(buf[:])
	rt.timers.clear()
	rt.spare.drop()
	// What is neither done nor cancelled now is a task waiting for a wake
	// (or a timer) that will never come: it is cancelled. Its state moves
	// to cancelled when a Wait looks at it (see JoinHandle.Wait); the count
	// is settled here, so that after Shutdown Spawned == Completed +
	// Cancelled. Every worker has exited and no remote push is in flight,
	// so the counters are final.
	m := rt.Metrics()
	rt.cancelled.Add(m.Spawned - m.Completed - m.Cancelled) // counter; relaxed
	rt.checkLedgerAtEnd()                                   // explore build: no searching credit left (transitions.go)
	sync.PointOn(rt.terminated)
	close(rt.terminated)
}

// stillRunning describes, for Shutdown's error, the workers inside a poll
// (poll sets their inPoll). Not the workers whose state says they are in
// a tick: one of those may be at the top of its loop, not yet past the
// load of closed that ends it, or searching, and runs nothing more.
func (rt *Runtime) stillRunning(err error) error {
	e := &StillRunningError{Err: err}
	now := rt.now()
	for _, w := range rt.allWorkers() {
		// Observes whether w is inside a poll. Relaxed: what Shutdown's
		// error says, nothing else; a poll that has just begun or
		// ended may be named or not.
		if !w.inPoll.LoadRelaxed() {
			continue
		}
		since := w.stuckSince.LoadRelaxed() // diagnostics; relaxed
		e.Polls = append(e.Polls, RunningPoll{Worker: w.index, Extra: w.extra, For: time.Duration(max(now-since, 0))})
	}
	return e
}
