package weak

// Fence is a fence of thread t with ordering o (Acquire, Release, AcqRel
// or SeqCst).
//
// An acquire fence takes the views of every store t read so far with
// relaxed reads: C11's "relaxed read, then acquire fence" synchronises
// with whatever release the read store carries. A release fence records
// t's view; t's later relaxed stores carry it, so "release fence, then
// relaxed store" is a release for whoever acquires that store. A seq_cst
// fence is both, and in between joins the seq_cst order (psc.go).
func (m *Model) Fence(t Thread, o Ordering) {
	checkFence(o)
	ts, ev := m.step(t)
	if o.Acquires() {
		ts.cur.join(m.pool, &ts.pending)
	}
	if o == SeqCst {
		m.pscEvent(ts, t, ev, -1, true, true, nil, nil, nil)
	}
	if o.Releases() {
		ts.fenced = m.cloneView(ts.cur)
	}
}
