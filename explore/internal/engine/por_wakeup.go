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
// all of it).
//
// A branch names goroutines, not addresses: a run's addresses are not
// the next run's. When a branch is compared with a sequence of this run,
// its goroutine's step is the one that goroutine was about to take at the
// decision in this run (the same operation: the path up to the decision
// is the same), with the named locations its step touched besides its
// operation when the branch was made, or everything if it touched an
// address there.

// wuNode is a branch of a wakeup tree: a goroutine, what its step touched
// besides its operation, and the branches after it.
type wuNode struct {
	tid   int
	wide  bool
	extra []access
	kids  []*wuNode
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
	w := []wstep{}
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
	p.insert(r, p.events[from].dec, from, w)
}

// insert adds sequence w to the wakeup tree of decision dec (the one that
// chose event from), unless a goroutine asleep there starts it (or
// commutes with all of it), or a branch leads to it already.
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
	for _, z := range nd.sleepAt(nd.chosen) {
		if p.startsOrCommutes(r, from, z.tid, z.wide, z.extra, w, 0) {
			return
		}
	}
	list := &nd.wut
	var walked uint64 // goroutines of the branch walked down
	for {
		var next *wuNode
		for _, b := range *list {
			if p.startsOrCommutes(r, from, b.tid, b.wide, b.extra, w, walked) {
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
		if k := indexOf(w, next.tid); k >= 0 {
			w = append(w[:k:k], w[k+1:]...)
		}
		walked |= 1 << next.tid
		if len(next.kids) == 0 || len(w) == 0 {
			return // that branch leads to w
		}
		list = &next.kids
	}
}

// startsOrCommutes reports whether goroutine q's next step can start
// sequence w (q's first step in w depends on none before it) or, q being
// absent from w and not among the goroutines walked (whose next step is
// not the one they were about to take at the decision), commutes with all
// of w.
func (p *porRun) startsOrCommutes(r *run, from, q int, wide bool, extra []access, w []wstep, walked uint64) bool {
	if k := indexOf(w, q); k >= 0 {
		if w[k].ev < 0 {
			return k == 0
		}
		c := p.events[w[k].ev].clock
		for _, y := range w[:k] {
			if y.ev >= 0 && p.hb(c, y.ev) {
				return false
			}
		}
		return true
	}
	if walked&(1<<q) != 0 {
		return false
	}
	qs, exact := p.stepAt(r, from, q)
	if !exact && wide {
		return false
	}
	for _, y := range w {
		ys, _ := p.stepAt(r, from, y.tid)
		if y.ev >= 0 {
			ys = p.summary(y.ev)
		}
		if qs.conflicts(&ys) || !exact && overlaps(ys.acc, extra) {
			return false
		}
	}
	return true
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
	for _, y := range w {
		b := &wuNode{tid: y.tid}
		if y.ev >= 0 {
			e := &p.events[y.ev]
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
