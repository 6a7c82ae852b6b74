package sched

import (
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/impl/internal/raceedge"
	"github.com/wsched/wsched/internal/tlatrace"
)

// Extra workers.
//
// When every worker is stuck in a long poll (or stuck and the others
// busy, none parked) and tasks wait, the monitor starts an extra worker: a
// goroutine running the ordinary worker loop, with a ring of its own,
// that starts as a searcher and takes the waiting tasks from the stuck
// workers' rings and LIFO slots and from the global queue. It is a worker
// in every respect but two: it never parks (it has no bit in the parked
// bitmap, so the notify protocol never claims it), and when it finds no
// work it retires, its goroutine ends. So runnable tasks keep running
// while polls block, as runnable goroutines do while others block, and
// the extra goroutines are gone once they are not needed.
//
// At most Config.ExtraWorkers run at once. A slot (the worker struct and
// its ring) is made the first time it is needed, at the end of the
// runtime's one list of workers (workerlist.go), and reused by later extra
// workers; the slots are never freed, so that thieves can keep a plain
// list of them.
//
// An extra worker's life, all in this file: the monitor starts it (start:
// a free slot, reset, or a new one; a searching credit; the goroutine),
// its goroutine searches on that credit (beginExtra) and ticks (runExtra), it retires when it finds nothing and the re-check
// agrees (retire) or hands its queues to the global queue when it is not
// needed any more (surplus, handOff), and its goroutine's last act frees
// the slot (exit, then retired).
type extraWorkers struct {
	rt  *Runtime
	max int
	// running counts the extra workers whose goroutine runs.
	running atomic.Int32
	started atomic.StatUint64 // extra workers started (metrics)
}

func (x *extraWorkers) init(rt *Runtime) {
	x.rt = rt
	x.max = rt.cfg.extraWorkers()
}

// start starts an extra worker in a free slot, if fewer than max run.
// Monitor only.
func (x *extraWorkers) start() bool {
	w := x.ready()
	if w == nil {
		return false
	}
	if tlatrace.On { // TLA+ trace (Stranding): MonExtra
		tlatrace.Strand("SExtra", w.index, nil, -1, 0, true)
	}
	sync.Go("extra worker", w.index, w.beginExtra)
	return true
}

// ready readies a slot for a new extra worker (nil if max run): counted
// as running, the slot in use, and a searching credit taken for it, all
// before its goroutine starts, so that a notifier that sees the credit
// skips its own wake, as for a worker a notifier claimed. Its flag and
// state stay starting until the goroutine is in its loop (beginExtra).
func (x *extraWorkers) ready() *worker {
	rt := x.rt
	// Observes how many run (they decrement it when they retire, after
	// freeing their slot). Acquire: a count lowered by a retiring worker
	// comes with the slot it freed before (retired), so freeSlot below
	// finds it and no slot is made past max.
	if int(x.running.LoadAcquire()) >= x.max {
		return nil
	}
	w := x.freeSlot()
	if w == nil {
		w = rt.addSlot()
	} else {
		w.reset()
	}
	x.running.AddSeqCst(1)      // seq_cst: the monitor's anyRunning reads it
	w.active.StoreRelease(true) // publishes the slot as in use
	rt.live.AddRelaxed(1)       // the monitor is live, so live is not 0 here
	rt.idle.AddSearcher()       // its credit; the flag follows in beginExtra
	// Diagnostics for Shutdown's error (stillRunning): until the monitor
	// looks at the new goroutine's ticks, its tick is at most this old.
	// Relaxed: a time to print, nothing decides by it.
	w.stuckSince.StoreRelaxed(rt.now())
	x.started.Add(1) // counter; relaxed
	return w
}

// beginExtra is a new extra worker's goroutine. It searches on the credit
// ready took for it, then runs the worker loop. Until then its state is
// starting, as a regular worker's is until run: Shutdown takes a worker it
// sees starting for one that sees closed before its first tick
// (noneInTick) and that runs no poll (stillRunning). A state of searching
// stored for it before its goroutine ran named a goroutine that had not
// started as a poll still running. searchOnCredit stores the state before
// runExtra's first load of closed (the Dekker pair of setState).
func (w *worker) beginExtra() {
	w.searchOnCredit()
	w.runExtra()
}

// freeSlot returns an extra worker slot whose goroutine has finished with
// it, or nil.
func (x *extraWorkers) freeSlot() *worker {
	for _, v := range x.rt.extraSlots() {
		// An inactive slot's goroutine has finished with it (retired
		// stores active false as its last touch of the worker).
		if !v.active.LoadAcquire() { // pairs with retired's release store of false
			// Race build: the slot's last goroutine before this
			// caller, and through the go statement before the next
			// (retired).
			raceedge.Acquire(unsafe.Pointer(v))
			return v
		}
	}
	return nil
}

// retired is an extra worker's last touch of its slot, from exit: the
// slot freed, then the count lowered. In the other order a monitor that
// looked between the two would see a free count and no free slot, and
// make one more slot than max.
func (x *extraWorkers) retired(w *worker) {
	// Race build: this goroutine's use of the slot before the next
	// goroutine's (freeSlot). Context methods inlined into a user's
	// package, compiled with the detector, write the worker (Yield), and
	// the detector sees neither the flag below nor the monitor's load.
	raceedge.Release(unsafe.Pointer(w))
	w.active.StoreRelease(false) // the slot is free for the next extra worker
	x.running.AddSeqCst(-1)      // seq_cst, as in start; releases the slot's flag to ready's acquire
}

// runExtra is an extra worker's loop (and, after a Goexit in a poll, the
// goroutine that goes on with it): ticks until it finds nothing (and the
// re-check agrees), until it is not needed any more, or until shutdown.
func (w *worker) runExtra() {
	looping := true
	defer func() {
		if looping { // only a Goexit leaves the loop without passing below
			w.afterGoexit()
		}
	}()
	w.recordGoroutine()
	// Observes shutdown. seq_cst: the Dekker pair with Shutdown, as in
	// run (setState).
	for !w.rt.closed.LoadSeqCst() {
		if w.tick() == 0 {
			if w.retire() {
				break
			}
			continue
		}
		w.rechecked = false // it polled (see recheckFound)
		if w.rt.extras.surplus() {
			w.handOff()
			break
		}
	}
	looping = false // exit gives the slot away: no touch of w after it
	w.exit()
}

// surplus reports whether more extra workers run than workers are stuck:
// one is not needed any more (the poll it stood in for has returned).
func (x *extraWorkers) surplus() bool {
	// Observes both counts; a stale answer costs one retirement too many
	// (the monitor starts another) or one tick more.
	return x.running.LoadRelaxed() > x.rt.mon.stuckCount.LoadRelaxed()
}

// handOff moves an extra worker's queued tasks to the global queue, where
// any worker takes them, before it retires with work left (surplus): a
// batch at a time (drain.go), announced once they are all there.
func (w *worker) handOff() {
	rt := w.rt
	if w.searching && w.foundWork() {
		rt.notify() // Rule 2, as in execute
	}
	if w.drain(nil, w.scratch[:], rt.global.PushBatch) {
		if tlatrace.On { // TLA+ trace (Stranding): no step has the hand-off
			tlatrace.Strand("SHandOff", w.index, nil, -1, 0, true)
		}
		rt.notify()
	}
}

// retire ends an extra worker that found no work: it gives its searching
// credit back and re-checks every queue, as park does at (b) and (c): a
// publisher that saw it searching skipped its notify. If there is work it
// searches on and reports false; otherwise the goroutine exits.
func (w *worker) retire() bool {
	rt := w.rt
	if w.searching {
		w.stopSearching()
	}
	chaos.Point()
	if rt.workAvailable(w) {
		w.resumeSearching()
		w.recheckFound()
		return false
	}
	return true
}

// durationOf converts nanoseconds to a Duration.
func durationOf(ns int64) time.Duration { return time.Duration(ns) }
