//go:build race

package goid

// Word is a 32-bit word that a race build keeps for its own bookkeeping
// (impl/sched's note of who released a task's edge, raceseen_race.go),
// with instructions the race detector does not see (unseen.go): through
// sync/atomic, each operation would be a call into the detector and, in a
// build that compiles the caller with the detector, a happens-before edge
// of its own, which the bookkeeping must not add. Its orderings are those
// of the instructions (named by each method); what the bookkeeping needs
// beyond them comes from the operations next to it.
type Word struct{ v uint32 }

// LoadAcquire returns the word.
func (w *Word) LoadAcquire() uint32 { return load32Acquire(&w.v) }

// CompareAndSwapAcqRel sets the word to new if it is old, and reports
// whether it did.
func (w *Word) CompareAndSwapAcqRel(old, new uint32) bool { return casRelaxed(&w.v, old, new) }

// SwapAcqRel sets the word to new and returns what it was.
func (w *Word) SwapAcqRel(new uint32) (old uint32) { return swap32AcqRel(&w.v, new) }
