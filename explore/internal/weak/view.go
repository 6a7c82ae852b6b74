package weak

import "github.com/wsched/wsched/explore/internal/vclock"

// A view is what one point of an execution knows, in two parts.
//
// clock is a vector clock over the threads (explore/internal/vclock, the one the
// reduced search keeps too): clock[u] is the number of the latest event of
// thread u that happens before this point. It is what the plain cells are
// checked against (an access happens before this point iff its thread's
// entry here has reached it), as loom's VersionVec and every vector-clock
// race detector do.
//
// frontier is per location: frontier[l] is the position in l's
// modification order (location.go: a number that orders l's stores) of the
// newest store to l that this point must not read before. A store hb-before the point puts it there (write-read
// coherence), and so does a store read by a load hb-before the point
// (read-read coherence); a load may read only stores at or after it. This
// is the "view" of the promising semantics (Kang et al., POPL 2017) and of
// the view-based presentations of release/acquire: the vector clock says
// which events are ordered before, the frontier what that forbids reading.
//
// The two travel together through every synchronisation (a release store
// carries a copy of both, an acquire load joins both), and so does pin,
// what the seq_cst order (psc.go) needs to know of the events before.
// The seq_cst order itself creates no happens-before: the plain cells do
// not see it.
//
// Entries beyond a slice's length are zero: clock 0 is "nothing of that
// thread", frontier 0 is a location's initial value, which every thread
// may read until it knows a newer store.
type view struct {
	clock    vclock.Clock
	frontier []float64
	// pin is the sources of the psc edges that enter, through mo, fr or
	// eco, the events that happen before this point (psc.go).
	pin []int
}

// join makes v the least upper bound of v and w (w may be nil: nothing),
// growing v's slices in p.
func (v *view) join(p *pool, w *view) {
	if w == nil {
		return
	}
	v.clock = vclock.Clock(p.clocks.grow(v.clock, len(w.clock))).Join(w.clock)
	if p.lean {
		return
	}
	v.frontier = p.joinFrontier(v.frontier, w.frontier)
	v.pin = p.joinSet(v.pin, w.pin)
}

func (v *view) at(l Loc) float64 {
	if int(l) < len(v.frontier) {
		return v.frontier[l]
	}
	return 0
}

// raise records that the store at position pos of l is known here,
// growing the frontier in p.
func (v *view) raise(p *pool, l Loc, pos float64) {
	if p.lean {
		return
	}
	v.frontier = p.fronts.grow(v.frontier, int(l)+1)
	v.frontier[l] = max(v.frontier[l], pos)
}

func (v *view) time(t Thread) uint32 { return v.clock.At(int(t)) }

// tick starts a new event of thread t and returns its number.
func (v *view) tick(t Thread) uint32 {
	var n uint32
	v.clock, n = v.clock.Tick(int(t))
	return n
}

// A View is a snapshot of one thread's view, for synchronisation the
// controller sees outside the atomics (a value sent on a channel carries
// the sender's; see sync.go). It is immutable once taken.
type View struct{ v *view }
