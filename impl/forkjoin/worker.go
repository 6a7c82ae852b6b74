package forkjoin

import (
	"github.com/wsched/wsched/impl/internal/atomic"

	"github.com/wsched/wsched/impl/deque"
)

// Worker is one worker of a Pool, as seen by the job it is running. Only the
// code running on that worker may use it (see the package documentation).
type Worker struct {
	pool  *Pool
	index int
	deque *deque.Deque[job]
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
func (w *Worker) main() {
	defer w.pool.stopped.Done()
	w.waitUntil(&w.terminate)
	w.setState(StateStopped)
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
	w.depth.Add(1) // relaxed: see the depth field
	j.run(w)
	w.depth.Add(-1) // relaxed
	w.ran.Add(1)    // relaxed: a statistic
	j.complete(w.pool)
}

// check refuses misuse: a closed pool, or a worker not inside a job.
func (w *Worker) check() error {
	// Ordering: relaxed for both. Close happens after every Run returned,
	// so a legitimate caller never sees closed; these loads only turn
	// misuse into an error, and a stale answer just misses some misuse.
	if w.pool.closed.Load() {
		return ErrClosed
	}
	if w.depth.Load() == 0 {
		return ErrNotInWorker
	}
	return nil
}

// call runs f(w), returning a panic as a *PanicError.
func (w *Worker) call(f func(*Worker)) (pe *PanicError) {
	defer func() {
		if r := recover(); r != nil {
			pe = asPanicError(r)
		}
	}()
	f(w)
	return nil
}

func callScope(f func(*Scope), s *Scope) (pe *PanicError) {
	defer func() {
		if r := recover(); r != nil {
			pe = asPanicError(r)
		}
	}()
	f(s)
	return nil
}
