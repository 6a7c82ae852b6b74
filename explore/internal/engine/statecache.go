package engine

import (
	"fmt"

	"github.com/wsched/wsched/explore/internal/vclock"
)

// The state cache of the plain depth-first search (Options.StateCache).
//
// Two prefixes of schedules that are one Mazurkiewicz trace (they differ
// only in the order of steps that do not conflict) leave the program in
// one state: each step read what the same writes left, so each did the
// same thing. What the search can still do from a decision depends only
// on that state, on the goroutine deciding (switching away from it may
// cost a preemption) and on the preemptions left. So once the search has
// run every schedule below a decision, a later decision with the same
// trace, the same goroutine deciding and no more preemptions left has
// nothing new below it: the run is cut there (it coasts to its end without
// deciding, coast), and the search backtracks as if it had run the
// subtree. This is stateful search, with the trace
// standing for the state, on a search that otherwise keeps no state.
//
// A trace is named by a hash: the sum, over its steps, of a hash of the
// step's goroutine, its number among that goroutine's steps and its vector
// clock (which steps happen before it: the steps the reduced search's
// analysis orders it after, por_run.go). Two prefixes of one trace have
// the same steps with the same clocks, and a sum does not see their
// order. Equal sums for two traces are a collision of a 128-bit hash (odds
// about n²/2¹²⁹ for n decisions cached). The explorer's own state at the
// decision (each goroutine's state, whether it yielded, its deadline; the
// clock) is hashed beside the trace, though the trace determines it: a
// part hashed in vain costs a cut, never a schedule.
//
// What it rests on is what the reduced search rests on: every access that
// orders two steps is named (PointAt, Touch, BlockOn; an unnamed step
// conflicts with every other), and the scenario is deterministic given its
// schedule. What it adds is small: no race is reversed, no sleep set is
// kept, the bound is the plain search's. A check that reads how the run
// interleaved rather than what the program did (a log appended in the
// order goroutines ran, with no scheduling point) would see a cut run's
// state as one it is not; such a scenario must keep the cache off.
//
// In the weak-memory mode what a step did also depends on its choices:
// which store each of its reads read, where each of its stores went in
// modification order (chooseWeak). A step's hash takes them in
// (porRun.withPicks). The model's state (each location's stores in
// modification order, each goroutine's view, the seq_cst order, the count
// of stale choices that bounds those left) is then the same after two
// prefixes of one trace with the same choices: the model builds it from
// those steps, and the steps that commute in a trace touch different
// locations (seq_cst accesses and fences share one they order by,
// touchSC), the premise of the reduced search in the weak mode too. The
// cache is looked at where a goroutine is chosen; a choice of store
// records no state there (cacheNoState), and a run that coasts reads the
// latest store, the default choice.
//
// In a part of a sharded search (shard.go) a decision's subtree is the
// part's own only below the choice that decided the run's part; above
// it, the part runs only its share of the subtree. So a part caches only
// the decisions below that choice (cacheDone), each a subtree it ran
// whole, and may cut at any decision whose state it cached: what follows
// there it has run. So each part reaches every state of its own share of
// the whole search. A state the part did not cache, though another part
// did, it searches again (the parts share nothing), which is what the
// parts pay: stranding/lifo-slot at 2 preemptions, 3,250,284 schedules
// whole, runs 2,288,059 + 2,351,840 in two parts. The parts' counts do
// not add up to the whole search's.
//
// Off, whatever the option: once a Symmetric group is declared (the
// twins' rule reads histories), and in a run someone looks at (a trace,
// Classes, onRun).

// stateKey names a trace, with the explorer's state at a decision.
type stateKey struct{ a, b uint64 }

// stateCache holds the decisions below which the search has run every
// schedule: per state, the most preemptions that were left there. An
// open-addressing table (linear probing, at most half full), its keys and
// their preemptions left side by side.
type stateCache struct {
	keys []stateKey // the zero key is an empty slot (a key is never zero: fix)
	left []int8
	n    int
}

// maxCacheSlots bounds the table (16 bytes and one a slot: 280 MB, half
// of it used, 8,388,608 states; it grows by doubling as states come).
// When full, a new state takes an older one's place (add; Result.CacheFull
// counts them). runtime/two-wakes at 2, which meets 9,052,784 states,
// ends so in 11,391,641 schedules, 151 more than with four times the room
// (whose table and garbage took twice the memory), and 25,432,297 fewer
// than when a full table took no new state. A variable for the tests,
// which fill a small table.
var maxCacheSlots = 1 << 24

func newStateCache() *stateCache {
	n := min(1<<12, maxCacheSlots)
	return &stateCache{keys: make([]stateKey, n), left: make([]int8, n)}
}

// fix keeps a key off the zero key of an empty slot.
func (k stateKey) fix() stateKey {
	if k == (stateKey{}) {
		k.b = 1
	}
	return k
}

// slot is the index of k's slot, or of the empty slot where it would go.
func (c *stateCache) slot(k stateKey) int {
	mask := len(c.keys) - 1
	i := int(k.a) & mask
	for c.keys[i] != k && c.keys[i] != (stateKey{}) {
		i = (i + 1) & mask
	}
	return i
}

// covered reports whether the search has run every schedule below a
// decision of state k with left preemptions left (or more).
func (c *stateCache) covered(k stateKey, left int) bool {
	k = k.fix()
	i := c.slot(k)
	return c.keys[i] == k && int(c.left[i]) >= left
}

// add records that the search has run every schedule below a decision of
// state k with left preemptions left; false if the table, full, took k in
// place of an older state or did not take it.
//
// A full table still takes states. Linear probing leaves no gap in the run
// of slots from a key's home to the key, so a key may replace only the one
// in its own home slot: every other key stays where its probe finds it.
// Where the home slot is empty the key goes there, up to three quarters
// full (beyond, a probe for an absent key grows long; at none empty it
// would not end). Forgetting a state costs its subtree run again where it
// is met, never a schedule missed; and the depth-first search meets again
// mostly the states of the subtrees it ran last, which a table that keeps
// only its first states has no room for. stranding/lifo-slot at 2 with a
// table of a third the states it searches (1 << 21 slots): 3,293,487
// schedules, exhaustive, against 3,250,284 with room; keeping only the
// first states, its budget of 5,000,000 ran out at 2 (docs/explore.md,
// "A full table").
func (c *stateCache) add(k stateKey, left int) bool {
	k = k.fix()
	i := c.slot(k)
	if c.keys[i] == k {
		c.left[i] = max(c.left[i], int8(left))
		return true
	}
	if 2*(c.n+1) > len(c.keys) {
		if 2*len(c.keys) > maxCacheSlots {
			c.addFull(k, left, i)
			return false
		}
		c.grow()
		i = c.slot(k)
	}
	c.keys[i], c.left[i] = k, int8(left)
	c.n++
	return true
}

// addFull is add of a key not in the table, full, whose probe ended at
// the empty slot i: in its home slot, in place of the state there, or
// there if empty and the table under three quarters full.
func (c *stateCache) addFull(k stateKey, left, i int) {
	switch home := int(k.a) & (len(c.keys) - 1); {
	case i != home:
		c.keys[home], c.left[home] = k, int8(left) // the state there forgotten
	case 4*(c.n+1) <= 3*len(c.keys):
		c.keys[i], c.left[i] = k, int8(left)
		c.n++
	}
}

// grow doubles the table.
func (c *stateCache) grow() {
	keys, left := c.keys, c.left
	c.keys, c.left = make([]stateKey, 2*len(keys)), make([]int8, 2*len(keys))
	for j, k := range keys {
		if k != (stateKey{}) {
			i := c.slot(k)
			c.keys[i], c.left[i] = k, left[j]
		}
	}
}

// stepHash is the hash of one step: its goroutine, its number among that
// goroutine's steps, and its clock, trailing zeros ignored (a clock has
// an entry per goroutine started when it was made). Two lanes, each a
// multiply and a shift per entry, each finished by mix (shard.go).
func stepHash(tid, local int, c vclock.Clock) stateKey {
	n := len(c)
	for n > 0 && c[n-1] == 0 {
		n--
	}
	a := mix(uint64(tid)<<32 | uint64(uint32(local)) + 0x9e3779b97f4a7c15)
	b := a ^ 0xd6e8feb86659fd93
	for i, v := range c[:n] {
		w := uint64(i)<<32 | uint64(v)
		a = (a ^ w) * 0xff51afd7ed558ccd
		a ^= a >> 29
		b = (b + w) * 0xc4ceb9fe1a85ec53
		b ^= b >> 31
	}
	return stateKey{mix(a), mix(b)}
}

// addStep adds a step's hash to the trace's: a sum, which the order of
// the steps does not change.
func (k *stateKey) addStep(s stateKey) {
	k.a += s.a
	k.b += s.b
}

// decisionKey is the state of the decision t is about to take in r: the
// trace so far (every step finished: schedule finishes the running one
// first), the goroutine deciding, and the explorer's own state.
func (r *run) decisionKey(t *thread) stateKey {
	h := mix(uint64(t.id) + 1)
	h = mix(h ^ uint64(r.now))
	for _, x := range r.threads {
		v := uint64(x.state) | b2u(x.yielded)<<2 | b2u(x.timedOut)<<3 |
			b2u(x.pendAll)<<4 | b2u(x.yieldStep)<<5 | b2u(x.latch)<<6 | uint64(x.id)<<8
		h = mix(h ^ v)
		if x.deadline != 0 {
			h = mix(h ^ uint64(x.deadline))
		}
	}
	k := r.por.trace
	k.a ^= h
	k.b ^= mix(h + 0x2545f4914f6cdd1d)
	return k
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// cacheCut is schedule's look at the cache at the decision t is about to
// take: it reports whether to cut the run there (the decision's subtree
// has run), and otherwise keeps the decision's state for cacheDone.
func (r *run) cacheCut(t *thread) bool {
	if r.sym != nil || r.seen != nil {
		r.cache = nil // a Symmetric group: off from here (cacheDone drops it)
		return false
	}
	if len(r.cacheKeys) != len(r.decisions) {
		// cacheDone reads the states by the index of their decision.
		panic(fmt.Sprintf("engine: %d decision states for %d decisions (a decision that records no state: cacheNoState)", len(r.cacheKeys), len(r.decisions)))
	}
	if n := len(r.cacheKeys); n < r.cacheKnown && len(r.por.events) <= r.por.keep {
		// A decision the run replays, every step before it the last
		// run's (none diverged, por_keep.go): its state is the last
		// run's, kept in place. The last run did not cut there, and what
		// the cache took since are decisions below this one, whose
		// traces have more steps: this one cannot be cut now either.
		r.cacheKeys, r.cacheLeft = r.cacheKeys[:n+1], r.cacheLeft[:n+1]
		return false
	}
	k, left := r.decisionKey(t), r.cacheBound-r.preempts
	if r.cache.covered(k, left) {
		return true
	}
	r.cacheKeys = append(r.cacheKeys, k)
	r.cacheLeft = append(r.cacheLeft, int8(left))
	return false
}

// cacheNoState keeps the run's list of decision states in step with its
// decisions at a decision of the weak mode (chooseWeak): the cache is
// looked at where a goroutine is chosen, not where a store is, so the
// decision has no state (left -1, which cacheDone passes over).
func (r *run) cacheNoState() {
	r.cacheKeys = append(r.cacheKeys, stateKey{})
	r.cacheLeft = append(r.cacheLeft, -1)
}

// forcedStep ends the running step at a forced point (run.goOn, which
// decides nothing there) and starts t's next, as schedule does where one
// goroutine can go: the steps, and so the trace's hash, are the same as
// where the point decides.
func (p *porRun) forcedStep(r *run, t *thread) {
	p.finish(r)
	p.begin(r, t.id, -1, 1<<t.id)
}

// cacheDone records, after run r of the depth-first search, the decisions
// below which every schedule has now run: those after next, the decision
// the next run changes (-1: the round is over).
func (e *explorer) cacheDone(r *run, next int) {
	if e.cache == nil {
		return
	}
	if e.symmetric {
		e.cache = nil // a Symmetric group was declared: off for the search
		return
	}
	if r.cache == nil {
		return
	}
	from := next + 1
	if e.opt.Shard.Split() {
		// Only below the choice that decided the run's part, the
		// decision len(e.keys)-1 (nextPrefix); a run that decided none
		// has no decision of its own.
		from = max(from, len(e.keys))
	}
	for j := from; j < len(r.cacheKeys); j++ {
		if r.cacheLeft[j] >= 0 && !e.cache.add(r.cacheKeys[j], int(r.cacheLeft[j])) {
			e.res.CacheFull++
		}
	}
}

// coast goes on with a run cut at a decision (cacheCut) without deciding:
// from there the run takes each point's default choice, the one the
// search took first below the decision where the state was searched, and
// records nothing (no decision, no analysis: its record stays as it was
// at the cut, for the next run to keep, and comes back when the run ends).
// The schedule it finishes is the first one of that subtree, which ran
// and passed. To tear the run down there instead would end every
// goroutine by Goexit, whose deferred calls (a poll's stack trace among
// them) and the coroutines started anew cost more than the steps left.
// Should a coasted run fail (a scenario that does not do the same given
// the same schedule), the failure is reported as any other: its schedule
// is the cut prefix and the default choices after it, which is how the
// search replays it.
func (r *run) coast() {
	r.cut = true // counted as Result.Cut (runOnce)
	r.cutPor, r.por = r.por, nil
}
