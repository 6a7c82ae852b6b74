package weak

// The seq_cst order, as RC11 defines it: psc must be acyclic.
//
// RC11 (Lahav, Vafeiadis, Kang, Hur and Dreyer, "Repairing sequential
// consistency in C/C++11", PLDI 2017; C++20 adopted it as P0668) orders
// the seq_cst events (SC accesses and SC fences) by psc = psc_base ∪
// psc_F:
//
//	psc_base  ([E_sc] ∪ [F_sc]; hb?); scb; ([E_sc] ∪ hb?; [F_sc])
//	psc_F     [F_sc]; (hb ∪ hb; eco; hb); [F_sc]
//	scb       sb ∪ sb|≠loc; hb; sb|≠loc ∪ hb|loc ∪ mo ∪ fr
//
// and asks only that it be acyclic: the order is any that extends it, not
// the order in which the events execute. This file keeps psc as a graph
// over the execution's SC events and offers a stale choice (a read of an
// older store, a store placed before newer ones) only if the edges it adds
// leave the graph acyclic.
//
// Edges that point forwards, from events already executed to the new
// one, cannot close a cycle, and every edge into a new event is one:
//
//   - into an SC access B: from the SC events before it in its thread
//     (sb), the SC accesses to its location that happen before it
//     (hb|loc), the SC events A whose thread's first later event on
//     another location happens before B's thread's last earlier event on
//     another location (sb|≠loc; hb; sb|≠loc), the SC fences that happen
//     before it ([F_sc]; hb; sb or hb|loc into B), and, for a store, from
//     the sources of every store before it in modification order and of
//     every read of those (mo, fr);
//   - into an SC fence B: from every SC event that happens before it,
//     and from the sources of the mo, fr and eco edges into the events
//     that happen before it (the view's pin, below).
//
// The sources of an event e are the SC fences that happen before it and,
// if it is an SC event, e itself: an edge of scb from e to e2 is a psc
// edge from each of them to e2 if e2 is an SC event, and to each SC fence
// e2 happens before; an edge of eco is one from the fences to those
// fences. A thread's view carries, as pin, the sources of the mo, fr and
// eco edges into everything that happens before it, so an SC fence finds
// its predecessors there.
//
// A stale choice adds edges backwards: a read of a store s older than the
// latest reads before every store t newer than s (fr), a store placed
// before newer stores t precedes them (mo). Each t, if an SC store, and
// each SC fence that t or a read of t happens before, then gets an edge
// from the new event's sources; the choice is offered only if none of
// them already reaches a source in the graph. For SC fences that come
// later the edge is kept (deferred) and added when they are made.
//
// A choice is offered exactly when the execution stays consistent: every
// prefix of an RC11-consistent execution along program order and
// reads-from is consistent, so whatever order the events execute in, the
// model reaches every consistent execution, and none other. The litmus
// tests check it against the oracle (explore/internal/weak/rc11), on the tests of
// GenMC's suite and on programs rapid draws. In particular the store
// buffering outcome that loom reports as a false alarm (tokio-rs/loom#180:
// seq_cst as acquire-release) is forbidden exactly when RC11 forbids it.
//
// Sets of SC events are kept as a number per thread, the highest index of
// the thread's SC events in the set: all the earlier ones are in it too,
// which changes no cycle, since the earlier ones precede the later in psc
// (sb). Each node keeps the same for the nodes that reach it (reach); an
// edge into a node raises its reach and that of the nodes after it.

// scNode is one SC event.
type scNode struct {
	thread Thread
	idx    int    // 1 + its index among the thread's SC events
	ev     uint32 // its event number in the thread (the thread's clock)
	fence  bool
	loc    Loc      // the location of an access
	clock  []uint32 // for a fence: what happens before it, itself included
	// next is the event number of the thread's first later event on
	// another location (0: none yet): the start of sb|≠loc from it.
	next  uint32
	reach []int // per thread, the highest index of an SC event that reaches it
	succ  []*scNode
}

// storeInfo is the seq_cst bookkeeping of one store, kept apart from the
// store (stores move in their location's slice).
type storeInfo struct {
	writer Thread
	ev     uint32
	node   *scNode // the store's SC event, if it is one
	// srcs and srcsF are the writing event's sources, with and without
	// its own SC event; rsrcs and rsrcsF the same joined over the reads
	// of the store.
	srcs, srcsF, rsrcs, rsrcsF []int
	// in and inF are the sources of the mo and fr edges into the store
	// when it was made (inF: fences only); a read of it takes inF and
	// srcsF into its view's pin (eco: rf).
	in, inF []int
	readers []evRef // each reading thread's first read (readBy)
}

type evRef struct {
	thread Thread
	ev     uint32
}

// deferred is a backward edge for SC fences made later: from all and
// fences to each fence that info's store happens before (all), or that
// a read of it happens before (fences).
type deferred struct {
	info       *storeInfo
	all, fence []int
}

// pscState is the graph.
type pscState struct {
	pool  *pool       // the Model's (pool.go): nodes, their succ, the sets of SC events
	nodes [][]*scNode // per thread
	// fences are the SC fences among nodes, per thread, in the same
	// order: most executions have few or none, and fencesBefore and sinks
	// look at fences only.
	fences   [][]*scNode
	deferred []deferred
}

func (p *pscState) thread(t Thread) []*scNode {
	for len(p.nodes) <= int(t) {
		p.nodes = append(p.nodes, nil)
	}
	return p.nodes[t]
}

// node returns thread u's SC event with index idx (1-based), or nil.
func (p *pscState) node(u, idx int) *scNode {
	if idx <= 0 || u >= len(p.nodes) || idx > len(p.nodes[u]) {
		return nil
	}
	return p.nodes[u][idx-1]
}

func hbBefore(clock []uint32, t Thread, ev uint32) bool {
	return t >= 0 && int(t) < len(clock) && clock[t] >= ev
}

// fencesBefore returns the SC fences that happen before a point with
// clock clock.
func (p *pscState) fencesBefore(clock []uint32) []int {
	var out []int
	for u, fs := range p.fences {
		for i := len(fs) - 1; i >= 0; i-- {
			if n := fs[i]; hbBefore(clock, Thread(u), n.ev) {
				if out == nil { // room for every thread's: one allocation
					out = p.pool.ints.withRoom(nil, len(p.fences))
				}
				out = p.pool.joinOne(out, u, n.idx)
				break
			}
		}
	}
	return out
}

// fencesBeforeOf is fencesBefore(clock) for clock, the clock of thread
// state ts's next event: ts's clock only grows, and fences are only
// added, so each thread's fences that happen before it stay a growing
// prefix, which ts counts (fenceSeen) instead of looking back over the
// fences at every event; the set made of them (fenceSet) is returned
// again while none joins it (a set once made is not changed: two events
// may share one).
func (p *pscState) fencesBeforeOf(ts *threadState, clock []uint32) []int {
	changed := false
	for u, fs := range p.fences {
		if u == len(ts.fenceSeen) {
			ts.fenceSeen = append(ts.fenceSeen, 0)
		}
		i := ts.fenceSeen[u]
		for i < len(fs) && hbBefore(clock, Thread(u), fs[i].ev) {
			i++
		}
		if i != ts.fenceSeen[u] {
			ts.fenceSeen[u], changed = i, true
		}
	}
	if changed {
		out := p.pool.ints.withRoom(nil, len(p.fences))
		for u, i := range ts.fenceSeen {
			if i > 0 {
				out = p.pool.joinOne(out, u, p.fences[u][i-1].idx)
			}
		}
		ts.fenceSet = out
	}
	return ts.fenceSet
}

// closure returns the SC events that reach some event of set s.
func (p *pscState) closure(s []int) []int {
	var out []int
	for u, idx := range s {
		if n := p.node(u, idx); n != nil {
			if out == nil {
				out = p.pool.ints.withRoom(nil, len(p.nodes))
			}
			out = p.pool.joinSet(out, n.reach)
		}
	}
	return out
}

func inSet(s []int, n *scNode) bool { return int(n.thread) < len(s) && s[n.thread] >= n.idx }

// accessPreds returns the SC events with a psc edge into a new SC access
// to l by thread t: clock is what happens before it, prv the clock of
// t's last earlier event on another location, in the sources of the mo
// and fr edges into it.
func (p *pscState) accessPreds(t Thread, l Loc, clock, prv []uint32, in []int) []int {
	preds := p.pool.ints.withRoom(in, len(p.nodes))
	for u, ns := range p.nodes {
		best := 0
		for i := len(ns) - 1; i >= 0 && best == 0; i-- {
			n := ns[i]
			hb := hbBefore(clock, Thread(u), n.ev)
			switch {
			case Thread(u) == t: // sb
				best = n.idx
			case hb && (n.fence || n.loc == l): // [F_sc]; hb, hb|loc
				best = n.idx
			case n.next != 0 && hbBefore(prv, Thread(u), n.next): // sb|≠loc; hb; sb|≠loc
				best = n.idx
			}
		}
		if best > 0 {
			preds = p.pool.joinOne(preds, u, best)
		}
	}
	return preds
}

// fencePreds returns the SC events with a psc edge into a new SC fence:
// every SC event that happens before it, the sources in pin, and the
// deferred edges whose store, or a read of it, happens before it.
func (p *pscState) fencePreds(clock []uint32, pin []int) []int {
	preds := p.pool.ints.withRoom(pin, len(p.nodes))
	for u, ns := range p.nodes {
		for i := len(ns) - 1; i >= 0; i-- {
			if hbBefore(clock, Thread(u), ns[i].ev) {
				preds = p.pool.joinOne(preds, u, ns[i].idx)
				break
			}
		}
	}
	for _, d := range p.deferred {
		if hbBefore(clock, d.info.writer, d.info.ev) {
			preds = p.pool.joinSet(preds, d.all)
		} else if d.info.readBefore(clock) {
			preds = p.pool.joinSet(preds, d.fence)
		}
	}
	return preds
}

// readBy reports whether thread t has read the store: readers keeps
// each thread's first read only, since events of a thread are numbered
// in order and its first read happens before any point a later one does
// (readBefore).
func (s *storeInfo) readBy(t Thread) bool {
	for _, r := range s.readers {
		if r.thread == t {
			return true
		}
	}
	return false
}

func (s *storeInfo) readBefore(clock []uint32) bool {
	for _, r := range s.readers {
		if hbBefore(clock, r.thread, r.ev) {
			return true
		}
	}
	return false
}

// add makes the SC event of thread t, event ev, with predecessors preds.
func (p *pscState) add(t Thread, ev uint32, fence bool, l Loc, clock []uint32, preds []int) *scNode {
	ns := p.thread(t)
	n := p.pool.nodes.one()
	*n = scNode{thread: t, idx: len(ns) + 1, ev: ev, fence: fence, loc: l}
	if fence { // only sinks asks, of fences
		n.clock = append([]uint32(nil), clock...)
	}
	n.reach = p.pool.joinOne(p.closure(preds), int(t), n.idx)
	for u, idx := range preds {
		if m := p.node(u, idx); m != nil {
			p.addSucc(m, n)
		}
	}
	if len(ns) > 0 {
		p.addSucc(ns[len(ns)-1], n)
	}
	p.nodes[t] = p.appendNode(ns, n)
	if fence {
		for len(p.fences) <= int(t) {
			p.fences = append(p.fences, nil)
		}
		p.fences[t] = p.appendNode(p.fences[t], n)
	}
	return n
}

// appendNode appends n to a thread's nodes or fences, moving them to
// room cut from a block when they are full (as addSucc does): a run makes
// hundreds of SC events, and the slices grown one append at a time were
// made again in every run.
func (p *pscState) appendNode(ns []*scNode, n *scNode) []*scNode {
	if len(ns) == cap(ns) {
		ns = p.pool.succs.withRoom(ns, max(8, 2*len(ns)))
	}
	return append(ns, n)
}

// addSucc adds n to m's successors, in room cut from a block: 4, then
// twice as much as the last.
func (p *pscState) addSucc(m, n *scNode) {
	if len(m.succ) == cap(m.succ) {
		m.succ = p.pool.succs.withRoom(m.succ, max(4, 2*len(m.succ)))
	}
	m.succ = append(m.succ, n)
}

// sinks returns the SC events that a backward edge into the stores of
// targets reaches: each target that is an SC store and each SC fence a
// target happens before (all), and each SC fence a read of a target
// happens before (fences only).
func (p *pscState) sinks(targets []*storeInfo) (all, fence []*scNode) {
	for _, s := range targets {
		if s.node != nil {
			all = append(all, s.node)
		}
		for _, fs := range p.fences {
			for _, n := range fs {
				if hbBefore(n.clock, s.writer, s.ev) {
					all = append(all, n)
				} else if s.readBefore(n.clock) {
					fence = append(fence, n)
				}
			}
		}
	}
	return all, fence
}

// link adds the edges from src to all and srcF to fence, and records them
// for SC fences to come.
func (p *pscState) link(src, srcF []int, all, fence []*scNode, targets []*storeInfo) {
	for _, n := range all {
		p.edge(src, n)
	}
	for _, n := range fence {
		p.edge(srcF, n)
	}
	for _, s := range targets {
		p.deferred = append(p.deferred, deferred{info: s, all: src, fence: srcF})
	}
}

// edge adds edges from the set src to n, and raises the reach of n and
// of everything after it.
func (p *pscState) edge(src []int, n *scNode) {
	for u, idx := range src {
		if m := p.node(u, idx); m != nil && m != n {
			p.addSucc(m, n)
		}
	}
	add := p.closure(src)
	work := []*scNode{n}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if setCovers(x.reach, add) {
			continue
		}
		x.reach = p.pool.joinSet(x.reach, add)
		work = append(work, x.succ...)
	}
}

func setCovers(a, b []int) bool {
	for i, x := range b {
		if x > 0 && (i >= len(a) || a[i] < x) {
			return false
		}
	}
	return true
}

// inAt returns the sources of the mo and fr edges into a store placed at
// index at of x's kept stores: the stores before it and their reads (in),
// and of those only the SC fences (inF).
func (x *location) inAt(p *pool, at int) (in, inF []int) {
	if at >= len(x.stores) {
		return p.ints.copyOf(x.seen), p.ints.copyOf(x.seenF)
	}
	in = p.ints.copyOf(x.forgotten)
	inF = p.ints.copyOf(x.forgottenF)
	for i := 0; i < at && i < len(x.stores); i++ {
		s := x.stores[i].info
		in = p.joinSet(p.joinSet(in, s.srcs), s.rsrcs)
		inF = p.joinSet(p.joinSet(inF, s.srcsF), s.rsrcsF)
	}
	return in, inF
}

// after returns the bookkeeping of x's kept stores from index i on: the
// stores a read of stores[i-1], or a store placed at i, comes before.
func (x *location) after(i int) []*storeInfo {
	var out []*storeInfo
	for ; i < len(x.stores); i++ {
		out = append(out, x.stores[i].info)
	}
	return out
}

// pscAllows reports whether an event of t on l, seq_cst if sc, that would
// happen after clock and make backward edges to the stores of targets,
// keeps psc acyclic; in is the sources of the mo and fr edges into it
// (a store's).
func (m *Model) pscAllows(ts *threadState, t Thread, l Loc, sc bool, clock []uint32, in []int, targets []*storeInfo) bool {
	if len(targets) == 0 {
		return true
	}
	p := &m.psc
	reachF := p.closure(p.fencesBefore(clock))
	reach := reachF
	if sc {
		reach = m.pool.joinSet(m.pool.ints.copyOf(reachF), p.closure(p.accessPreds(t, l, clock, ts.prvClock(l), in)))
	}
	all, fence := p.sinks(targets)
	for _, n := range all {
		if inSet(reach, n) {
			return false
		}
	}
	for _, n := range fence {
		if inSet(reachF, n) {
			return false
		}
	}
	return true
}

// pscEvent records event ev of t on l (-1: a fence) in psc, after its
// step: its SC event if sc, what it read (read) and wrote (wrote: its
// bookkeeping is made here), and the backward edges to targets.
func (m *Model) pscEvent(ts *threadState, t Thread, ev uint32, l Loc, sc, fence bool, read, wrote *store, targets []*storeInfo) {
	if m.pool.lean {
		return
	}
	p := &m.psc
	clock := ts.cur.clock
	srcsF := p.fencesBeforeOf(ts, clock)
	srcs := srcsF // a set once made is not changed: two may share one
	if sc {
		srcs = m.pool.ints.withRoom(srcsF, int(t)+1)
	}
	var in []int
	if wrote != nil {
		in = wrote.info.in
	}
	var node *scNode
	if sc {
		var preds []int
		if fence {
			preds = p.fencePreds(clock, ts.cur.pin)
		} else {
			preds = p.accessPreds(t, l, clock, ts.diffClock, in)
		}
		node = p.add(t, ev, fence, l, clock, preds)
		ts.awaiting = append(ts.awaiting, node)
		srcs = m.pool.joinOne(srcs, int(t), node.idx)
	}
	if read != nil || wrote != nil {
		// Its sources join the sources of the edges into a store placed
		// last at l (location.seen): an mo edge from its store, an fr
		// edge from its read. An RMW's are one set.
		x := m.locs[l]
		x.seen = m.pool.joinSet(x.seen, srcs)
		x.seenF = m.pool.joinSet(x.seenF, srcsF)
	}
	if read != nil {
		r := read.info
		r.rsrcs = m.pool.joinSet(r.rsrcs, srcs)
		r.rsrcsF = m.pool.joinSet(r.rsrcsF, srcsF)
		if !r.readBy(t) {
			if len(r.readers) == cap(r.readers) {
				// Room cut from a block, as a node's succ (addSucc).
				r.readers = m.pool.refs.withRoom(r.readers, max(4, 2*len(r.readers)))
			}
			r.readers = append(r.readers, evRef{t, ev})
		}
		ts.cur.pin = m.pool.joinSet(m.pool.joinSet(ts.cur.pin, r.inF), r.srcsF)
	}
	if wrote != nil {
		w := wrote.info
		w.writer, w.ev, w.srcs, w.srcsF = t, ev, srcs, srcsF
		if sc {
			w.node = node
		}
	}
	if len(targets) > 0 {
		all, fenceSinks := p.sinks(targets)
		p.link(srcs, srcsF, all, fenceSinks, targets)
	}
}
