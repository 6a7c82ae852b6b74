package weak

// What a trace needs to explain a read: the number of the last operation,
// so a caller can tie the store an operation wrote to its own step, and
// the store a thread's view of a location ends at, which says why the
// newer ones may be skipped.

// Events is the number of operations executed so far: the Seq of the
// store the last store or read-modify-write wrote.
func (m *Model) Events() int { return m.events }

// Known returns the oldest store of l that a read by t may read: the
// newest one t's view must not read before. (A seq_cst read may be kept
// from some older ones by the seq_cst order too, psc.go; Known does not
// say that part.) ok is false when the history has forgotten it.
func (m *Model) Known(t Thread, l Loc, o Ordering) (c Candidate, ok bool) {
	m.whole("Known")
	x := m.loc(l)
	i := m.oldest(t, l)
	if x.stores[i].pos != m.thread(t).cur.at(l) {
		return Candidate{}, false
	}
	return x.candidate(i), true
}
