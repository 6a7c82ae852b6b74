package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Sharding: part K of N of one search (Options.Shard), so that N processes,
// on one machine or on N, run one long scenario between them, each its own
// disjoint subtrees of the schedule tree, and their counts add up to the
// whole search's.
//
// The split is by where a schedule first leaves the default path: the
// schedule the search runs first in a round, which takes the default
// choice (decision.defaultChoice) at every decision (the spine). At each
// decision of the spine that branches within the round's preemption
// bound, each alternative other than the default roots a subtree: every
// schedule that takes the default up to there and that alternative there.
// The subtrees are numbered along the spine, 1, 2, 3, ..., in the order of
// the spine's decisions and, within one, of decision.alternatives; the
// spine itself is 0; and subtree s is part s mod N's. Every schedule of a
// round is in exactly one of them, so it belongs to exactly one part.
// Neighbouring subtrees differ little in size (a subtree that leaves the
// spine at decision i places its remaining preemptions among the decisions
// after i, a little fewer than its neighbour's), so dealing them out in
// turn shares the round evenly; splitting at the first branching
// decisions alone would not (the first default keeps nearly all of the
// tree).
//
// Part K runs the depth-first search with the whole search's guide, in its
// order, but nextPrefix never backtracks into another part's subtree: it
// runs its own subtrees, and the spine, which is part 0's and which the
// other parts run without counting (one run per round). The first failure
// of the whole search is the first failure of the part it belongs to: the
// rounds before its bound fail nowhere, and within its round the part runs
// its schedules in the whole search's order. Each round (bound 0, 1, ...)
// is split the same way, so the parts' counts add up to the whole search's
// round by round. Each part has the whole budget (MaxSchedules). PCT
// splits by the index of its random schedules instead. The reduced search
// does not split: its backtrack points are added by the schedules of
// other subtrees.

// Shard is part K (0 ≤ K < N) of N of one search; the zero value, N = 0,
// is the whole search, as is N = 1.
type Shard struct{ K, N int }

// ParseShard reads "k/n" (0 ≤ k < n): WSCHED_EXPLORE_SHARD's value, and
// cmd/verify -shard's.
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return Shard{}, fmt.Errorf("shard %q: want k/n with 0 <= k < n", s)
	}
	return Shard{K: k, N: n}, nil
}

// String is "k/n", or "" for the whole search.
func (s Shard) String() string {
	if !s.Split() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Split reports whether s is a part of a search, not all of it.
func (s Shard) Split() bool { return s.N > 1 }

// within lists the alternatives of d that a search at bound may take
// after pre preemptions, in the order it tries them (the default first),
// into buf.
func within(d *decision, pre, bound int, buf []int) []int {
	buf = buf[:0]
	for _, a := range d.alternatives() {
		if !d.costs(a) || pre < bound {
			buf = append(buf, a)
		}
	}
	return buf
}

// spine follows a run along the spine of its round: how many subtrees
// the spine's decisions so far root. The spine takes only defaults, which
// are free: it spends no preemption.
type spine struct {
	bound  int
	rooted int // subtrees rooted at the decisions so far
	alts   []int
}

func newSpine(bound int) spine { return spine{bound: bound} }

// subtree returns the number of the subtree whose root is choice c at d,
// the next decision of the spine (0 for the default: the spine goes on;
// -1 for a choice beyond the bound).
func (sp *spine) subtree(d *decision, c int) int {
	sp.alts = within(d, 0, sp.bound, sp.alts)
	for p, a := range sp.alts {
		if a == c {
			if p == 0 {
				return 0
			}
			return sp.rooted + p
		}
	}
	return -1
}

// advance moves past d, the next decision of the spine.
func (sp *spine) advance(d *decision) {
	sp.alts = within(d, 0, sp.bound, sp.alts)
	sp.rooted += len(sp.alts) - 1
}

// part is the part of the schedule of decisions ds, run at bound, in a
// search split in n.
func part(ds []decision, bound, n int) int {
	sp := newSpine(bound)
	for i := range ds {
		if s := sp.subtree(&ds[i], ds[i].chosen); s != 0 {
			return max(s, 0) % n // -1: a replayed choice beyond the bound
		}
		sp.advance(&ds[i])
	}
	return 0 // the spine
}

// mine reports whether the schedule of decisions ds, run at bound, is
// part s.K's.
func (s Shard) mine(ds []decision, bound int) bool {
	return !s.Split() || part(ds, bound, s.N) == s.K
}
