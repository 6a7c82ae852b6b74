// Package debugcheck says, as constants, which of the builds that check
// the scheduler's own rules this is: Race (built with -race, where users
// run their tests) and Explore (the explore tag, where the explorer runs
// the scenarios). On is either.
//
// A check that only those builds make is written in one place, under the
// constant, as Go's runtime writes its race-detector code
// (`if raceenabled {...}`):
//
//	func (w *worker) checkSearching(what string) {
//		if debugcheck.On {
//			...
//		}
//	}
//
// The condition is a constant, so the compiler drops the statement from
// the other builds before it inlines anything: there the function is
// empty at every call site, as the empty half of a build-tag pair of
// files was, and the production build's machine code is unchanged
// (cmd/samecode checks it). One file and an if say what the pair said
// twice.
//
// What it is not: a switch for state that only those builds keep. A
// field that exists in one build and not in another (the words of the
// race build's owner checks, the explore build's credit ledgers) changes
// the layout of the struct around it, which no constant can do; those
// types stay in build-tag pairs of their own (internal/goid,
// internal/goid, ledger_explore.go in impl/sched and impl/idle), and the
// code that uses them is what the constant guards. Nor is it for the
// explore build's stand-ins for what the explorer cannot run (the futex
// system calls of impl/park): those call the explorer, which the other
// builds do not link.
package debugcheck

// On reports whether this build checks the scheduler's own rules: a
// build with the race detector or with the explore tag.
const On = Race || Explore
