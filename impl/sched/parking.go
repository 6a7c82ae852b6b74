package sched

import (
	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/internal/tlatrace"
)

// park puts a worker that found no work to sleep, following the corrected
// idle protocol (docs/scheduler.md):
//
//	(a) set the own parked bit and count the worker as parked,
//	(b) give the searching credit back, if it had one;
//	(c) re-check every queue another worker could take from (the global
//	    queue, every ring, the LIFO slots of stuck workers), whether or not
//	    this was the last searcher; if there is work, leave the parked set
//	    and go back as a searcher;
//	(d) sleep on the parker (sticky token: an unpark that came before the
//	    sleep is not lost);
//	(e) clear the own bit with one fetch-and and take the wake reason from
//	    its returned value: already clear = a notifier claimed us and gave
//	    us a searching credit; still set = spurious or timeout, not
//	    searching.
//
// Why (c) is unconditional: a publisher that saw num_searching > 0 skipped
// its notify, relying on the searchers; a publisher that saw it == 0 but no
// parked bit skipped it too. In both cases the publish happened before its
// load, our bit store / credit return happened before our re-check, and
// with sequentially consistent atomics one of the two loads sees the other
// side's store.
//
// After (c) or (e) the worker is out of the parked set again and tells the
// monitor if it sleeps idle (leftParked).
func (w *worker) park() {
	rt := w.rt
	w.beginPark() // (a), (b)
	chaos.Point()
	if rt.workAvailable(w) { // (c)
		w.cancelPark()
		w.leftParked()
		w.recheckFound()
		return
	}
	w.m.parks.Add(1)                  // counter; relaxed
	w.parker.Park(rt.cfg.ParkTimeout) // (d)
	chaos.Point()
	w.woke = true
	w.endPark() // (e)
	w.leftParked()
}

// recheckFound is called when a park-time (or retire-time) re-check saw
// work and the worker goes back to searching. The work seen may be a batch
// another thief is still copying: a ring whose steal is in flight looks
// non-empty and refuses a second steal. A worker whose previous re-check
// also saw work, with no poll since, is spinning on park, re-check, steal,
// park: it yields, so that the copying thief can finish. (Found by the
// explorer: stranding/rendezvous-3 looped here for ever once the copying
// thief was not scheduled.) The first re-check does not yield: usually the
// work is there to take, and a Gosched on every such re-check cost
// spawn_many_remote_idle about 5% (a worker that parks between remote
// spawns re-checks into fresh work all the time).
func (w *worker) recheckFound() {
	if w.rechecked {
		sync.Gosched()
	}
	w.rechecked = true
}

// leftParked wakes the monitor if it sleeps idle, now that this worker has
// left the parked set. It is the worker's half of a Dekker pair with the
// monitor's decision to sleep idle (monitor.sleep): the worker clears its
// parked bit, then loads idle; the monitor stores idle, then loads the
// bitmap. Either the monitor sees the bit clear and does not sleep idle,
// or the worker sees idle set and wakes it. One load per wake, off the hot
// path.
func (w *worker) leftParked() {
	if tlatrace.On { // TLA+ trace (MonitorIdle): LoadIdle
		tlatrace.Lock()
	}
	// seq_cst: the load half of the Dekker pair above (the bit was
	// cleared by Unpark's or CancelPark's fetch-and, or by a notifier's).
	if w.rt.mon.sleepsIdle.LoadSeqCst() {
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "LoadIdle", Worker: w.index, OK: true})
		}
		chaos.Point()
		w.rt.mon.parker.Unpark()
	} else if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "LoadIdle", Worker: w.index, OK: false})
	}
}
