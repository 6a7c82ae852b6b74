package engine

import "math/bits"

// Symmetry in the unbounded reduced search with wakeup trees (symmetry.go
// argues it): a twin's branches are run as the mirror image, the twins'
// names swapped, led by the goroutine it twins.

// mirrorTwins prepares new node n: a twin whose sleep state differs from
// the goroutine it twins' is no twin here; every branch the node was
// handed (the carry) that a twin leads is swapped into its mirror image
// and merged with the branches the goroutine it twins leads.
func (s *porSearch) mirrorTwins(r *run, n *porNode) {
	z := asleep(n.sleep0)
	for y, x := range n.twinOf {
		if z>>x&1 != z>>y&1 || r.threads[x].ordered || r.threads[y].ordered {
			delete(n.twinOf, y)
			n.twins &^= 1 << y
		}
	}
	for m := n.twins; m != 0; m &= m - 1 {
		if _, ok := n.twinOf[bits.TrailingZeros64(m)]; !ok {
			n.twins &^= 1 << bits.TrailingZeros64(m) // no base enabled (twinBases)
		}
	}
	if n.twins == 0 {
		r.twinsAt-- // counted as a decision with a twin (run.go): it has none
		return
	}
	var kept []*wuNode
	var led []*wuNode
	for _, b := range n.wut {
		if n.twins&(1<<b.tid) != 0 {
			led = append(led, swapBranch(b, n.twinOf[b.tid], b.tid))
			continue
		}
		kept = append(kept, b)
	}
	for _, b := range led {
		kept = s.merge(kept, b)
	}
	n.wut = kept
}

// choose records that c is explored at n, and with it, in the search with
// wakeup trees, the twins of c there (their branches are c's mirrored).
func (s *porSearch) choose(n *porNode, c int) {
	n.done |= 1 << c
	n.chosen = c
	if s.optimal && n.twins != 0 {
		m := n.mirrorsOf(c)
		n.done |= m
		n.mirror |= m
	}
}

// mirrorsOf is the twins at n of goroutine c.
func (n *porNode) mirrorsOf(c int) uint64 {
	var m uint64
	for y, x := range n.twinOf {
		if x == c {
			m |= 1 << y
		}
	}
	return m
}

// mirrorSleepers is the twins explored at n by mirror, asleep when c is
// explored there (not c's own: c's subtree is their mirror image), each
// with what the goroutine it twins touched besides its operation, the
// twins' names swapped.
func (n *porNode) mirrorSleepers(c int) []sleeper {
	var ss []sleeper
	for m := n.mirror &^ n.mirrorsOf(c); m != 0; m &= m - 1 {
		y := bits.TrailingZeros64(m)
		x := n.twinOf[y]
		k := len(ss)
		ss = n.sleepersOf(ss, x)
		for j := k; j < len(ss); j++ {
			ss[j].tid, ss[j].extra = y, swapAccs(ss[j].extra, x, y)
		}
	}
	return ss
}

// swapBranch returns a copy of branch b with goroutines x and y (and the
// locations their ends write) swapped throughout.
func swapBranch(b *wuNode, x, y int) *wuNode {
	c := &wuNode{tid: swapTid(b.tid, x, y), wide: b.wide, extra: swapAccs(b.extra, x, y)}
	for _, k := range b.kids {
		c.kids = append(c.kids, swapBranch(k, x, y))
	}
	return c
}

func swapTid(t, x, y int) int {
	switch t {
	case x:
		return y
	case y:
		return x
	}
	return t
}

// swapAccs returns as with the locations of x's and y's ends, and of
// their timers (passLoc), swapped (a copy, if any is).
func swapAccs(as []access, x, y int) []access {
	lx, ly := threadLoc(x), threadLoc(y)
	px, py := passLoc(x), passLoc(y)
	var out []access
	for i, a := range as {
		var to uintptr
		switch a.loc {
		case lx:
			to = ly
		case ly:
			to = lx
		case px:
			to = py
		case py:
			to = px
		default:
			continue
		}
		if out == nil {
			out = append([]access(nil), as...)
		}
		out[i].loc = to
	}
	if out == nil {
		return as
	}
	return out
}

// merge adds branch b to list: into the branch of its goroutine if there
// is one (their subtrees merged alike), else at the end. Each path of
// either stays a path of the result.
func (s *porSearch) merge(list []*wuNode, b *wuNode) []*wuNode {
	for _, o := range list {
		if o.tid == b.tid {
			s.held--
			for _, k := range b.kids {
				o.kids = s.merge(o.kids, k)
			}
			return list
		}
	}
	return append(list, b)
}
