package weak

import (
	"fmt"
	"slices"
)

// Loc names an atomic location of the model.
type Loc int

// Value is the value of an atomic location: the wrapper's own Go value
// (an int32, uint64, bool, or *T for a Pointer[T]), stored as it is.
// The model never computes with values; it compares them (a
// compare-and-swap's expected value, with ==) and hands them back, so the
// dynamic type must be comparable, and a wrapper always passes the same
// type for one location. An interface keeps pointers visible to the
// garbage collector and prints well in a trace; a uint64-and-pointer
// struct would save an allocation per store, which the explorer, running
// small scenarios, does not need.
type Value = any

// A location's stores, in modification order.
//
// Where a store goes in modification order is a choice, as C11 allows: by
// default last (after every store executed before it, as loom does), or,
// as the search decides, before some of the newest ones (Placements), as
// long as coherence holds: after every store the writing thread knows (its
// frontier: the stores that happen before it and the ones it read), as
// long as the seq_cst order stays acyclic (psc.go), and never between
// a read-modify-write and the store it read (atomicity). That is what 2+2W
// and the store-buffering of relaxed RMWs need. An RMW may likewise read a
// store other than the latest (RMWCandidates); its own store then goes
// right after the one it read.
//
// A store's position is a number that orders the location's stores: the
// first is 0, a store placed last gets the last one's plus 1, a store
// placed between two gets the midpoint. So the positions that views hold
// (view.go) stay valid when a store is placed before others, and a view's
// frontier compares with any store's position directly. Halving a gap 50
// times exhausts a float64's precision; a place that would need more is
// not offered (it takes a behaviour away, never adds one), and the bound
// on non-default choices (Config.MaxStale) keeps executions far from it.
//
// Only the newest Config.History stores are kept. A load may read any kept
// store at or after its thread's frontier for the location; forgetting the
// oldest only takes choices away, never adds an outcome C11 forbids.
type location struct {
	name string
	// namer, if set, names the location when its name is first asked
	// for (NewAtomicNamer), and is then cleared.
	namer  func() string
	stores []store // in modification order, oldest first
	// forgotten and forgottenF join the psc sources (psc.go) of the
	// stores forgotten, and of their reads: older than every kept one.
	forgotten, forgottenF []int
	// seen and seenF join the psc sources of every store to the location
	// and of every read of one, kept or forgotten: the sources of the mo
	// and fr edges into a store placed last (inAt), kept as they grow
	// (pscEvent) so that a store placed last does not join them again
	// from every kept store. Never handed out: inAt copies them.
	seen, seenF []int
}

// store is one store to a location (or the result of an RMW).
type store struct {
	val Value
	pos float64 // position in modification order: 0 is the initial value
	// msg is the view a read of this store may synchronise with: the
	// writer's view for a release store, the writer's last release fence
	// for a relaxed one, joined with the store it read for an RMW (a
	// release sequence continues through RMWs). nil: none.
	msg    *view
	writer Thread // -1: the initial value
	seq    int    // the model's operation number; 0 for the initial value
	// rmw: the store is an RMW's, which read the store just before it in
	// modification order; nothing may be placed between the two.
	rmw bool
	// info is the store's seq_cst bookkeeping (psc.go).
	info *storeInfo
}

// NewAtomic adds an atomic location holding init, and returns it. The
// initial value is treated as written before every thread's first
// operation (position 0 of the modification order, readable by all): the
// controller may register a location lazily, at its first access, with
// the zero value the Go memory held.
func (m *Model) NewAtomic(name string, init Value) Loc {
	l := Loc(len(m.locs))
	n := m.pool.locs.one()
	n.name, n.info.writer = name, -1
	n.stores = append(n.first[:0], store{val: init, writer: -1, info: &n.info})
	m.locs = append(m.locs, &n.location)
	return l
}

// newLocation is a location as made, with room for its first stores and
// its initial store's bookkeeping: one allocation, where a search makes
// locations in every run.
type newLocation struct {
	location
	first [2]store
	info  storeInfo
}

// NewAtomicNamer is NewAtomic with the name computed by namer when Name
// first asks for it: a controller that names a location by the code that
// first touched it (a walk of the stack) registers locations in every
// run, and asks for a name only to report one.
func (m *Model) NewAtomicNamer(namer func() string, init Value) Loc {
	l := m.NewAtomic("", init)
	m.locs[l].namer = namer
	return l
}

func (m *Model) loc(l Loc) *location {
	if l < 0 || int(l) >= len(m.locs) {
		panic(fmt.Sprintf("weak: no location %d", l))
	}
	return m.locs[l]
}

func (x *location) latest() *store { return &x.stores[len(x.stores)-1] }

// insert places s at index i of the kept stores (i = len: last), forgets
// the oldest beyond the history bound, and returns the stored s. The
// caller has checked with between that the place exists.
func (x *location) insert(p *pool, s store, i int, history int) *store {
	s.pos, _ = x.between(i)
	if len(x.stores) == cap(x.stores) { // room for every store it may keep, and the one before it forgets
		x.stores = p.stores.withRoom(x.stores, max(history, len(x.stores))+1)
	}
	x.stores = slices.Insert(x.stores, i, s)
	if n := len(x.stores) - history; n > 0 {
		for _, f := range x.stores[:n] {
			x.forgotten = p.joinSet(p.joinSet(x.forgotten, f.info.srcs), f.info.rsrcs)
			x.forgottenF = p.joinSet(p.joinSet(x.forgottenF, f.info.srcsF), f.info.rsrcsF)
		}
		x.stores = slices.Delete(x.stores, 0, n)
		i -= n
	}
	return &x.stores[i]
}

// between returns the position for a store placed at index i of the kept
// stores (after stores[i-1], before stores[i]; i = len: last), and false if
// there is none: i is 0 (before every kept store), the store at i is an
// RMW that read the one before (atomicity), or the gap is exhausted.
func (x *location) between(i int) (float64, bool) {
	if i <= 0 || i > len(x.stores) {
		return 0, false
	}
	prev := x.stores[i-1].pos
	if i == len(x.stores) {
		return prev + 1, true
	}
	if x.stores[i].rmw {
		return 0, false
	}
	mid := prev + (x.stores[i].pos-prev)/2
	return mid, mid > prev && mid < x.stores[i].pos
}

// Latest returns the value of l's newest store: what a Peek of the real
// memory returns, and the final value once every thread has ended.
func (m *Model) Latest(l Loc) Value { return m.loc(l).latest().val }

// Name returns the name l was registered with; a location registered
// with none is "location" and its number.
func (m *Model) Name(l Loc) string {
	x := m.loc(l)
	if x.namer != nil {
		x.name, x.namer = x.namer(), nil
	}
	if x.name == "" {
		return fmt.Sprintf("location %d", l)
	}
	return x.name
}

// index returns the index of st among x's kept stores.
func (x *location) index(st *store) int {
	for i := range x.stores {
		if &x.stores[i] == st {
			return i
		}
	}
	panic("weak: store not kept")
}
