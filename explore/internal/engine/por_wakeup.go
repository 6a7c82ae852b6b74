package engine

import "slices"

// Wakeup trees: the unbounded reduced search of the plain mode runs one
// schedule per class (Abdulla, Aronis, Jonsson and Sagonas, "Optimal
// dynamic partial order reduction", POPL 2014).
//
// With source sets alone, a race asks, at the decision before its first
// step, for one goroutine that starts the reversed order; the run that
// goes there then takes whatever default comes next, and may meet a state
// where every goroutine that could go is asleep: a run of a class already
// explored (Result.Redundant). With wakeup trees the race leaves the whole
// sequence that reverses it: the steps after the first one that do not
// depend on it, in their order, then the later one. The decision keeps the
// sequences asked for as a tree (its branches share their first steps),
// and a run that takes a branch follows it, decision after decision, to
// its end before it takes defaults. A sequence is not added when a
// goroutine asleep at the decision could start it (its class is run
// already), nor when a branch already starts in a way that leads to it
// (the branch's first goroutine starts the sequence, or commutes with
// all of it). A goroutine commutes with the sequence only if it cannot
// change what the race's first step reads either: that step's touches
// after its operation depend on it, and the race may be with one of
// them (startsOrCommutes).
//
// A branch names goroutines, not addresses: a run's addresses are not
// the next run's. When a branch is compared with a sequence of this run,
// its goroutine's step is the one that goroutine was about to take at the
// decision in this run (the same operation: the path up to the decision
// is the same), with the named locations its step touched besides its
// operation when the branch was made, or everything if it touched an
// address there. A goroutine that moved on the branch walked down before
// (insert) is about to take another step: its operation as this run
// shows it, or the step the branch's node keeps, its locations named by
// steps every run through the decision shares (named).

// wuNode is a branch of a wakeup tree: a goroutine, what its step touched
// besides its operation, and the branches after it; and the whole step,
// operation included, as it runs at the branch's place, for a goroutine
// that moved on the branch before it (insert: its next step is not the
// one it was about to take at the decision).
type wuNode struct {
	tid   int
	wide  bool
	extra []access
	kids  []*wuNode
	step  []named
	// npend: step[:npend] is the operation. last: the step is the
	// race's later one, which reads otherwise at this place than in
	// the run that asked for it: only its operation is known.
	npend int
	last  bool
	all   bool // the step touched everything
}

// named is an access named so as to mean one location in every run
// through a decision (name): a named location (threadLoc, clockLoc...;
// ev -1); the at-th access of step ev, a step before the decision; the
// at-th of the operation goroutine tid was about to take at the decision
// (ev -3); or none (ev -2).
type named struct {
	ev, at, tid int32
	loc         uintptr
	write       bool
}

// wstep is a step of a sequence to insert: its goroutine and its event in
// the run, or -1 for the step the goroutine was about to take at the
// decision.
type wstep struct{ tid, ev int }

// onPorRound, if set, is given each reduced search's counts when it ends
// (tests measure the search with it).
var onPorRound func(porStats)

// take removes and returns the first branch of n's wakeup tree that can
// run there (its goroutine can go and is neither asleep nor done), or nil;
// a branch that cannot is dropped and counted.
func (s *porSearch) take(n *porNode) *wuNode {
	if n.kind != kindGoroutine {
		return nil
	}
	for len(n.wut) > 0 {
		b := n.wut[0]
		n.wut = n.wut[1:]
		s.held--
		if n.enabled&(1<<b.tid) != 0 && (n.done|asleep(n.sleep0))&(1<<b.tid) == 0 {
			return b
		}
		s.dropped++
		s.drop(b.kids)
	}
	return nil
}

// drop lets a subtree go.
func (s *porSearch) drop(bs []*wuNode) {
	for _, b := range bs {
		s.held--
		s.drop(b.kids)
	}
}

// clone copies a subtree (a store's node keeps one for each choice of
// its load: porNode.wut), counted as held.
func (s *porSearch) clone(bs []*wuNode) []*wuNode {
	out := make([]*wuNode, len(bs))
	for k, b := range bs {
		c := *b
		c.kids = s.clone(b.kids)
		out[k] = &c
		s.held++
	}
	s.peakHeld = max(s.peakHeld, s.held)
	return out
}

// follow: goroutine c took a step without a decision (it alone could go)
// while the run follows a branch: the branch goes on with c's subtree.
func (s *porSearch) follow(c int) {
	if len(s.carry) == 0 {
		return
	}
	var next []*wuNode
	for _, b := range s.carry {
		if b.tid == c && next == nil {
			next = b.kids
			s.held--
			continue
		}
		s.dropped++
		s.held--
		s.drop(b.kids)
	}
	s.carry = next
}

// reverseOptimally asks, at decision j's node (the decision that chose
// event from), for the sequence that runs event n first: the steps after
// from that do not depend on it, c's first (it starts them), then n.
func (p *porRun) reverseOptimally(r *run, from, n, c int) {
	// w is made in scratch memory: insert keeps none of it (chain
	// copies what it needs into the tree) and may shorten it in place.
	w := p.wsteps[:0]
	for x := from + 1; x <= n; x++ {
		if x < n && p.hb(p.events[x].clock, from) {
			continue
		}
		w = append(w, wstep{p.events[x].tid, x})
	}
	if k := indexOf(w, c); k > 0 {
		first := w[k]
		copy(w[1:k+1], w[:k])
		w[0] = first
	}
	p.wsteps = w
	p.insert(r, p.events[from].dec, from, w)
}

// insert adds sequence w to the wakeup tree of decision dec (the one that
// chose event from), unless a goroutine asleep there starts it (or
// commutes with all of it), or a branch leads to it already. w is the
// caller's scratch (reverseOptimally's, or a clone): insert may shorten
// it in place, so it must not be memory anything keeps.
func (p *porRun) insert(r *run, dec, from int, w []wstep) {
	s := p.s
	nd := &s.nodes[dec]
	if x, ok := nd.twinOf[w[0].tid]; ok && nd.twins&(1<<w[0].tid) != 0 {
		// A twin leads w: its mirror image, led by x, stands for it
		// (por_symmetry.go). The branch run now is that image if x is.
		if x == nd.chosen {
			return
		}
		y := w[0].tid
		w = slices.Clone(w)
		for k := range w {
			w[k].tid = swapTid(w[k].tid, x, y)
		}
		p.swapped, p.swapX, p.swapY = true, x, y
		defer func() { p.swapped = false }()
	}
	p.sleepBuf = nd.sleepAt(p.sleepBuf[:0], nd.chosen)
	for _, z := range p.sleepBuf {
		if z.choice >= 0 {
			continue // a variant stands for some of its step's runs, not all
		}
		if p.startsOrCommutes(r, from, z.tid, z.wide, z.extra, w, nil, nil) {
			return
		}
	}
	list := &nd.wut
	var wk walk // the goroutines of the branch walked down
	for {
		var next *wuNode
		for _, b := range *list {
			if p.startsOrCommutes(r, from, b.tid, b.wide, b.extra, w, &wk, b) {
				next = b
				break
			}
		}
		if next == nil {
			*list = append(*list, p.chain(r, from, w))
			s.held += len(w)
			s.peakHeld = max(s.peakHeld, s.held)
			return
		}
		wk.walked |= 1 << next.tid
		if k := indexOf(w, next.tid); k >= 0 {
			wk.known |= 1 << next.tid
			wk.last[next.tid] = w[k].ev
			w = append(w[:k], w[k+1:]...) // w is reverseOptimally's scratch, or a clone
		} else {
			wk.known &^= 1 << next.tid
		}
		if len(next.kids) == 0 || len(w) == 0 {
			return // that branch leads to w
		}
		list = &next.kids
	}
}

// walk is what insert knows of the goroutines whose branch it walked
// down, whose next step is not the one they were about to take at the
// decision. For those whose last step walked was a step of the sequence
// (known; last, its event), the next operation is the one they took
// after that step in this run, or are at now: the step walked ran as in
// this run, and a goroutine's next operation depends on its own steps
// alone. For the others, it is the step of the branch's node (wuNode.step).
type walk struct {
	walked, known uint64
	last          [64]int
}

// startsOrCommutes reports whether goroutine q's next step can start
// sequence w (q's first step in w depends on none before it) or, q being
// absent from w, commutes with all of w and writes nothing the operation
// of the race's first step (from) touches. q's next step is branch b's
// (nil for a sleeper at the decision); for a goroutine not walked down
// the branch (wk) it is the one it was about to take at the decision,
// for the others walk says what is known of it.
func (p *porRun) startsOrCommutes(r *run, from, q int, wide bool, extra []access, w []wstep, wk *walk, b *wuNode) bool {
	if k := indexOf(w, q); k >= 0 {
		if w[k].ev < 0 {
			return k == 0
		}
		// q starts w if no step of w before its own is ordered before
		// it within w (initials: the clock also orders through steps
		// that w leaves out).
		ys := p.vsteps[:0]
		for _, y := range w[:k] {
			if y.ev >= 0 {
				ys = append(ys, y.ev)
			}
		}
		p.vsteps = ys
		return p.firstWithin(w[k].ev, ys)
	}
	qs, exact := p.stepAt(r, from, q)
	fresh := false // q's step touches a location with no name in this run
	switch {
	case wk == nil || wk.walked&(1<<q) == 0:
	case wk.known&(1<<q) != 0:
		var ok bool
		if qs, ok = p.opAfter(r, wk.last[q], q); !ok {
			return false
		}
		exact = false
	case b.step == nil:
		return false
	default:
		qs, fresh = p.unname(r, b, from)
		exact = !b.last
	}
	if !exact && wide {
		return false
	}
	conflicts := func(ys *stepSummary) bool {
		return qs.conflicts(ys) || !exact && overlaps(ys.acc, extra) || fresh && p.touchesFresh(r, ys, from)
	}
	if fs := p.summary(from); changesOp(&qs, !exact, extra, fs.all, fs.acc[:p.events[from].npend]) {
		// q may change what the race's first step (from) reads: run
		// first, q makes from another step, whose touches after its
		// operation (a counter, a goroutine's end) depend on what it
		// read, and the race reversed may be with one of those; or,
		// from being a timeout's firing, q may make the wait pass in
		// time, a step that no longer writes the clock. Runs after q
		// then need not reach w with from as it ran here, so q
		// neither leads to w nor stands for it. (A q that only touches
		// the clock, arming a deadline or firing an earlier one,
		// leaves the firing as it is: it may stand.)
		return false
	}
	for _, y := range w {
		ys, _ := p.stepAt(r, from, y.tid)
		if y.ev >= 0 {
			ys = p.summary(y.ev)
		}
		if conflicts(&ys) {
			return false
		}
	}
	return true
}

// opAfter is the operation goroutine q takes after its event x: the
// pending operation of its next event in this run, or the one it is at
// now; false if it has ended.
func (p *porRun) opAfter(r *run, x, q int) (stepSummary, bool) {
	for y := x + 1; y < len(p.events); y++ {
		if e := &p.events[y]; e.tid == q {
			return stepSummary{all: e.all, acc: e.acc[:e.npend]}, true
		}
	}
	t := r.threads[q]
	if t.state == finished {
		return stepSummary{}, false
	}
	return stepSummary{all: t.pendAll, acc: t.pend}, true
}

// unname is branch b's step in this run's addresses (its operation
// alone if b is the race's later step), but for the locations with no
// name (named): fresh reports whether there were any.
func (p *porRun) unname(r *run, b *wuNode, from int) (s stepSummary, fresh bool) {
	ns := b.step
	if b.last {
		ns = ns[:b.npend]
	}
	s.all = b.all
	for _, a := range ns {
		switch {
		case a.ev == -1:
			s.acc = append(s.acc, access{a.loc, a.write})
		case a.ev >= 0 && int(a.ev) < from:
			s.acc = append(s.acc, access{p.events[a.ev].acc[a.at].loc, a.write})
		case a.ev == -3:
			op, ok := p.opAt(r, from, int(a.tid))
			if !ok || int(a.at) >= len(op) {
				fresh = true
				continue
			}
			s.acc = append(s.acc, access{op[a.at].loc, a.write})
		default:
			fresh = true
		}
	}
	return s, fresh
}

// touchesFresh reports whether step s touches a location with no name
// (named), or everything.
func (p *porRun) touchesFresh(r *run, s *stepSummary, from int) bool {
	if s.all {
		return true
	}
	for _, a := range s.acc {
		if p.name(r, a, from).ev == -2 {
			return true
		}
	}
	return false
}

// name is access a (of a step after event from) named as wuNode.step
// keeps it: a named location (threadLoc...); else by a step before the
// decision that touched it (its first); else by the operation of a
// goroutine that was about to take it at the decision (opAt); else no
// name (ev -2). Each of these means the same location in every run
// through the decision: the steps before it are the same, and a
// goroutine's next operation depends on its own steps alone. A location
// with a name is none of those without one.
func (p *porRun) name(r *run, a access, from int) named {
	if a.loc < maxNamedLoc {
		return named{ev: -1, loc: a.loc, write: a.write}
	}
	if i, ok := p.locs.lookup(a.loc); ok {
		if st := &p.states[i]; int(st.first) < from {
			return named{ev: st.first, at: st.at, write: a.write}
		}
	}
	for q := range r.threads {
		op, _ := p.opAt(r, from, q)
		for k, b := range op {
			if b.loc == a.loc {
				return named{ev: -3, tid: int32(q), at: int32(k), write: a.write}
			}
		}
	}
	return named{ev: -2}
}

// opAt is the operation goroutine q was about to take at the decision
// that chose event from, if it was alive then: the operation of its
// first step since, or the one it is at now.
func (p *porRun) opAt(r *run, from, q int) ([]access, bool) {
	if q >= len(p.parent) || p.parent[q] >= from {
		return nil, false // started after the decision
	}
	for x := from; x < len(p.events); x++ {
		if e := &p.events[x]; e.tid == q {
			return e.acc[:e.npend], !e.all
		}
	}
	t := r.threads[q]
	if t.state == finished || t.pendAll {
		return nil, false
	}
	return t.pend, true
}

// stepAt is the step goroutine q was about to take at the decision that
// chose event from: its first event since (exact), or its pending
// operation if it has not moved since (what it touches besides is not
// known).
func (p *porRun) stepAt(r *run, from, q int) (stepSummary, bool) {
	for x := from; x < len(p.events); x++ {
		if p.events[x].tid == q {
			return p.events[x].stepSummary, true
		}
	}
	t := r.threads[q]
	return stepSummary{all: t.pendAll, acc: t.pend}, false
}

// chain is w as a branch of single steps, each with what it touched
// besides its operation (named locations, or wide).
func (p *porRun) chain(r *run, from int, w []wstep) *wuNode {
	var top, last *wuNode
	n := -1 // the race's later step, the latest of w
	for _, y := range w {
		n = max(n, y.ev)
	}
	for _, y := range w {
		b := &wuNode{tid: y.tid}
		if y.ev >= 0 {
			e := &p.events[y.ev]
			b.npend, b.last, b.all = e.npend, y.ev == n, e.all
			b.step = make([]named, len(e.acc))
			for k, a := range e.acc {
				b.step[k] = p.name(r, a, from)
			}
			b.wide = e.all
			for _, a := range p.swapAccs(e.acc[e.npend:]) {
				if a.loc >= maxNamedLoc || a.loc == 0 {
					b.wide = true
				} else {
					b.extra = append(b.extra, a)
				}
			}
		}
		if top == nil {
			top = b
		} else {
			last.kids = []*wuNode{b}
		}
		last = b
	}
	return top
}

// summary is what event ev touched, with the twins' names swapped while a
// mirror image is inserted.
func (p *porRun) summary(ev int) stepSummary {
	return stepSummary{all: p.events[ev].all, acc: p.swapAccs(p.events[ev].acc)}
}

func (p *porRun) swapAccs(as []access) []access {
	if !p.swapped {
		return as
	}
	return swapAccs(as, p.swapX, p.swapY)
}

func indexOf(w []wstep, q int) int {
	for k, y := range w {
		if y.tid == q {
			return k
		}
	}
	return -1
}

// changesOp reports whether step qs (with extra besides, when inexact)
// may change what an operation op returns: it writes a location op
// touches, or one of them is not known.
func changesOp(qs *stepSummary, inexact bool, extra []access, opAll bool, op []access) bool {
	if qs.all || opAll {
		return true
	}
	for _, a := range op {
		if writes(qs.acc, a.loc) || inexact && writes(extra, a.loc) {
			return true
		}
	}
	return false
}
