package weak

// A search makes a Model for every run and, at almost every step of it,
// store bookkeeping, seq_cst nodes, views with their clocks, frontiers
// and pins, and sets of seq_cst events: 128 KB a run of
// stranding/extra-worker when each was allocated alone, 21% of its CPU
// (docs/explore.md, "the model's memory"). A Model hands these out of
// blocks (pool), and NewFrom gives a finished run's blocks to the next
// run's Model, which hands them out again: the blocks are made once per
// search, not once per run.
//
// Nothing may hold what a Model handed out once the Model is given to
// NewFrom: the engine gives it only a run that passed and was not traced,
// after everyone who looks at a run did (driver.go, runOnce).

// pool is the blocks a Model hands out.
type pool struct {
	infos  slabs[storeInfo]
	locs   slabs[newLocation]
	stores slabs[store] // a location's kept stores, once more than its first two
	nodes  slabs[scNode]
	succs  slabs[*scNode]
	views  slabs[view]
	clocks slabs[uint32]
	fronts slabs[float64]
	ints   slabs[int]   // the sets of SC events (psc.go) and views' pins
	refs   slabs[evRef] // a store's readers (storeInfo.readers)
	// lean says the execution whose Model hands these out made its last
	// stale choice and is not traced: what only stale choices read is no
	// longer kept, and views join, copy and raise their clocks alone
	// (lastchoice.go). Here, not in the Model, because views reach the
	// pool and not the Model.
	lean bool
}

// newPool returns a pool with no block yet. Block sizes, in elements: a
// run of a runtime scenario makes hundreds of stores, views and SC
// events, each view a clock, frontier and pin of a few to a few dozen
// elements.
func newPool() *pool {
	p := &pool{}
	p.infos.n, p.locs.n, p.stores.n, p.nodes.n, p.views.n = 32, 8, 256, 32, 32
	p.succs.n, p.clocks.n, p.fronts.n, p.ints.n, p.refs.n = 1024, 1024, 1024, 1024, 1024
	return p
}

// rewind makes every block free again, for a new run's Model.
func (p *pool) rewind() {
	p.lean = false
	p.infos.rewind()
	p.locs.rewind()
	p.stores.rewind()
	p.nodes.rewind()
	p.succs.rewind()
	p.views.rewind()
	p.clocks.rewind()
	p.fronts.rewind()
	p.ints.rewind()
	p.refs.rewind()
}

// slabs hands out elements of T from blocks of n it keeps: the blocks of
// blocks[:used] are handed out (the last in part), free is the rest of
// the last, and blocks[used:] are blocks of an earlier run to hand out
// again.
type slabs[T any] struct {
	n      int
	blocks [][]T
	used   int
	free   []T
}

// refill makes free a block, zero: the next one made before, or a new one.
func (s *slabs[T]) refill() {
	if s.used < len(s.blocks) {
		s.free = s.blocks[s.used]
		clear(s.free)
	} else {
		s.free = make([]T, s.n)
		s.blocks = append(s.blocks, s.free)
	}
	s.used++
}

func (s *slabs[T]) rewind() { s.used, s.free = 0, nil }

// one returns a zero element.
func (s *slabs[T]) one() *T {
	if len(s.free) == 0 {
		s.refill()
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// room returns k zero elements, adjacent, their capacity k, from the last
// block or, if it has fewer left, the next; a k above a block's size is
// allocated on its own. Only the slice returned writes them: each is cut
// from its block once.
func (s *slabs[T]) room(k int) []T {
	if k > s.n {
		return make([]T, k)
	}
	if len(s.free) < k {
		s.refill()
	}
	out := s.free[:k:k]
	s.free = s.free[k:]
	return out
}

// roomFor is the capacity given to a slice of n that may grow: a quarter
// more, in steps of 8 (a set or frontier grows an element at a time).
func roomFor(n int) int {
	if n == 0 {
		return 0
	}
	return (n + n/4 + 7) &^ 7
}

// grow returns a with length n, its elements from len(a) on zero: in
// place if its capacity allows, as append would, else moved into a block
// with room to grow further.
func (s *slabs[T]) grow(a []T, n int) []T {
	if n <= len(a) {
		return a
	}
	if n <= cap(a) {
		b := a[:n]
		clear(b[len(a):])
		return b
	}
	b := s.room(roomFor(n))[:n]
	copy(b, a)
	return b
}

// copyOf returns a copy of src in a block, with room to grow (nil if src
// is empty).
func (s *slabs[T]) copyOf(src []T) []T {
	return s.withRoom(src, roomFor(len(src)))
}

// withRoom returns a copy of src in a block, with room for at least c
// elements without moving (nil if both are 0).
func (s *slabs[T]) withRoom(src []T, c int) []T {
	if len(src) == 0 && c == 0 {
		return nil
	}
	b := s.room(max(len(src), c))[:len(src)]
	copy(b, src)
	return b
}

// newView returns a view, empty.
func (m *Model) newView() *view { return m.pool.views.one() }

// cloneView returns a copy of v.
func (m *Model) cloneView(v *view) *view {
	c := m.newView()
	c.clock = m.pool.clocks.copyOf(v.clock)
	if !m.pool.lean {
		c.frontier = m.pool.fronts.copyOf(v.frontier)
		c.pin = m.pool.ints.copyOf(v.pin)
	}
	return c
}

// joinSet makes a the union of the sets a and b (a set of SC events: per
// thread, the highest index of its events in the set).
func (p *pool) joinSet(a, b []int) []int { return joinMax(&p.ints, a, b) }

// joinFrontier makes a the position of the latest store of each location
// known in a or b.
func (p *pool) joinFrontier(a, b []float64) []float64 { return joinMax(&p.fronts, a, b) }

// joinMax makes a the elementwise maximum of a and b, growing a in s.
func joinMax[T int | float64](s *slabs[T], a, b []T) []T {
	a = s.grow(a, len(b))
	for i, x := range b {
		a[i] = max(a[i], x)
	}
	return a
}

// joinOne makes a the union of a and the set of thread u's SC events up
// to index idx.
func (p *pool) joinOne(a []int, u, idx int) []int {
	a = p.ints.grow(a, u+1)
	a[u] = max(a[u], idx)
	return a
}
