//go:build race || explore

package sched

import "fmt"

// checkSearching panics when the flag and the state disagree after a
// transition named what (see transitions.go): compiled into the race and
// explore builds, where the tests run. In the explore build it also checks
// the credit ledger.
func (w *worker) checkSearching(what string) {
	s := w.state.LoadRelaxed() // observes the owner's own store: relaxed
	if w.searching != (s == workerSearching) {
		panic(fmt.Sprintf("sched: worker %d %s: searching flag %v but state %s", w.index, what, w.searching, workerStateNames[s]))
	}
	w.rt.checkLedger(w.index, what)
}
