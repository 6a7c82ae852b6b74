package weak

// The atomic operations. Each is one operation of one thread, executed
// whole: the controller calls it after its scheduling point, with the
// goroutine chosen to run.

// Load is a load of l by t with ordering o that reads candidate pick of
// Candidates(t, l, o) (0: the latest store), and returns its value.
//
// The thread's frontier for l moves up to the store read (later reads
// cannot read older ones). An acquire or seq_cst load takes the view the
// store carries (synchronises with its release); a relaxed one keeps it
// for a later acquire fence.
func (m *Model) Load(t Thread, l Loc, o Ordering, pick int) Value {
	return m.LoadFrom(t, l, o, m.Candidates(t, l, o), pick)
}

// LoadFrom is Load given cands, the list Candidates(t, l, o) returned
// with nothing done to the model since: a controller that has listed
// the candidates to choose among does not have them listed again.
func (m *Model) LoadFrom(t Thread, l Loc, o Ordering, cands []Candidate, pick int) Value {
	return m.read(t, l, o, cands, pick).val
}

// read performs a read of candidate pick as a load with ordering o.
func (m *Model) read(t Thread, l Loc, o Ordering, cands []Candidate, pick int) *store {
	x := m.loc(l)
	s := x.pick(cands, pick)
	if cands[pick].Age > 0 {
		m.choseStale()
	}
	ts, ev := m.stepAt(t, l)
	ts.observe(m.pool, l, s, o)
	m.pscEvent(ts, t, ev, l, o == SeqCst, false, s, nil, x.after(len(x.stores)-cands[pick].Age))
	return s
}

// observe is the reading half of every read: coherence and, by ordering,
// synchronisation.
func (ts *threadState) observe(p *pool, l Loc, s *store, o Ordering) {
	ts.cur.raise(p, l, s.pos)
	if o.Acquires() {
		ts.cur.join(p, s.msg)
	} else {
		ts.pending.join(p, s.msg)
	}
}

// Store is a store of v to l by t with ordering o. It goes last in l's
// modification order. A release or seq_cst store carries t's whole view;
// a relaxed one carries t's view at its last release fence, if any.
func (m *Model) Store(t Thread, l Loc, o Ordering, v Value) {
	m.StoreAt(t, l, o, v, 0)
}

// StoreAt is Store placed at Placements(t, l, o)[pick] in l's
// modification order (0: last). It reports whether the store went last,
// the one a memory that holds the latest value holds.
func (m *Model) StoreAt(t Thread, l Loc, o Ordering, v Value, pick int) (last bool) {
	return m.StoreFrom(t, l, o, v, m.Placements(t, l, o), pick)
}

// StoreFrom is StoreAt given places, the list Placements(t, l, o)
// returned with nothing done to the model since.
func (m *Model) StoreFrom(t Thread, l Loc, o Ordering, v Value, places []Placement, pick int) (last bool) {
	if pick < 0 || pick >= len(places) {
		panic("weak: placement index out of range (the placements changed between the call that listed them and the store)")
	}
	x := m.loc(l)
	if places[pick].Before > 0 {
		m.choseStale()
	}
	ts, ev := m.stepAt(t, l)
	st := m.write(t, ts, l, x, o, v, nil, len(x.stores)-places[pick].Before)
	m.pscEvent(ts, t, ev, l, o == SeqCst, false, nil, st, x.after(x.index(st)+1))
	return places[pick].Before == 0
}

// write is the writing half of every store and RMW: the new store goes at
// index at of l's kept stores and carries the view that o releases,
// joined with inherited (the view of the store an RMW read: a release
// sequence continues through RMWs). It returns the new store.
func (m *Model) write(t Thread, ts *threadState, l Loc, x *location, o Ordering, v Value, inherited *view, at int) *store {
	pos, ok := x.between(at)
	if !ok {
		panic("weak: no place in modification order at the index chosen")
	}
	ts.cur.raise(m.pool, l, pos)
	var in, inF []int
	if !m.pool.lean { // the sources of its mo and fr edges, for psc alone
		in, inF = x.inAt(m.pool, at)
		ts.cur.pin = m.pool.joinSet(ts.cur.pin, in)
	}
	var own *view
	if o.Releases() {
		own = ts.cur
	} else {
		own = ts.fenced
	}
	// A store's view is never changed once made: an RMW that releases
	// nothing of its own shares the one it inherits.
	var msg *view
	switch {
	case inherited == nil && own == nil:
	case own == nil:
		msg = inherited
	case inherited == nil:
		msg = m.cloneView(own)
	default:
		msg = m.cloneView(inherited)
		msg.join(m.pool, own)
	}
	info := m.newInfo()
	info.in, info.inF = in, inF
	return x.insert(m.pool, store{val: v, msg: msg, writer: t, seq: m.events, info: info}, at, m.cfg.History)
}

// RMW is an atomic read-modify-write of l by t with ordering o (Swap,
// Add, And, Or) that reads the latest store and writes f of its value
// after it; it returns the value read. Its read is acquire for Acquire,
// AcqRel and SeqCst, its write release for Release, AcqRel and SeqCst;
// either way the store it writes continues the release sequence of the
// store it read.
func (m *Model) RMW(t Thread, l Loc, o Ordering, f func(old Value) Value) (old Value) {
	old, _ = m.RMWAt(t, l, o, 0, f)
	return old
}

// RMWAt is RMW reading candidate pick of RMWCandidates(t, l, o) (0: the
// latest store). Its store goes right after the one it read (atomicity:
// nothing between the two in modification order). It returns the value
// read and whether its store went last.
func (m *Model) RMWAt(t Thread, l Loc, o Ordering, pick int, f func(old Value) Value) (old Value, last bool) {
	return m.RMWFrom(t, l, o, m.RMWCandidates(t, l, o), pick, f)
}

// RMWFrom is RMWAt given cands, the list RMWCandidates(t, l, o) returned
// with nothing done to the model since.
func (m *Model) RMWFrom(t Thread, l Loc, o Ordering, cands []Candidate, pick int, f func(old Value) Value) (old Value, last bool) {
	x := m.loc(l)
	s := *x.pick(cands, pick)
	at := len(x.stores) - cands[pick].Age
	if cands[pick].Age > 0 {
		m.choseStale()
	}
	ts, ev := m.stepAt(t, l)
	ts.observe(m.pool, l, &s, o)
	st := m.writeRMW(t, ts, l, x, o, f(s.val), s.msg, at)
	m.pscEvent(ts, t, ev, l, o == SeqCst, false, &s, st, x.after(x.index(st)+1))
	return s.val, cands[pick].Age == 0
}

// writeRMW is write for the store of an RMW, marked as such.
func (m *Model) writeRMW(t Thread, ts *threadState, l Loc, x *location, o Ordering, v Value, inherited *view, at int) *store {
	st := m.write(t, ts, l, x, o, v, inherited, at)
	st.rmw = true
	return st
}

// CompareAndSwap is a strong compare-and-swap of l by t: it reads
// candidate pick of CASCandidates(t, l, expected, failure). If that is
// the latest store and holds expected, it is an RMW with ordering success
// that writes new; otherwise it is a load with ordering failure (a failed
// CAS writes nothing, so it may read a stale store like any load). It
// returns the value read and whether it swapped.
func (m *Model) CompareAndSwap(t Thread, l Loc, expected, new Value, success, failure Ordering, pick int) (old Value, swapped bool) {
	checkRMW(success)
	cands := m.CASCandidates(t, l, expected, failure)
	x := m.loc(l)
	if pick == 0 && x.latest().val == expected {
		m.RMW(t, l, success, func(Value) Value { return new })
		return expected, true
	}
	return m.read(t, l, failure, cands, pick).val, false
}

// CompareAndSwapAt is a strong compare-and-swap of l by t that reads
// candidate pick of CASChoices(t, l, expected, success, failure): if the
// candidate Swaps, an RMW with ordering success that writes new right
// after it; otherwise a load with ordering failure. It returns the value
// read, whether it swapped, and whether a store it made went last.
func (m *Model) CompareAndSwapAt(t Thread, l Loc, expected, new Value, success, failure Ordering, pick int) (old Value, swapped, last bool) {
	return m.CompareAndSwapFrom(t, l, new, success, failure, m.CASChoices(t, l, expected, success, failure), pick)
}

// CompareAndSwapFrom is CompareAndSwapAt given cands, the list
// CASChoices(t, l, expected, success, failure) returned with nothing done
// to the model since (which of them swap says what expected was).
func (m *Model) CompareAndSwapFrom(t Thread, l Loc, new Value, success, failure Ordering, cands []Candidate, pick int) (old Value, swapped, last bool) {
	x := m.loc(l)
	c := cands[pick]
	if !c.Swaps {
		return m.read(t, l, failure, cands, pick).val, false, false
	}
	s := *x.pick(cands, pick)
	at := len(x.stores) - c.Age
	if c.Age > 0 {
		m.choseStale()
	}
	ts, ev := m.stepAt(t, l)
	ts.observe(m.pool, l, &s, success)
	st := m.writeRMW(t, ts, l, x, success, new, s.msg, at)
	m.pscEvent(ts, t, ev, l, success == SeqCst, false, &s, st, x.after(x.index(st)+1))
	return s.val, true, c.Age == 0
}
