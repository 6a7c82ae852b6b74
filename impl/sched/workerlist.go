package sched

import (
	"strconv"
)

// The workers, as one list.
//
// Every worker slot is in one slice: the regular workers, indexes
// 0..Workers-1, fixed at New (rt.workers is this prefix), then the extra
// workers' slots, index Workers+k, made by the monitor as it first needs
// each (extra.go) and never freed. A walk over every worker is one range
// loop over allWorkers(), with no allocation: the monitor replaces the
// slice (copy on write) when it adds a slot, so a walk over a list loaded
// before that misses only the newest slot, whose worker starts as a
// searcher and looks at the queues itself.

// allWorkers returns every worker slot, regular then extra, running or
// not.
func (rt *Runtime) allWorkers() []*worker {
	if !rt.mon.helps() {
		return rt.workers // no extra worker is ever made: no load
	}
	// Observes the slots the monitor published (and what it wrote into
	// each before); acquire.
	if p := rt.all.LoadAcquire(); p != nil {
		return *p
	}
	return rt.workers // no extra slot made yet
}

// allWorkersSeqCst is allWorkers for Shutdown's look at the states
// (noneInTick), with a seq_cst load: it must see every slot whose
// goroutine may have read closed clear. The monitor's store of the list
// (addSlot), the extra worker's store of its state and its load of closed
// come before Shutdown's store of closed and this load in the one order
// of seq_cst operations; with an acquire load Shutdown could read the
// list without the newest slot and take a runtime whose extra worker
// polls for idle (the weak layer's shutdown/pair-close-state-extra).
func (rt *Runtime) allWorkersSeqCst() []*worker {
	if !rt.mon.helps() {
		return rt.workers // no extra worker is ever made: no load
	}
	// Observes the slots the monitor published. seq_cst (see above).
	if p := rt.all.LoadSeqCst(); p != nil {
		return *p
	}
	return rt.workers
}

// extraSlots returns the extra workers' slots, running or not.
func (rt *Runtime) extraSlots() []*worker {
	return rt.allWorkers()[len(rt.workers):]
}

// addSlot makes an extra worker slot at the end of the list and publishes
// it. Monitor only (the one writer of the list).
func (rt *Runtime) addSlot() *worker {
	all := rt.allWorkers()
	w := newWorker(rt, len(all), nil)
	w.extra = true
	list := append(all[:len(all):len(all)], w)
	// Publishes the new slot (its ring) to thieves, and to Shutdown's
	// look at the states. seq_cst, for the latter (allWorkersSeqCst);
	// release would do for thieves.
	rt.all.StoreSeqCst(&list)
	return w
}

// workerAt returns the worker with index i: a worker, or an extra
// worker's slot.
func (rt *Runtime) workerAt(i int) *worker {
	if i < len(rt.workers) {
		return rt.workers[i] // no load for a regular worker
	}
	if all := rt.allWorkers(); i < len(all) {
		return all[i]
	}
	panic("sched: internal error: no worker " + strconv.Itoa(i))
}
