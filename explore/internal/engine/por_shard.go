package engine

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
)

// Sharding the bounded reduced search (Options.Shard with Reduce): part K
// of N runs some of the search's subtrees, and says which, so that the
// parts' records merge into the whole search.
//
// The plain search splits by a schedule's choices (shard.go): its tree is
// known before it is run. The reduced search's is not: which goroutines a
// decision offers is what the races of the runs below it ask for
// (por_run.go), and those runs may be anywhere below. What makes it split
// all the same is that a subtree of it is its own. Take the round's first
// run, and the subtree where runs first leave it, at its decision k for
// choice c: every run there starts with the first run's k decisions and
// then c; the races of its runs ask for choices at decisions on their own
// path, which are the first run's (up to k) or the subtree's; and no run
// outside it passes through a decision inside it. Without sleep sets (the
// bounded search keeps none) what a decision offers depends on nothing
// else, so the subtree of (k, c) is the same runs in whichever process
// runs it, and whatever its siblings did. The same holds one level down:
// a subtree's first run, and the subtrees where runs leave that.
//
// Which subtrees the whole search has is what its runs ask for, so the
// parts first learn what they can alike. Every part runs the round's first
// run and then probes: it runs the first run of each subtree at the first
// run's decisions that the whole search runs (asked for there, within the
// bound), and of each subtree at those runs' decisions, and of each one
// what those ask for in turn, until none asks for more (probeSubtrees).
// The probes are not counted (the part that runs the subtree counts its
// first run); they cost one run per subtree of the second level. What
// they asked for is each part's alike. Then the search runs as the whole
// one does, but a subtree of the second level that the probes know of
// is run by part mix(bound, k1, c1, k2, c2) mod N alone, and every part
// runs the first run of each subtree of the first level that the probes
// know of (one run each, counted by every part). A subtree the probes do
// not know of is one that a deeper run asked for: the part that asked
// runs it (no other part need know of it), whole. Two parts may both ask
// for one, so the parts' runs are the whole search's runs, a few twice:
// each part records, per subtree, the schedules and steps it ran there
// (Result.Subtrees), and the merge counts each subtree once
// (explore.MergeRecords), checking that two parts that ran one subtree to
// its end ran as many schedules there.
//
// Why the union is the whole search: the whole search runs a subtree
// exactly when a run on the path to it asked for its choice there; by
// induction on the order the whole search found them, that run is one some
// part ran (the round's first run, which every part runs, to begin with),
// that part ran the same run and was asked the same, and ran the subtree
// or gave it to the part whose it is, which knew of it from the probes
// (alike in every part). And a part runs nothing the whole search does
// not: the probes run first runs of subtrees the whole search runs. Why
// two levels: the subtrees of the first level are few (145 in
// runtime/go-tree's weak search at 1) and one may hold a third of the
// search; those of the second are many and small, each a run to probe.
//
// The unbounded search (sleep sets, wakeup trees) does not split: there a
// subtree's runs depend on what was explored beside it.

// Subtree is what a part of a sharded reduced search ran in one subtree of
// one round: the runs that leave the round's first run at its decision At
// for choice Choice and then leave that subtree's first run at its
// decision At2 for choice Choice2. At2 -1: the subtree's first run, or,
// for a subtree the probes did not know of, the whole subtree; At -1: the
// round's first run.
type Subtree struct {
	Bound, At, Choice, At2, Choice2 int
	Schedules                       int
	Steps                           int64
}

// skeleton is a subtree's first run as the probes found it: its path of
// decisions (from the round's start), what the first runs of the subtrees
// below it asked for there, and (for the round and the first level) the
// skeletons of its subtrees.
type skeleton struct {
	at, choice int       // where it leaves its parent's first run; -1: the round
	nodes      []porNode // its first run's path (shallow copies: the bounded search changes only bt and done in place)
	probed     []uint64  // per decision after at: the choices whose subtrees were probed
	asked      []uint64  // per decision after at, once the probes end: what the whole search's runs there asked for, as far as the probes know
	kids       map[[2]int]*skeleton
}

func newSkeleton(at, choice int, nodes []porNode) *skeleton {
	sk := &skeleton{at: at, choice: choice, nodes: slices.Clone(nodes), probed: make([]uint64, len(nodes))}
	for i := range nodes {
		sk.probed[i] = 1 << nodes[i].chosen
	}
	return sk
}

// shardLevels is how many levels of subtrees the probes learn.
const shardLevels = 2

// porShard is a part's bookkeeping in one round of the reduced search.
type porShard struct {
	sh    Shard
	bound int
	root  *skeleton // the round's first run; nil until it ends
	// x is the subtree of the first level the path is in, when the probes
	// know of it; leave1 and leave2 are the decisions where the path
	// leaves the round's first run and x's first run (the length of that
	// run while it does not).
	x              *skeleton
	leave1, leave2 int
	seed           bool // the next run is x's first run (ran)
	cur            int  // the current subtree, an index into subs
	subs           []Subtree
	// probes counts the first runs of subtrees run to learn what they
	// ask for (probeSubtrees), in no part's count.
	probes int
}

func newPorShard(sh Shard, bound int) *porShard {
	return &porShard{sh: sh, bound: bound, subs: []Subtree{{Bound: bound, At: -1, Choice: -1, At2: -1, Choice2: -1}}}
}

// ran counts a run of steps steps in the current subtree. The run that
// starts a subtree of the first level that the probes know of is its
// first run: its decisions then get what the probes found asked for there,
// which in the whole search runs in other parts' subtrees ask for.
func (p *porShard) ran(s *porSearch, steps int) {
	p.subs[p.cur].Schedules++
	p.subs[p.cur].Steps += int64(steps)
	if !p.seed {
		return
	}
	p.seed = false
	x := p.x
	if len(s.nodes) != len(x.nodes) {
		panic(fmt.Sprintf("explore: a part of a sharded reduced search: the first run of the subtree at decision %d, choice %d made %d decisions, its probe %d: the scenario is not deterministic given its schedule", x.at, x.choice, len(s.nodes), len(x.nodes)))
	}
	for i := x.at + 1; i < len(x.nodes); i++ {
		if s.nodes[i].chosen != x.nodes[i].chosen {
			panic(fmt.Sprintf("explore: a part of a sharded reduced search: the first run of the subtree at decision %d, choice %d chose %d at decision %d, its probe %d: the scenario is not deterministic given its schedule", x.at, x.choice, s.nodes[i].chosen, i, x.nodes[i].chosen))
		}
		s.nodes[i].bt |= x.asked[i]
	}
}

// skip reports whether choice c at decision k, which next is about to
// take, is another part's: a subtree of the second level that the probes
// know of and that hashes elsewhere. Otherwise, when the run leaves the
// round's first run or x's at k, it starts a new subtree of the count.
func (p *porShard) skip(k, c int) bool {
	switch {
	case k <= p.leave1:
		p.leave1, p.x, p.leave2 = k, nil, -1
		if p.root.asked[k]&(1<<c) != 0 {
			if x := p.root.kids[[2]int{k, c}]; x != nil {
				p.x, p.leave2, p.seed = x, len(x.nodes), true
			}
		}
		p.enter(k, c, -1, -1)
	case p.x != nil && k <= p.leave2:
		if p.x.asked[k]&(1<<c) != 0 && int(p.key(k, c)%uint64(p.sh.N)) != p.sh.K {
			return true
		}
		p.leave2 = k
		p.enter(p.x.at, p.x.choice, k, c)
	}
	return false
}

func (p *porShard) enter(at, choice, at2, choice2 int) {
	p.cur = len(p.subs)
	p.subs = append(p.subs, Subtree{Bound: p.bound, At: at, Choice: choice, At2: at2, Choice2: choice2})
}

// key hashes the place of x's subtree at its decision k for choice c.
func (p *porShard) key(k, c int) uint64 {
	h := mix(uint64(p.bound) + 1)
	h = mix(h ^ uint64(p.x.at+1))
	h = mix(h ^ uint64(p.x.choice+1))
	h = mix(h ^ uint64(k+1))
	return mix(h ^ uint64(c+1))
}

// probeSubtrees runs, after the round's first run, the probes (the
// comment at the top of this file): the first runs of the subtrees of the
// first two levels that the whole search runs, until none asks for more.
// The path is left as the first run made it, with what the probes asked
// for added. False if a probe failed: a run of the whole search, every
// part's failure.
func (e *explorer) probeSubtrees(s *porSearch) bool {
	p := s.shard
	root := newSkeleton(-1, -1, s.nodes)
	root.kids = map[[2]int]*skeleton{}
	s.ran = nil // the first run's analysis is not the probes' to keep
	e.probing = true
	defer func() { e.probing = false }()
	for more := true; more; {
		var ok bool
		if more, ok = e.probeLevel(s, root, root, 1); !ok {
			return false
		}
		for _, x := range root.kids {
			m, ok := e.probeLevel(s, root, x, 2)
			if !ok {
				return false
			}
			more = more || m
		}
	}
	for _, sk := range append([]*skeleton{root}, slices.Collect(maps.Values(root.kids))...) {
		sk.asked = make([]uint64, len(sk.nodes))
		for i := sk.at + 1; i < len(sk.nodes); i++ {
			sk.asked[i] = sk.nodes[i].bt | sk.nodes[i].done
		}
	}
	s.nodes = append(s.nodes[:0], root.nodes...)
	s.ran = nil // the last probe's record, which the next run's prefix does not follow
	p.root, p.leave1 = root, len(root.nodes)
	return true
}

// probeLevel probes each subtree at sk's decisions (after sk.at) that the
// whole search runs and no probe ran yet: sk is the round's first run
// (level 1) or a subtree of it (level 2). It reports whether it ran one,
// and false if one failed.
func (e *explorer) probeLevel(s *porSearch, root, sk *skeleton, level int) (ran, ok bool) {
	for k := sk.at + 1; k < len(sk.nodes); k++ {
		for {
			c := s.firstCandidate(&sk.nodes[k], sk.probed[k])
			if c < 0 {
				break
			}
			sk.probed[k] |= 1 << c
			ran = true
			s.nodes = append(s.nodes[:0], sk.nodes[:k+1]...)
			s.nodes[k].chosen = c
			s.prefix = s.prefix[:0]
			for i := range s.nodes {
				s.prefix = append(s.prefix, s.nodes[i].chosen)
			}
			r := e.runOnce(&porGuide{s}, false)
			if r.failure != nil {
				e.fail(r)
				return ran, false
			}
			e.res.Schedules--
			e.res.Steps -= int64(r.steps)
			e.res.Twins -= int64(r.twinsAt)
			s.shard.probes++
			// What it asked for at the round's first run's decisions
			// and at sk's.
			for i := range k + 1 {
				if i <= sk.at {
					root.nodes[i].bt |= s.nodes[i].bt
				} else {
					sk.nodes[i].bt |= s.nodes[i].bt
				}
			}
			if level < shardLevels {
				sk.kids[[2]int{k, c}] = newSkeleton(k, c, s.nodes)
			}
		}
	}
	return ran, true
}

// firstCandidate is a choice at n, a decision of a first run, that the
// whole search runs (what next runs: asked, within the bound) and that
// is not in probed; -1 if there is none.
func (s *porSearch) firstCandidate(n *porNode, probed uint64) int {
	for m := s.asked(n) &^ probed; m != 0; m &= m - 1 {
		if c := bits.TrailingZeros64(m); !n.over(c, s.bound) {
			return c
		}
	}
	return -1
}
