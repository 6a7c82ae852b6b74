// Package idle is the scheduler's bookkeeping of idle workers: how many are
// searching for work, how many are parked, and which ones are parked (one bit
// per worker in a 64-bit word).
//
// It implements the corrected idle protocol (docs/scheduler.md):
//
//   - Notify (after a task was published): if nobody is searching, claim the
//     lowest parked worker; the claim clears its bit with one fetch-and and
//     hands it a searching credit.
//   - TransitionFromSearching: a searcher that found work gives its credit
//     back and learns whether it was the last one (then the caller notifies).
//   - Park: set the own bit, count the worker as parked, give the searching
//     credit back, in that order; the caller then re-checks every queue
//     another worker could take from.
//   - Unpark (the parked worker itself, after waking or after its re-check
//     found work): clear the own bit with one fetch-and; the RETURNED old
//     value says whether a notifier claimed us (credit given) or we cleared
//     it ourselves (spurious wake or timeout).
//
// The package only counts; it neither sleeps nor wakes anybody. The caller
// unparks the worker index Notify returns.
//
// Counters are signed on purpose. A notifier clears a bit first and adds the
// searching credit a moment later; the claimed worker may already run as a
// searcher in between and give the credit back first, so num_searching can
// be -1 for a moment. "Nobody is searching" is therefore tested as <= 0,
// never == 0.
//
// In the explore build the package also counts the claims in flight
// (between a notifier's fetch-and and its num_searching increment) and
// reports them with num_searching (Ledger), so that the scheduler can check
// that every worker that believes it searches holds a credit, given or in
// flight (impl/sched, transitions.go). Other builds keep no such count.
package idle
