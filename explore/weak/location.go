package weak

import "fmt"

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
// Modification order is the order in which the stores were executed: a
// store goes after every store before it (loom does the same). C11 allows
// more: a store may be ordered before a store executed earlier, as long as
// coherence holds. The outcomes that need that (2+2W) are therefore never
// produced; see doc.go.
//
// Only the newest Config.History stores are kept. A load may read any kept
// store at or after its thread's frontier for the location; forgetting the
// oldest only takes choices away, never adds an outcome C11 forbids.
type location struct {
	name   string
	stores []store // oldest first; stores[i] has position base+i
	base   int
}

// store is one store to a location (or the result of an RMW).
type store struct {
	val Value
	pos int // position in modification order: 0 is the initial value
	// msg is the view a read of this store may synchronise with: the
	// writer's view for a release store, the writer's last release fence
	// for a relaxed one, joined with the store it read for an RMW (a
	// release sequence continues through RMWs). nil: none.
	msg    *view
	writer Thread // -1: the initial value
	seq    int    // the model's operation number; 0 for the initial value
}

// NewAtomic adds an atomic location holding init, and returns it. The
// initial value is treated as written before every thread's first
// operation (position 0 of the modification order, readable by all): the
// controller may register a location lazily, at its first access, with
// the zero value the Go memory held.
func (m *Model) NewAtomic(name string, init Value) Loc {
	l := Loc(len(m.locs))
	m.locs = append(m.locs, &location{name: name, stores: []store{{val: init, writer: -1}}})
	return l
}

func (m *Model) loc(l Loc) *location {
	if l < 0 || int(l) >= len(m.locs) {
		panic(fmt.Sprintf("weak: no location %d", l))
	}
	return m.locs[l]
}

func (x *location) latest() *store { return &x.stores[len(x.stores)-1] }

// append adds s after every store so far and forgets the oldest beyond
// the history bound.
func (x *location) append(s store, history int) {
	s.pos = x.latest().pos + 1
	x.stores = append(x.stores, s)
	if n := len(x.stores) - history; n > 0 {
		x.stores = append(x.stores[:0], x.stores[n:]...)
		x.base += n
	}
}

// Latest returns the value of l's newest store: what a Peek of the real
// memory returns, and the final value once every thread has ended.
func (m *Model) Latest(l Loc) Value { return m.loc(l).latest().val }

// Name returns the name l was registered with.
func (m *Model) Name(l Loc) string { return m.loc(l).name }
