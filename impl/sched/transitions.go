package sched

import (
	"fmt"

	"github.com/wsched/wsched/impl/internal/debugcheck"
)

// A worker's searching state, and the only code that changes it.
//
// Whether a worker searches is kept in three places:
//
//   - w.searching, the owner's flag, which decides what it does next;
//   - its searching credit, one unit of the idle state's num_searching,
//     which notifiers read before they skip a wake (a searcher will find
//     what they published);
//   - w.state, which Metrics shows and Shutdown reads.
//
// The transitions below are the only places that change the flag, and
// each moves the credit and the state with it:
//
//	becomeSearcher    running    -> searching  a credit under the 50% limit (findWork)
//	searchOnCredit    any        -> searching  a credit already taken for this worker:
//	                                           a notifier's claim, CancelPark's, AddSearcher's
//	resumeSearching   running    -> searching  an extra worker's retire-time re-check found
//	                                           work: a credit without the limit
//	foundWork         searching  -> running    Rule 2: the credit back, and a notify if it
//	                                           was the last (execute, handOff, exit)
//	stopSearching     searching  -> running    the credit back with no notify: a re-check of
//	                                           every queue follows (retire)
//	beginPark         any        -> parked     the parked bit, then the credit back (park)
//	cancelPark        parked     -> searching  the park-time re-check found work
//	endPark           parked     -> searching or running, by who cleared the bit
//
// The credit is taken before the flag is set, and the flag is cleared
// before the credit goes back. So at every instant each flagged worker
// holds a credit, given or in flight from a notifier that claimed it:
//
//	num_searching + claims in flight >= number of flagged workers
//
// and after a shutdown, when no goroutine is left to hold one, both
// sides are zero. The explore build checks the inequality after every
// transition and the zeros as the last goroutine exits (ledger_explore.go:
// num_searching is read without a scheduling point, so the explorer's
// interleavings cannot split the check); the explore and race builds check
// that the flag and the state agree (checkSearching, below). Every build
// can see the end of it: Metrics().Searching is 0 after Shutdown (the
// behaviour suite checks it after each of its runs).

// becomeSearcher takes a searching credit under the 50% limit.
func (w *worker) becomeSearcher() bool {
	if !w.rt.idle.TryBecomeSearcher() {
		return false
	}
	w.searchOnCredit()
	return true
}

// searchOnCredit makes w a searcher on a credit already held for it: the
// flag and the state, set once the credit is there.
func (w *worker) searchOnCredit() {
	w.searching = true
	w.rt.flagged(1)
	w.setState(workerSearching)
	w.checkSearching("searching")
}

// resumeSearching takes a credit without the limit and searches: a
// retiring extra worker whose re-check found work.
func (w *worker) resumeSearching() {
	w.rt.idle.AddSearcher()
	w.searchOnCredit()
}

// foundWork gives the credit back (Rule 2) and reports whether it was the
// last one: the caller then notifies, so that work published while it
// searched, whose publishers skipped their wake because of it, finds a
// worker. Only for a searcher.
func (w *worker) foundWork() (wasLast bool) {
	w.unmarkSearching(workerRunning)
	wasLast = w.rt.idle.TransitionFromSearching()
	w.checkSearching("found work")
	return wasLast
}

// stopSearching gives the credit back without asking whether it was the
// last: the caller re-checks every queue itself (retire), as a parker
// does. Only for a searcher.
func (w *worker) stopSearching() {
	w.unmarkSearching(workerRunning)
	w.rt.idle.StopSearching()
	w.checkSearching("stopped searching")
}

// unmarkSearching clears the flag before the credit goes back, and stores
// the worker's next state.
func (w *worker) unmarkSearching(next uint32) {
	w.searching = false
	w.rt.flagged(-1)
	w.setState(next)
}

// beginPark is park's (a) and (b): the parked state, the parked bit, and
// the credit back if it searched (the bit first: idle.State.Park).
func (w *worker) beginPark() {
	searching := w.searching
	if searching {
		w.unmarkSearching(workerParked)
	} else {
		w.setState(workerParked)
	}
	w.rt.idle.Park(w.index, searching)
	w.checkSearching("parked")
}

// cancelPark leaves the parked set after the park-time re-check found
// work, as a searcher: on the credit of a notifier that claimed it
// meanwhile, or on one it takes (idle.State.CancelPark).
func (w *worker) cancelPark() {
	w.rt.idle.CancelPark(w.index)
	w.searchOnCredit()
}

// endPark leaves the parked set after a sleep: a searcher if a notifier
// claimed it (and gave it a credit), running otherwise (a timeout, a
// spurious wake, Shutdown's token).
func (w *worker) endPark() {
	if w.rt.idle.Unpark(w.index) {
		w.searchOnCredit()
		return
	}
	w.setState(workerRunning)
	w.checkSearching("woke unclaimed")
}

// checkSearching panics when the flag and the state disagree after a
// transition named what. Only the race and explore builds check, where
// the tests run; elsewhere it is empty. In the explore build it also
// checks the credit ledger.
func (w *worker) checkSearching(what string) {
	if debugcheck.On {
		s := w.state.LoadRelaxed() // observes the owner's own store: relaxed
		if w.searching != (s == workerSearching) {
			panic(fmt.Sprintf("sched: worker %d %s: searching flag %v but state %s", w.index, what, w.searching, workerStateNames[s]))
		}
		w.rt.checkLedger(w.index, what)
	}
}
