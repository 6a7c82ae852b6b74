package sched

import (
	"time"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// park puts a worker that found no work to sleep, following the corrected
// idle protocol (docs/scheduler.md):
//
//	(a) set the own parked bit and count the worker as parked,
//	(b) give the searching credit back, if it had one;
//	(c) re-check every queue another worker could take from (the global
//	    queue and every ring), whether or not this was the last searcher;
//	    if there is work, leave the parked set and go back as a searcher;
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
func (w *worker) park() {
	rt := w.rt
	timeout := rt.cfg.ParkTimeout
	if w.index == 0 {
		var due bool
		timeout, due = w.beginTimerPark(timeout)
		if due {
			return // a timer is due: next tick polls it
		}
		defer rt.timers.endPark()
	}
	w.setState(workerParked)
	rt.idle.Park(w.index, w.searching) // (a), (b)
	w.searching = false
	chaos.Point()
	if rt.workAvailable(w.index) { // (c)
		rt.idle.CancelPark(w.index)
		w.searching = true
		w.setState(workerSearching)
		return
	}
	w.m.parks.Add(1)       // counter; relaxed
	w.parker.Park(timeout) // (d)
	chaos.Point()
	w.woke = true
	if rt.idle.Unpark(w.index) { // (e)
		w.searching = true
		w.setState(workerSearching)
	} else {
		w.setState(workerRunning)
	}
}

// beginTimerPark is worker 0's timer part of parking: publish the deadline
// it will sleep until (so a Sleep adding an earlier timer unparks it) and
// bound the park timeout by the next timer. due reports a timer that is
// already due: do not park.
func (w *worker) beginTimerPark(timeout time.Duration) (time.Duration, bool) {
	rt := w.rt
	now := rt.now()
	limit := int64(noDeadline)
	if timeout > 0 {
		limit = now + int64(timeout)
	}
	deadline := rt.timers.beginPark(limit)
	if deadline == noDeadline {
		return 0, false
	}
	if deadline <= now {
		rt.timers.endPark()
		return 0, true
	}
	return time.Duration(deadline - now), false
}
