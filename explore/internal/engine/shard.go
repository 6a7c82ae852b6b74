package engine

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Sharding: part K of N of one search (Options.Shard), so that N processes,
// on one machine or on N, run one long scenario between them, each its own
// disjoint subtrees of the schedule tree, and their counts add up to the
// whole search's.
//
// The split is by the choices at a schedule's first branching decisions
// (those with more than one alternative within the round's preemption
// bound), up to the first that decides: a choice other than the default
// that costs a preemption, or that chooses an older store in the weak
// mode. The choices up to it (their positions among the alternatives,
// defaults included) are hashed (path, mix), and the hash modulo N is the
// schedule's part; a schedule that never decides is hashed whole. So each
// schedule of a round belongs to exactly one part, and every schedule
// below a deciding choice to the same one. A choice of the next goroutine
// where the current one cannot go on does not decide: it spends no
// preemption, and its subtree is often most of the tree (at bound 1, the
// subtrees below a preemption hold a few schedules each; those below a
// free choice, all the rest). Splitting at the first branching decisions
// alone would give one part nearly everything, and numbering the subtrees
// in turn would too where they alternate in size (a timer's subtree every
// other one); the hash spreads them: 8,530 + 7,901 of
// runtime/remote-spawn-one-worker's 16,431 schedules, 52,804 + 50,558 of
// stranding/lifo-slot's 103,362.
//
// Part K runs the depth-first search with the whole search's guide, in its
// order, but nextPrefix never backtracks into a choice that decides for
// another part: it runs its own subtrees and the schedules that have not
// decided yet (few: the ones without preemption or stale read), which it
// counts only if they hash to K. The first failure of the whole search is
// the first failure of the part it belongs to: the rounds before its bound
// fail nowhere, and within its round the part runs its schedules in the
// whole search's order. Each round (bound 0, 1, ...) is split the same
// way, so the parts' counts add up to the whole search's round by round.
// Each part has the whole budget (MaxSchedules). With the state cache a
// part caches only the decisions of its own subtrees (statecache.go), and
// the parts' counts do not add up to the whole search's. PCT splits by
// the index of its random schedules instead. The bounded reduced search, whose tree
// is what its own runs ask for, splits its own way (por_shard.go).

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
	if d.kind == kindStore {
		for i := range d.load.n {
			buf = append(buf, i)
		}
		return buf
	}
	// decision.alternatives' order, without its allocation: the default
	// (always free), then the others by number.
	def := d.schedule.defaultChoice()
	buf = append(buf, def)
	for m := d.enabled &^ (1 << def) &^ d.twins; m != 0; m &= m - 1 {
		if a := bits.TrailingZeros64(m); !d.schedule.costs(a) || pre < bound {
			buf = append(buf, a)
		}
	}
	return buf
}

// path follows a run's choices up to the first that decides its part,
// and hashes them: the key of the part.
type path struct {
	bound int
	h     uint64 // the hash of the branching choices so far
	alts  []int
}

// at returns the key of the path once choice c is taken at d, its next
// decision, and whether c decides the part: a choice other than the
// default that costs a preemption or chooses a store. A path that has
// decided nothing yet has spent no preemption (a default, or a choice of
// the next goroutine where the current one cannot go on, is free).
func (p *path) at(d *decision, c int) (key uint64, decides bool) {
	p.alts = within(d, 0, p.bound, p.alts)
	if len(p.alts) < 2 {
		return p.h, false // no choice here
	}
	i := slices.Index(p.alts, c) // -1: a replayed choice beyond the bound
	return mix(p.h + uint64(i+2)), i != 0 && (i < 0 || d.costs(c) || d.kind == kindStore)
}

// mix is splitmix64's finalizer: neighbouring keys land in unrelated
// parts.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// part is the part of the schedule of decisions ds, run at bound, in a
// search split in n; p is scratch memory.
func (p *path) part(ds []decision, bound, n int) int {
	p.bound, p.h = bound, 0
	for i := range ds {
		key, decides := p.at(&ds[i], ds[i].chosen)
		if decides {
			return int(key % uint64(n))
		}
		p.h = key
	}
	return int(p.h % uint64(n))
}

// mine reports whether the schedule of decisions ds, run at bound, is
// part s.K's.
func (s Shard) mine(ds []decision, bound int) bool {
	var p path
	return s.mineWith(&p, ds, bound)
}

// mineWith is mine with scratch memory p.
func (s Shard) mineWith(p *path, ds []decision, bound int) bool {
	return !s.Split() || p.part(ds, bound, s.N) == s.K
}
