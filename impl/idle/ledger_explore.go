//go:build explore

package idle

import "github.com/wsched/wsched/explore/atomic"

// claimLedger counts the notifiers between their claim of a parked worker
// (the bitmap's fetch-and, which the worker may see at once: its Unpark
// then reports claimed) and the searching credit they give it (the
// increment of num_searching a step later). Only the explore build keeps
// it: the scheduler's credit ledger (impl/sched, transitions.go) reads it
// with num_searching to tell a credit in flight from a missing one.
//
// Stat operations are not scheduling points, so begin follows the claim
// and end follows the increment with no other goroutine in between: under
// the explorer, num_searching plus the claims in flight changes in one step.
type claimLedger struct{ n atomic.StatInt32 }

func (l *claimLedger) begin() { l.n.Add(1) }
func (l *claimLedger) end()   { l.n.Add(-1) }

// Ledger returns num_searching and the number of claims whose credit is
// still in flight, read with no scheduling point between them or before
// them (explore build only).
func (s *State) Ledger() (searching, claiming int32) {
	return s.searching.Peek(), s.claims.n.Load()
}

// PeekBitmap returns the parked bitmap as memory holds it, the latest
// store, with no scheduling point and no operation of the weak-memory
// model (explore build only): a scenario's check of its premise, which
// must not branch on which store it reads.
func (s *State) PeekBitmap() uint64 { return s.bitmap.Peek() }
