package forkjoin

import (
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/internal/raceedge"
)

// job is one unit of work in a deque or the injector. Exactly one of three
// completions applies:
//   - a Join's second half (owner != nil): set latch, wake owner if it sleeps
//     on it;
//   - a Scope's spawned function (scope != nil): count down the scope;
//   - a Run from outside (done != nil): close done.
type job struct {
	fn    func(*Worker) // Join halves and Runs
	sfn   func(*Scope)  // spawned into a scope
	scope *scopeState
	owner *Worker
	latch latch
	done  chan struct{}
	panic *PanicError // written by the runner before completion
}

// run calls the job's function, catching a panic into j.panic.
func (j *job) run(w *Worker) {
	// Race build: the fork happens before the run (raceedge).
	raceedge.Acquire(unsafe.Pointer(j))
	if j.sfn != nil {
		j.panic = callScope(j.sfn, &Scope{st: j.scope, w: w})
		return
	}
	j.panic = w.call(j.fn)
}

// complete reports the job finished. After it returns, the job may already
// be reused by its owner: nothing may touch j afterwards.
func (j *job) complete(p *Pool) {
	// Race build: the run happens before the join, Run's return, or the
	// scope's end (raceedge; a scope's is in jobDone). Release, not merge:
	// only the runner releases a job after its fork.
	raceedge.Release(unsafe.Pointer(j))
	switch {
	case j.scope != nil:
		j.scope.jobDone(p, j.panic)
	case j.done != nil:
		sync.PointOn(j.done)
		close(j.done)
	default:
		owner := j.owner // read before set: j may be reused right after
		if j.latch.set() {
			p.sleep.wakeSpecific(owner.index)
		}
	}
}

// Latch states. A latch is waited on by one worker (its owner), who may go
// to sleep on it; whoever sets it must then wake that worker.
const (
	latchUnset    uint32 = iota
	latchSleepy          // owner is about to sleep (between getSleepy and fallAsleep)
	latchSleeping        // owner committed to sleeping: a setter must wake it
	latchSet
)

// latch is a one-shot completion flag with the owner's sleep state folded in,
// so that setting it and learning whether the owner needs a wake is one
// atomic swap.
type latch struct{ state atomic.Uint32 }

// probe reports whether the latch is set.
// Ordering: acquire. Pairs with the release in set: the job's results and
// its panic value are visible once this returns true.
func (l *latch) probe() bool { return l.state.LoadAcquire() == latchSet }

// set sets the latch and reports whether the owner was asleep on it (and so
// must be woken by the caller).
// Ordering: acq_rel swap. Release publishes the job's results to probe;
// acquire orders it after the owner's fallAsleep so the answer is current.
func (l *latch) set() (ownerSleeping bool) {
	return l.state.SwapAcqRel(latchSet) == latchSleeping
}

// getSleepy is the owner's first step towards sleeping; false if set.
// Ordering: relaxed would do for the CAS itself (only the owner moves the
// latch out of unset).
func (l *latch) getSleepy() bool {
	return l.state.CompareAndSwapRelaxedRelaxed(latchUnset, latchSleepy)
}

// fallAsleep commits the owner to sleeping; false if the latch was set in
// the meantime. Ordering: acq_rel. After it succeeds, a setter's swap sees
// latchSleeping and wakes us; if it fails we saw the set (acquire).
func (l *latch) fallAsleep() bool {
	return l.state.CompareAndSwapAcqRelAcquire(latchSleepy, latchSleeping)
}

// wakeUp returns the latch to unset after a sleep, unless it was set.
// Ordering: relaxed (owner-only transition; a racing set wins either way).
func (l *latch) wakeUp() {
	if !l.probe() {
		l.state.CompareAndSwapRelaxedRelaxed(latchSleeping, latchUnset)
		l.state.CompareAndSwapRelaxedRelaxed(latchSleepy, latchUnset)
	}
}

// reset makes a finished latch reusable. Owner only, when no one else can
// reach the job (its setter has returned from set).
// Ordering: relaxed; the job is published again by the deque's release
// store of bottom.
func (l *latch) reset() { l.state.StoreRelaxed(latchUnset) }
