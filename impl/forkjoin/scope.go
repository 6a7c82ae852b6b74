package forkjoin

import (
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/internal/raceedge"
)

// Scope lets a job spawn any number of functions and wait for all of them.
// A *Scope is bound to the worker running the code that holds it: the body
// of Worker.Scope gets one for the worker that called Scope, and each
// spawned function gets one for the worker running it.
type Scope struct {
	st *scopeState
	w  *Worker
}

type scopeState struct {
	// pending counts the body plus spawned functions not yet finished.
	// Ordering: acq_rel on each add; the add that reaches zero must see
	// (acquire) every other job's completion, then publishes via the latch.
	pending atomic.Int64
	latch   latch
	owner   *Worker

	mu    sync.Mutex
	panic *PanicError // the first panic, re-raised by Worker.Scope
}

// Worker returns the worker running the code that holds s.
func (s *Scope) Worker() *Worker { return s.w }

// Scope calls body, lets it (and everything it spawns) call Spawn, and
// returns when all of them have returned. A panic in any of them is
// re-raised here as a *PanicError (the first one recorded) once all have
// finished. It returns an error only on misuse, like Join.
func (w *Worker) Scope(body func(s *Scope)) error {
	if body == nil {
		return ErrNilFunc
	}
	if err := w.check("Scope"); err != nil {
		return err
	}
	st := &scopeState{owner: w}
	st.pending.StoreRelaxed(1) // the body; not shared yet
	pe := callScope(body, &Scope{st: st, w: w})
	st.jobDone(w.pool, pe)
	w.waitUntil(&st.latch)
	raceedge.Acquire(unsafe.Pointer(st)) // race build: every job of the scope happens before its end (jobDone)
	if st.panic != nil {
		panic(st.panic)
	}
	return nil
}

// Spawn queues f to run within the scope, on this worker or a thief. It
// returns ErrScopeDone if the Scope call has already returned (s was kept
// past its lifetime), ErrNilFunc for a nil f.
func (s *Scope) Spawn(f func(s *Scope)) error {
	if f == nil {
		return ErrNilFunc
	}
	// A finished scope says so whoever asks; a live one only to the
	// goroutine of the worker it was given for (race-detector builds).
	// Ordering: relaxed would do (see below).
	if s.st.pending.LoadRelaxed() == 0 {
		return ErrScopeDone
	}
	s.w.checkGoroutine("Scope.Spawn")
	// A count of zero means the scope is over, for good: a CAS from a
	// positive count, never an add, so that a Spawn on a finished scope
	// (a Scope kept past its Scope call) cannot lift the count and slip
	// through as a later call would after a failed add.
	for {
		// Relaxed, the load and the CAS: the count is only read by
		// the decrement that reaches zero.
		n := s.st.pending.LoadRelaxed()
		if n == 0 {
			return ErrScopeDone
		}
		if s.st.pending.CompareAndSwapRelaxedRelaxed(n, n+1) {
			break
		}
	}
	j := &job{sfn: f, scope: s.st}
	raceedge.Release(unsafe.Pointer(j)) // race build: the spawn happens before the run (raceedge)
	s.w.push(j)
	return nil
}

// jobDone counts one finished part of the scope, recording its panic.
func (st *scopeState) jobDone(p *Pool, pe *PanicError) {
	raceedge.ReleaseMerge(unsafe.Pointer(st)) // race build: see Worker.Scope
	if pe != nil {
		st.mu.Lock()
		if st.panic == nil {
			st.panic = pe
		}
		st.mu.Unlock()
	}
	// Ordering: acq_rel. Release publishes this job's effects; the add
	// that reaches zero acquires all the others' before setting the latch.
	if st.pending.AddAcqRel(-1) == 0 {
		owner := st.owner
		if st.latch.set() {
			p.sleep.wakeSpecific(owner.index)
		}
	}
}
