package weak

import "github.com/wsched/wsched/explore/internal/vclock"

// The stores a read may read.
//
// A read of location l by thread t may read any kept store of l whose
// position is at or after t's frontier for l: no store hb-before the
// read, and no store read by a load hb-before it, may be newer than the
// one read (C11's write-read and read-read coherence). A store older than
// the latest is offered only if reading it keeps the seq_cst order
// acyclic (psc.go).
//
// The latest store always qualifies. Which one is read is not the
// model's decision: Candidates lists them, newest first, and the caller
// (the explorer's search, or PCT from its seed) passes the index of its
// choice to Load. Index 0, the latest store, is what a sequentially
// consistent memory would return; any other is a stale read, and the
// number of those per execution is bounded by Config.MaxStale.

// Candidate is a store a read may read.
type Candidate struct {
	Value Value
	// Writer is the thread that wrote it, -1 for the initial value.
	Writer Thread
	// Seq numbers the operation that wrote it, in the order the model
	// saw operations (1 is the first; 0 is the initial value), so a
	// trace can point at the step.
	Seq int
	// Age is how many stores to the location are newer: 0 for the
	// latest, so Age > 0 is a stale read.
	Age int
	// Swaps: a compare-and-swap that reads this store swaps
	// (CASChoices).
	Swaps bool
}

// Candidates returns the stores a load of l by t with ordering o may
// read, newest first. There is always at least one.
func (m *Model) Candidates(t Thread, l Loc, o Ordering) []Candidate {
	return m.CandidatesInto(nil, t, l, o)
}

// CandidatesInto is Candidates in dst's array (overwritten from its
// start, grown if need be): a controller that lists the candidates of
// every read keeps one slice for them. The same holds for
// RMWCandidatesInto, CASChoicesInto and PlacementsInto.
func (m *Model) CandidatesInto(dst []Candidate, t Thread, l Loc, o Ordering) []Candidate {
	checkLoad(o)
	return m.candidates(dst, t, l, o, nil)
}

// CASCandidates returns the stores a compare-and-swap of l by t may read:
// the latest store (the CAS succeeds if it holds expected, and fails
// reading it otherwise) and, as failed reads with the failure ordering,
// the older stores a load with that ordering could read whose value is
// not expected (a CAS that reads expected cannot fail, and succeeds only
// on the latest store: an RMW reads the store just before its own in
// modification order).
func (m *Model) CASCandidates(t Thread, l Loc, expected Value, failure Ordering) []Candidate {
	checkLoad(failure)
	return m.candidates(nil, t, l, failure, func(v Value) bool { return v != expected })
}

// candidates lists the readable stores of l, newest first; keep (if not
// nil) filters the stale ones.
func (m *Model) candidates(dst []Candidate, t Thread, l Loc, o Ordering, keep func(Value) bool) []Candidate {
	x := m.loc(l)
	last := len(x.stores) - 1
	out := append(dst[:0], x.candidate(last))
	if m.stale >= m.cfg.MaxStale {
		return out
	}
	for i, lo := last-1, m.oldest(t, l); i >= lo; i-- {
		if (keep == nil || keep(x.stores[i].val)) && m.readAllows(t, l, o, i, nil) {
			out = append(out, x.candidate(i))
		}
	}
	return out
}

// readAllows reports whether a read of stores[i] of l by t with ordering
// o (a stale one) keeps psc acyclic (psc.go); in is, for an RMW, the
// sources of the mo and fr edges into its store, going right after it.
func (m *Model) readAllows(t Thread, l Loc, o Ordering, i int, in []int) bool {
	ts := m.thread(t)
	x := m.loc(l)
	clock := ts.cur.clock
	if s := &x.stores[i]; o.Acquires() && s.msg != nil {
		clock = append(vclock.Clock(nil), clock...).Join(s.msg.clock)
	}
	return m.pscAllows(ts, t, l, o == SeqCst, clock, in, x.after(i+1))
}

// oldest returns the index of the oldest kept store of l that a read by t
// may read: t's frontier (coherence). The latest store always qualifies.
func (m *Model) oldest(t Thread, l Loc) int {
	ts := m.thread(t)
	x := m.loc(l)
	floor := ts.cur.at(l)
	i := len(x.stores) - 1
	for i > 0 && x.stores[i-1].pos >= floor {
		i--
	}
	return i
}

func (x *location) candidate(i int) Candidate {
	s := &x.stores[i]
	return Candidate{Value: s.val, Writer: s.writer, Seq: s.seq, Age: len(x.stores) - 1 - i}
}

// pick returns the store of l at candidate index i of list cands.
func (x *location) pick(cands []Candidate, i int) *store {
	if i < 0 || i >= len(cands) {
		panic("weak: candidate index out of range (the candidates changed between the call that listed them and the read)")
	}
	return &x.stores[len(x.stores)-1-cands[i].Age]
}

// RMWCandidates returns the stores a read-modify-write of l by t with
// ordering o may read, newest first: the latest, and, within the bound on
// stale choices, older ones its read could read that no RMW has read
// already (its store goes right after the one it reads, and nothing may
// come between an RMW and the store it read).
func (m *Model) RMWCandidates(t Thread, l Loc, o Ordering) []Candidate {
	return m.RMWCandidatesInto(nil, t, l, o)
}

// RMWCandidatesInto is RMWCandidates in dst's array (CandidatesInto).
func (m *Model) RMWCandidatesInto(dst []Candidate, t Thread, l Loc, o Ordering) []Candidate {
	checkRMW(o)
	x := m.loc(l)
	last := len(x.stores) - 1
	out := append(dst[:0], x.candidate(last))
	if m.stale >= m.cfg.MaxStale {
		return out
	}
	for i := last - 1; i >= m.oldest(t, l); i-- {
		if _, ok := x.between(i + 1); ok && m.readAllows(t, l, o, i, inOf(x.inAt(m.pool, i+1))) {
			out = append(out, x.candidate(i))
		}
	}
	return out
}

// CASChoices returns the stores a compare-and-swap of l by t may read,
// newest first, each marked Swaps if the CAS swaps reading it: a store
// holding expected, read with the success ordering, the CAS's store going
// right after it (so, as for an RMW, one no RMW has read); any other
// store it may read with the failure ordering, as a failed load. The
// latest is always first. Older ones count as stale choices, offered
// within their bound.
func (m *Model) CASChoices(t Thread, l Loc, expected Value, success, failure Ordering) []Candidate {
	return m.CASChoicesInto(nil, t, l, expected, success, failure)
}

// CASChoicesInto is CASChoices in dst's array (CandidatesInto).
func (m *Model) CASChoicesInto(dst []Candidate, t Thread, l Loc, expected Value, success, failure Ordering) []Candidate {
	checkRMW(success)
	checkLoad(failure)
	x := m.loc(l)
	last := len(x.stores) - 1
	first := x.candidate(last)
	first.Swaps = x.stores[last].val == expected
	out := append(dst[:0], first)
	if m.stale >= m.cfg.MaxStale {
		return out
	}
	for i := last - 1; i >= m.oldest(t, l); i-- {
		c := x.candidate(i)
		if x.stores[i].val == expected {
			if _, ok := x.between(i + 1); !ok || !m.readAllows(t, l, success, i, inOf(x.inAt(m.pool, i+1))) {
				continue
			}
			c.Swaps = true
		} else if !m.readAllows(t, l, failure, i, nil) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Placement is a place in a location's modification order where a store
// may go.
type Placement struct {
	// Before is how many of the location's stores are newer than the new
	// one: 0 places it last, the default.
	Before int
}

// Placements returns the places in l's modification order where a store
// by t with ordering o may go, last first. A store goes after every store
// t knows (its frontier: coherence) and, if seq_cst, after the seq_cst
// frontier; never between an RMW and the store it read. Places other
// than last count as stale choices, offered within their bound.
func (m *Model) Placements(t Thread, l Loc, o Ordering) []Placement {
	return m.PlacementsInto(nil, t, l, o)
}

// PlacementsInto is Placements in dst's array (CandidatesInto).
func (m *Model) PlacementsInto(dst []Placement, t Thread, l Loc, o Ordering) []Placement {
	checkStore(o)
	x := m.loc(l)
	out := append(dst[:0], Placement{0})
	if m.stale >= m.cfg.MaxStale {
		return out
	}
	ts := m.thread(t)
	for i := len(x.stores) - 1; i > m.oldest(t, l); i-- {
		if _, ok := x.between(i); ok && m.pscAllows(ts, t, l, o == SeqCst, ts.cur.clock, inOf(x.inAt(m.pool, i)), x.after(i)) {
			out = append(out, Placement{len(x.stores) - i})
		}
	}
	return out
}

func inOf(in, _ []int) []int { return in }
