//go:build race

package sched

import (
	"unsafe"

	"github.com/wsched/wsched/impl/internal/raceedge"
	"github.com/wsched/wsched/internal/goid"
)

// The race build's edges of a task (raceedge), and the one acquire they
// can skip.
//
// A task's edge is its record's address: each spawn, wake and poll's end
// releases it, each poll's start and each Wait that sees the task final
// acquires it. A detector operation costs a call into the detector, its
// slot lock and a vector clock as wide as its goroutine slots, so the
// fast race build (docs/performance.md) spends most of its time there.
// The acquire at a poll's start is redundant when the polling goroutine
// made every release of the edge since it last acquired it: what it
// would acquire is already before it in program order. That is the
// common case of a task spawned or woken and then polled on the same
// worker, and raceSeen.by records it: after each release, who made the
// releases since the last poll began.
//
// Why a skipped acquire loses no edge. Every release is followed by a
// mark (an acq_rel read-modify-write of by) before the transition that
// publishes it (the push, the state CAS, the end of the poll), whose
// release orders the mark before whoever acquires the task; a poll's
// start swaps by to raceByNone after its transition to running, and
// acquires unless the old value is its own worker's. So:
//   - by == me means every release marked since the previous poll's start
//     was this worker's. The previous poll's end marks its poller, so
//     that poll was this worker's too (or there was none: a fresh record,
//     whose only release is its spawn's, made before any Waker of it
//     exists). Inductively, everything the edge holds is before this
//     goroutine in program order: nothing to acquire.
//   - A release whose mark comes after the swap marks raceByNone -> its
//     maker; the next poll acquires it. This poll may miss it only if the
//     release did not cause this poll: a wake that causes a poll marks
//     before its state CAS, which happens before the poll's swap.
//   - A worker's goroutine that ends in runtime.Goexit starts its
//     successor itself (afterGoexit), a go statement the detector sees, so
//     a worker's index names goroutines ordered one after the other. An
//     extra worker's slot is reused by goroutines the monitor starts,
//     which the detector does not order: an extra worker marks
//     raceByMany and never skips.
//
// The skip adds no edge: it only leaves out an acquire that could add
// nothing. The note's instructions are not seen by the detector in any
// build (goid.Word), so they add no edge either, in the fast race build or
// in the default one (impl/ compiled with the detector), where the planted
// races it must report still are (the catalog's mutants caught under
// -race: ring-read-before-claim, task-finish-outcome-after-state,
// sched-wake-absorbed-load-only).
//
// A remote spawn marks raceByGlobal. The worker that takes it from the
// global queue has acquired the queue's lock (a sync.Mutex, which the
// detector sees in every build), released by the spawner after its push
// and after the spawn's release: the worker is already after that release,
// and takes it over (raceByGlobal -> its own, a CAS, so that a wake marked
// in between is not overwritten). A thief of the rest of the batch is not
// after the lock, and acquires.
type raceSeen struct {
	// by is raceByNone, raceByMany, raceByGlobal or a worker's raceID,
	// kept with instructions the detector does not see in any build
	// (goid.Word): through sync/atomic, the default race build would make
	// each of its operations a synchronization of the detector's on the
	// task's address, the edge's own (the field is the record's first).
	by goid.Word
}

const (
	raceByNone   uint32 = iota // no release since the last poll's start
	raceByMany                 // several goroutines, or one that is not a worker's
	raceByGlobal               // a remote spawn's release, ordered before the global queue's lock
	raceByWorker               // + index: releases by that (regular) worker only
)

// raceID is what this worker's releases mark.
func (w *worker) raceID() uint32 {
	if w.extra {
		return raceByMany
	}
	return raceByWorker + uint32(w.index)
}

// raceMark notes a release of t's edge by id, made just before.
func (t *task) raceMark(id uint32) {
	for {
		// Acquire, acq_rel: after the release, before the transition
		// that publishes it (whose release orders it before the poll's
		// swap; see raceSeen).
		old := t.race.by.LoadAcquire()
		next := id
		if old != raceByNone && old != id {
			next = raceByMany
		}
		if t.race.by.CompareAndSwapAcqRel(old, next) { // a failure loops
			return
		}
	}
}

// raceSpawned is a spawn from inside a poll: the spawning poll before the
// child's first poll. Release, not merge: the record is new, or a Go
// record whose last run acquired its edge before it was recycled.
func (w *worker) raceSpawned(t *task) {
	raceedge.Release(unsafe.Pointer(t))
	t.raceMark(w.raceID())
}

// raceRemote is a spawn from outside: the spawner's writes before the
// first poll (Release as in raceSpawned).
func (rt *Runtime) raceRemote(t *task) {
	raceedge.Release(unsafe.Pointer(t))
	t.raceMark(raceByGlobal)
}

// raceTookGlobal is w's take of t from the global queue, under its lock.
func (w *worker) raceTookGlobal(t *task) {
	// acq_rel; a failure (a wake marked meanwhile) leaves the mark alone.
	t.race.by.CompareAndSwapAcqRel(raceByGlobal, w.raceID())
}

// raceBeforePoll is a poll's start, after the transition to running: the
// spawn, the wakes and the task's previous poll before this poll.
func (w *worker) raceBeforePoll(t *task) {
	if !w.raceOwnEdge(t) {
		raceedge.Acquire(unsafe.Pointer(t))
	}
}

// raceOwnEdge starts a poll's note afresh and reports whether every release
// since the last poll's start was w's own (see raceSeen).
func (w *worker) raceOwnEdge(t *task) bool {
	// acq_rel: after the transition to running, whose acquire orders
	// every mark published with the task before it (see raceMark).
	old := t.race.by.SwapAcqRel(raceByNone)
	return old == w.raceID() && old != raceByMany
}

// raceAfterPoll is a poll's end: this poll before the next one and before
// whoever sees the task finished. Merge: a wake during the poll released
// already.
func (w *worker) raceAfterPoll(t *task) {
	raceedge.ReleaseMerge(unsafe.Pointer(t))
	t.raceMark(w.raceID())
}

// raceWoken is a wake from any goroutine (Waker.Wake, the monitor's
// timers): the waker's writes before the poll it causes (or the next one,
// when the task is running). It marks raceByMany.
func (t *task) raceWoken() {
	raceedge.ReleaseMerge(unsafe.Pointer(t))
	t.raceMark(raceByMany)
}

// raceWake is raceWoken by worker w's goroutine (Context.Wake, w's own
// timers), which marks w's raceID: a task it wakes into its LIFO slot and
// polls next needs no acquire.
func (w *worker) raceWake(t *task) {
	raceedge.ReleaseMerge(unsafe.Pointer(t))
	t.raceMark(w.raceID())
}
