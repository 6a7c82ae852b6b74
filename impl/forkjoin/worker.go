package forkjoin

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/deque"
	"github.com/wsched/wsched/internal/goid"
)

// Worker is one worker of a Pool, as seen by the job it is running. Only the
// code running on that worker may use it (see the package documentation).
type Worker struct {
	pool  *Pool
	index int
	deque *jobDeque
	rng   uint64 // xorshift state for victim choice; worker-private

	// terminate is set by Close; the main loop waits on it.
	terminate latch
	// depth counts the jobs this worker is inside (nested via helping).
	// Join and Scope refuse a worker with depth 0: it is not running a job,
	// so the caller is not the job that received it.
	// Ordering: written by the worker (relaxed would do: only the worker's
	// own reads decide anything; others' reads only catch misuse).
	depth atomic.StatInt32
	// free holds finished Join jobs for reuse. Worker-private.
	free []*job
	// running is the stack of jobs this worker's goroutine is inside
	// (execute pushes and pops), what a Goexit abandons: afterGoexit
	// finishes each. Worker-private.
	running []*job
	// unwound is set by call when a function unwound with nothing to
	// recover: runtime.Goexit (the goroutine is ending) or panic(nil)
	// under GODEBUG=panicnil=1 (stopped by that recover); call's caller
	// clears it when the call returns after all. Worker-private.
	unwound bool
	// goid is the worker goroutine's number: Run and Close tell a call
	// from inside a job by it (misuse.go). Ordering: relaxed.
	goid atomic.StatInt64
	// jobGoroutine is what a race-detector build tells a Worker used
	// from another goroutine by (misuse.go; empty without it).
	jobGoroutine goid.Owner

	// Diagnostics, read by Snapshot. Ordering: relaxed.
	state  atomic.StatInt32
	ran    atomic.StatInt64 // jobs run through execute (stolen, injected, helped)
	steals atomic.StatInt64
	sleeps atomic.StatInt64
}

// Index returns the worker's number, 0 to Pool.Workers()-1.
func (w *Worker) Index() int { return w.index }

// Pool returns the pool the worker belongs to.
func (w *Worker) Pool() *Pool { return w.pool }

// setState records what the worker is doing, for Snapshot and WorkerState.
// Ordering: relaxed (diagnostics only; nothing is decided on it).
func (w *Worker) setState(s State) { w.state.Store(int32(s)) }

// main is the worker goroutine: find work and run it until Close.
//
// A job that calls runtime.Goexit ends the goroutine whatever its deferred
// calls do. The deferred call here tells that from a return (finished)
// and from a panic out of the pool's own code (unwound is set only by
// call), finishes the jobs the goroutine was inside, and starts a new
// goroutine for the same worker: its deque and the jobs in it are
// untouched.
func (w *Worker) main() {
	finished := false
	defer func() {
		switch {
		case finished:
			w.pool.stopped.Done()
		case w.unwound:
			w.afterGoexit()
		}
	}()
	w.recordGoroutine()
	w.waitUntil(&w.terminate)
	w.setState(StateStopped)
	finished = true
}

// afterGoexit finishes, innermost first, every job the ended goroutine was
// inside, each with a *PanicError whose value is ErrGoexit (so the Join,
// Scope or Run waiting for it re-raises or returns that), and goes on
// with this worker in a new goroutine. Jobs the abandoned code had handed
// to other workers still run, and their completion is not waited for.
func (w *Worker) afterGoexit() {
	w.unwound = false
	for i := len(w.running) - 1; i >= 0; i-- {
		j := w.running[i]
		w.running[i] = nil
		j.panic = &PanicError{Value: ErrGoexit}
		j.complete(w.pool)
	}
	w.running = w.running[:0]
	w.depth.StoreRelaxed(0) // relaxed: see the depth field
	sync.Go("fj worker", w.index, w.main)
}

// waitUntil runs other jobs until l is set: the main loop (l = terminate),
// a Join whose second half was stolen, a Scope waiting for its spawns.
func (w *Worker) waitUntil(l *latch) {
	var idle idleState
	for !l.probe() {
		if j := w.findWork(); j != nil {
			idle.wakeFully()
			w.execute(j)
			continue
		}
		w.pool.sleep.noWorkFound(&idle, l, w)
	}
	w.setState(StateRunning)
}

// findWork looks, in order, at the worker's own deque, the other workers'
// deques (starting at a random one) and the injector.
func (w *Worker) findWork() *job {
	if j, ok := w.deque.Pop(); ok {
		return j
	}
	if j := w.steal(); j != nil {
		return j
	}
	return w.pool.injector.pop()
}

// steal tries every other worker's deque once, and again while any of them
// answered Retry (it was not empty, somebody was just quicker).
func (w *Worker) steal() *job {
	ws := w.pool.workers
	n := len(ws)
	if n == 1 {
		return nil
	}
	for {
		retry := false
		start := int(w.nextRand() % uint64(n))
		for k := range n {
			v := ws[(start+k)%n]
			if v == w {
				continue
			}
			j, res := v.deque.Steal()
			switch res {
			case deque.Success:
				w.steals.Add(1) // relaxed: a statistic
				return j
			case deque.Retry:
				retry = true
			}
		}
		if !retry {
			return nil
		}
	}
}

func (w *Worker) nextRand() uint64 {
	x := w.rng
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	w.rng = x
	return x
}

// push makes j available to thieves and tells the sleep protocol.
func (w *Worker) push(j *job) {
	w.deque.Push(j)
	w.pool.sleep.newJobs()
}

// execute runs a job found by findWork and completes it.
func (w *Worker) execute(j *job) {
	w.setState(StateRunning)
	w.depth.AddRelaxed(1) // publishes "inside a job" to check; relaxed: see the depth field
	w.running = append(w.running, j)
	j.run(w)
	w.running = w.running[:len(w.running)-1]
	w.depth.AddRelaxed(-1) // relaxed, as above
	w.ran.Add(1)           // relaxed: a statistic
	j.complete(w.pool)
}

// check refuses misuse: a closed pool, or a worker not inside a job; in a
// race-detector build, also a worker used from a goroutine not its own.
func (w *Worker) check(op string) error {
	// Ordering: relaxed for both. Close happens after every Run returned,
	// so a legitimate caller never sees closed; these loads only turn
	// misuse into an error, and a stale answer just misses some misuse.
	if w.pool.closed.LoadRelaxed() {
		return ErrClosed
	}
	if w.depth.LoadRelaxed() == 0 { // observes whether the caller is inside a job
		return ErrNotInWorker
	}
	w.checkGoroutine(op)
	return nil
}

// call runs f(w), returning a panic as a *PanicError, panic(nil) under
// GODEBUG=panicnil=1 included.
func (w *Worker) call(f func(*Worker)) *PanicError {
	pe := w.callRecover(f)
	w.unwound = false // it returned: not a Goexit
	return pe
}

// callRecover is call's body. recover is called only when f did not
// return (a call into the runtime most jobs do not need). A recover that
// finds nothing means runtime.Goexit, which it cannot stop (the goroutine
// is ending: main's deferred call takes over), or panic(nil) under the old
// setting, which it has just stopped: either way it is recorded as a
// panic with a nil value, and unwound tells main which it was.
func (w *Worker) callRecover(f func(*Worker)) (pe *PanicError) {
	returned := false
	defer func() {
		if returned {
			return
		}
		r := recover()
		if r == nil {
			w.unwound = true
		}
		pe = asPanicError(r)
	}()
	f(w)
	returned = true
	return nil
}

// callScope is call for a function spawned into a scope (or a scope's
// body), on the worker s.w.
func callScope(f func(*Scope), s *Scope) *PanicError {
	return s.w.call(func(*Worker) { f(s) })
}
