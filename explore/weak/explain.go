package weak

// What a trace needs to explain a read: the number of the last operation,
// so a caller can tie the store an operation wrote to its own step, and
// the store a thread's view of a location ends at, which says why the
// newer ones may be skipped.

// Events is the number of operations executed so far: the Seq of the
// store the last store or read-modify-write wrote.
func (m *Model) Events() int { return m.events }

// Known returns the oldest store of l that a read by t with ordering o
// may read: the newest one t's view must not read before (for a seq_cst
// read, the seq_cst frontier's too). ok is false when the history has
// forgotten it.
func (m *Model) Known(t Thread, l Loc, o Ordering) (c Candidate, ok bool) {
	ts := m.thread(t)
	x := m.loc(l)
	floor := ts.cur.at(l)
	if o == SeqCst {
		floor = max(floor, m.scFloor(l))
	}
	for i := range x.stores {
		if x.stores[i].pos == floor {
			return x.candidate(i), true
		}
	}
	return Candidate{}, false
}
