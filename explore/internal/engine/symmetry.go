package engine

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wsched/wsched/explore/internal/weak"
)

// Symmetry: goroutines a scenario declares interchangeable (Symmetric)
// are explored once per orbit at each decision where they are twins.
//
// Goroutines of one group run the same function on the same inputs, are
// given no data by identity (data they make for themselves is fine:
// nobody sees it before they write to shared state), and nothing else
// in the scenario tells them apart (they are joined together, with JoinAll; a check holds or
// fails for any permutation of them). A goroutine of deterministic code
// is then a function of what it observed: two members whose histories
// are equal, the same operations on the same locations, each reading
// what the same write left there, are in the same local state, and the
// state of the whole run is unchanged by swapping them (their own data
// swapped with them: nobody else sees it). At a decision where neither is
// the goroutine deciding (so choosing either costs the same) and neither
// is a timer firing, running the higher one leads to the mirror image of
// what running the lower one leads to, decision for decision, preemption
// for preemption: its subtree is skipped (schedule.twins).
//
// The history is kept as a hash. A write's identity is the hash of its
// writer's history just after it (a member's history starts from its
// group, anyone else's from its own number, so two writes have one
// identity only when they are one write or twins' at equal histories,
// which write the same value); an operation observes the identity of the
// last write to its location. Every access counts as a read (PointAt
// does not say whether a write also reads). What the explorer cannot
// name makes a history unique from then on (a step of unknown accesses,
// a goroutine started, the goroutine's own number asked for): twins then
// stop being twins, which costs reduction and never soundness. A step
// that may write anything (Point) writes every location: the table of
// last writes starts over, in a new epoch. A member's own data, in the
// unbounded search with wakeup trees (elsewhere an access to it ends the
// twinship, its address differing from the twin's): a location that no
// goroutine accessed before a member did (in a search that declares a
// group, every run keeps the locations accessed before its first
// Symmetric) is that member's own, and the member's history names it by
// its number among its own (the first, the second...), not by its address; anyone else's access to it, and a member's access to
// another's, names the address. Twins whose own locations differ in
// address only are then twins: the swap takes the k-th own location of
// one to the k-th of the other, with what is stored there. This is sound
// because two members with equal histories computed the same addresses
// from the same observations, so where their k-th own locations differ,
// the difference came from what each made for itself (an allocation; data
// given by identity is not allowed), and nobody else can reach those
// before a member publishes one with a write to shared state, which the
// other twin's history would have to repeat, observing the first's write
// (so they would not be twins). A location that was shared but first
// touched by a member is named as the member's own by it and by address
// by everyone after: the other members then differ from it, which costs
// reduction only.
//
// The plain depth-first search (and the forecast that walks its tree)
// uses it, and the bounded reduced search: a twin a race asks for is run
// as the goroutine it twins (porNode.untwin).
//
// The unbounded reduced search with wakeup trees (por_wakeup.go) uses it
// in the mirror image (por_symmetry.go). Nothing costs there, so the
// goroutine deciding may be a twin too (curTwins): where it is the higher
// one, the run goes on with the goroutine it twins. Its completeness
// rests on a lemma (Abdulla, Aronis, Jonsson and Sagonas, JACM 2017): when the
// search of a node E with sleep set Z ends, every maximal execution E.w
// that no member of Z blocks has an equivalent execution explored below
// E. The proof takes, among the executions explored below E, one that
// shares the longest prefix with an execution equivalent to E.w, and
// finds in it a race whose reversal was put in the wakeup tree at the
// end of that prefix and leads further along E.w: a contradiction. Only
// races of explored executions are used. With twins the lemma is claimed
// up to a permutation of the members: an execution equivalent to E.w or
// to its image under a permutation of the members is explored (what
// symmetry_unbounded_test.go checks against the full search). The search
//
//   - keeps twins x < y at E only where the sleep set is symmetric in
//     them (both asleep or neither) and neither has taken a step that the
//     reduced search orders against others' while its history stays a
//     twin's: the step after a Gosched (which conflicts with every step),
//     a timeout's firing (which writes the clock) and a timed wait's pass
//     in time (whose passLoc a later firing reads if the timer was ahead
//     of its own: the order of two twins' timers is not in their
//     histories); thread.ordered.
//     Then E is equivalent to its image under the swap s of x and y
//     (with their own locations, the k-th of each for the other's):
//     their histories are equal, so their i-th accesses are to one
//     location, or to each one's k-th own, and read one write, and
//     neither wrote a shared location (the second twin to access a
//     location after the first wrote it observes that write, which the
//     first did not: they would not be twins); nobody else touched their
//     own locations (nobody can reach them before one is published). So
//     the i-th events of x and of y conflict with exactly the same events
//     of others, and renaming them gives an equivalent execution. Where
//     x or y is the goroutine deciding (curTwins), nothing changes: the
//     search has no bound, and which goroutine decides is no part of the
//     state the continuations depend on. Hence E.s(u) is equivalent to
//     s(E.u) for every continuation u: the mirror image of a run from E is a run from E,
//     in the same orbit;
//   - runs no branch that y leads at E: a branch handed down from an
//     ancestor (the carry) or inserted by a race, led by y, is replaced
//     by its image under s (x and y swapped down the whole branch, and
//     the locations their ends write) and merged with x's branches, each
//     path of either staying a path; an inserted sequence whose image x
//     leads while x's branch is the one being explored at E is dropped:
//     it extends E.x, which the lemma for E.x covers;
//   - counts y as explored at E once x is (porNode.mirror): a later
//     choice at E has y asleep with the mirror image of x's step, which
//     x's subtree covers up to s; x's own subtree has not (that would be
//     circular).
//
// In the proof, the longest prefix is taken over the orbit of E.w. Where
// the proof needs the search to follow a sequence that a twin y leads at
// a node E', the search holds that sequence's image, led by x; the image
// continues an execution of the same orbit (s(E') is equivalent to E'),
// so the shared prefix grows all the same, and a member asleep by
// mirror blocks only what its twin's subtree covers up to s. The lemma
// for a child node is up to its own twins' permutations, each of which
// leaves that node's prefix equivalent to itself, so the orbits compose.
// This is an argument, not a checked proof; the test compares every
// generated program's outcomes and orbits of classes with the full
// search's.
//
// In the weak-memory mode (weakmode.go) the state of a run is also the
// memory model's, which names threads: each thread's view (a vector
// clock over the threads, a frontier per location, the seq_cst sources
// it is pinned after), the stores with their writers and the views they
// carry, the seq_cst graph, the cells' last accesses. Swapping two
// members must leave that unchanged too, up to renaming the two. The
// argument is by the execution graph. The model offers a read exactly
// the stores, and a store exactly the places, that keep the execution
// RC11-consistent (its litmus tests check that against the RC11 oracle),
// within its bounds: a global count of stale choices, each location's
// newest stores in modification order, each thread's yield frontier. So
// what it offers from a state is a function of the graph so far (the
// events with their operation, location, ordering and value; program
// order; reads-from; modification order; the synchronisation of go
// statements, joins, locks and channels) and of those bounds, and two
// states whose graphs are isomorphic by the swap, with the bounds equal,
// behave the same. The graph is symmetric in twins when
//
//   - their events match one for one: the same operations, with the same
//     orderings (the history records a fence's ordering and a read's),
//     each read reading the same store. A read records the store it read
//     (as the model chose it, not the latest), by its location and the
//     model's number of the operation that wrote it. That names one
//     store, not a class of equal ones (as a write's identity does in the
//     plain history): twins never write (below), so no two twins' stores
//     need be taken as one;
//   - nothing else is ordered after their events: no event of another
//     thread reads from, synchronises with or is placed in modification
//     order after theirs. So a member's history becomes unique at its
//     first store, read-modify-write, swapping compare-and-swap, plain
//     cell write, release of a lock or channel, and at what ties its view
//     to the state of the run at that moment rather than to its history:
//     an acquire of a lock or channel, a join, a yield (whose frontier is
//     every location's latest store), a look at its clock (WeakClock).
//     Its reads do enter the graph as the sources of from-read edges
//     (and of seq_cst ones): those are functions of reads-from and
//     modification order, so equal for twins;
//   - what happens before their first events is the same: they were
//     started by one goroutine with no operation of the memory model
//     between their go statements (consecutive event numbers of the
//     spawner, goAt) and made none of their own as they started (a yield
//     before the first scheduling point), so their views differ only in
//     the spawner's count of those go statements, which no later event
//     compares with (a go statement accesses nothing; the only record of
//     one is as the spawner's next event after a seq_cst one, and that
//     is the first go statement, which every member's view has). A group
//     started otherwise is kept (Symmetric still orders its timeouts)
//     but its members never become twins (sameStart).
//
// Then their views are equal but for their own entries, by induction
// over their events: a view is its start joined with what the stores
// read carry (at the read, or at the next acquire fence), the frontier
// raised to the stores read, their own count of events. The bounds are
// equal: the stale count is global, the kept stores depend on
// modification order, and no twin has yielded. The seq_cst accesses and
// fences of twins are allowed by the same argument.
//
// The classes order the seq_cst events too, by the location scLoc
// (por.go) that a seq_cst access reads and a seq_cst fence writes, and
// the plain argument's premise (the run so far equivalent to its mirror
// image) needs twins' steps to conflict with no step of each other, and
// with the same steps of others. So a member's history records scLoc
// like any location (touchSC, weakmode.go): the second twin to make a
// seq_cst fence observes the first's write of it and the two are twins
// no longer, and a seq_cst access after another goroutine's seq_cst
// fence observes that fence. Without it, two members whose first steps
// each made a seq_cst load and a seq_cst fence stayed twins though the
// run ordered their steps, and the search missed the mirror of a class
// (docs/explore.md, "Symmetry").
//
// The argument leans on the model's exactness; symmetry_weak_test.go
// checks its conclusion at every pair of twins of generated programs
// (seq_cst accesses and fences among them): equal clocks but for the
// twins' own entries and their spawner's, and the same stores readable
// at every location with every ordering; it checks the premise there
// too (mirrorDiffers), and compares outcomes and classes with the full
// search.
// Without the store a read read in the history, without the start rule,
// or without the yield rule, that test fails, and without scLoc in the
// history TestSymmetryInTheWeakModeSeqCstFencesOrderTwins does; the rule for
// writes duplicates the plain history's (a write is an access the twin
// cannot repeat), and locks and joins are not in the generated programs.

// symState is a run's record of the histories, from the first Symmetric
// on.
type symState struct {
	hist  []uint64           // by thread
	group []int              // by thread: 0 none, else the group
	lastW map[uintptr]uint64 // the identity of the last write to each location, this epoch
	epoch uint64             // steps that may have written every location
	uniq  uint64             // unique observations handed out
	// own (in the unbounded search with wakeup trees, curTwins): each
	// location accessed, with the member that accessed it first (its
	// own: see above) and its number among that member's own, or -1 if
	// someone else did.
	own  map[uintptr]ownLoc
	nOwn []int // by thread: its own locations
}

// ownLoc is a location's first accessor, if a member, and its number
// among that member's own locations.
type ownLoc struct{ tid, k int }

// symOn reports whether the run keeps twins.
func (r *run) symOn() bool { return r.symAllowed }

func symMix(h, x uint64) uint64 {
	h ^= x + 0x9E3779B97F4A7C15 + h<<6 + h>>2
	return mix(h)
}

func (s *symState) grow(n int) {
	for len(s.hist) < n {
		id := len(s.hist)
		s.hist = append(s.hist, symMix(0xA5A5, uint64(id)+1<<32))
		s.group = append(s.group, 0)
		s.nOwn = append(s.nOwn, 0)
	}
}

// declare makes the threads one group. Each must not have run a step
// yet: its history starts here.
func (r *run) declareSymmetric(ts []*thread) {
	if len(ts) < 2 {
		return
	}
	// Whether twins are skipped or not, timeouts of one deadline fire
	// in the order they were armed from now on, not by goroutine number
	// (earliestSleeper): a rule that names a goroutine would tell the
	// members apart.
	r.fifoTimers = true
	if !r.symOn() {
		return
	}
	if r.sym == nil {
		r.sym = &symState{lastW: map[uintptr]uint64{}}
		// Own data only where every location accessed before is known:
		// not in the search's first run (r.seen is kept from the run after
		// one declared a group) nor after a step of unknown accesses.
		if r.curTwins() && r.seen != nil {
			r.sym.own = make(map[uintptr]ownLoc, len(r.seen))
			for l := range r.seen {
				r.sym.own[l] = ownLoc{-1, 0}
			}
		}
		r.seen = nil
	}
	s := r.sym
	s.grow(len(r.threads))
	apart := r.mem != nil && !r.sameStart(ts)
	g := 1
	for _, x := range s.group {
		g = max(g, x+1)
	}
	for _, t := range ts {
		if t.stepped {
			r.failNow(r.cur, kindAssert, fmt.Sprintf("explore.Symmetric: %s has run already; declare a group right after starting it", t.name))
		}
		if s.group[t.id] != 0 {
			r.failNow(r.cur, kindAssert, fmt.Sprintf("explore.Symmetric: %s is in a group already", t.name))
		}
		s.group[t.id] = g
		s.hist[t.id] = symMix(0x5E7, uint64(g))
		if apart {
			s.note(t, 0x5A)
		}
	}
}

// sameStart reports whether, in the weak-memory mode, the threads were
// started by one goroutine with no operation of the memory model between
// their go statements, and made none of their own yet (as they started,
// before their first scheduling point: a yield): their views are then
// the same (see above).
func (r *run) sameStart(ts []*thread) bool {
	at := make([]uint32, 0, len(ts))
	for _, t := range ts {
		if t.spawner != ts[0].spawner || t.spawner == nil || r.mem.m.Clock(weak.Thread(t.id)).At(t.id) != 1 {
			return false
		}
		at = append(at, t.goAt)
	}
	slices.Sort(at)
	for i := range at {
		if at[i] != at[0]+uint32(i) {
			return false
		}
	}
	return true
}

// The weak-memory mode's records (weakmode.go, hooks.go), each called
// with r.sym set, after the model made the operation.

// symRead records that the running thread read the store c of l (at
// address a) with ordering o: the store itself (its location and the
// model's number of the operation that wrote it, 0 for the initial
// value).
func (r *run) symRead(a uintptr, l weak.Loc, o Ordering, c weak.Candidate) {
	s := r.sym
	s.grow(len(r.threads))
	s.observe(r.cur, 0x10AD+uint64(o), symMix(symMix(0x1417, uint64(a)), uint64(l)<<32|uint64(c.Seq)))
}

// symShared records that the running thread did something of the memory
// model that other threads may order after, or that ties its view to
// the state of the run (see above): its history becomes unique.
func (r *run) symShared() {
	if s := r.sym; s != nil && !r.cur.exiting {
		s.grow(len(r.threads))
		if s.group[r.cur.id] != 0 {
			s.note(r.cur, 0x5BA7)
		}
	}
}

// symFence records a fence of ordering o of the running thread.
func (r *run) symFence(o Ordering) {
	s := r.sym
	s.grow(len(r.threads))
	s.observe(r.cur, 0xFE, uint64(o))
}

// access records t's access a: it observes the last write to a's
// location; if it writes, it is that location's last write.
func (s *symState) access(t *thread, a access) {
	if a.loc == 0 {
		s.unknown(t, a.write)
		return
	}
	obs := symMix(s.lastW[a.loc], s.epoch)
	w := uint64(0)
	if a.write {
		w = 1
	}
	at := uint64(a.loc)
	if s.own != nil && a.loc != scLoc { // the seq_cst order is nobody's own
		o, ok := s.own[a.loc]
		if !ok {
			o = ownLoc{-1, 0}
			if s.group[t.id] != 0 {
				o = ownLoc{t.id, s.nOwn[t.id]}
				s.nOwn[t.id]++
			}
			s.own[a.loc] = o
		}
		if o.tid == t.id {
			at = symMix(0x0A7, uint64(o.k)) // its own: by its number
		}
	}
	h := symMix(symMix(symMix(s.hist[t.id], at), w), obs)
	s.hist[t.id] = h
	if a.write {
		s.lastW[a.loc] = symMix(h, 0x3)
	}
}

// unknown records a step of t that may have read anything (and, if
// write, written anything): t's history becomes unlike any other.
func (s *symState) unknown(t *thread, write bool) {
	s.note(t, 0xD00D)
	if write {
		s.epoch++
		clear(s.lastW)
	}
}

// note records in t's history something no other thread's can equal.
func (s *symState) note(t *thread, what uint64) {
	s.uniq++
	s.hist[t.id] = symMix(symMix(s.hist[t.id], what), s.uniq)
}

// observe records a value t saw that the explorer itself holds (the
// clock, a deadline): equal values keep twins twins.
func (s *symState) observe(t *thread, what, v uint64) {
	s.hist[t.id] = symMix(symMix(s.hist[t.id], what), v)
}

// step records the step c is about to take (chosen at a decision or
// alone): its pending accesses, and how a wait ended.
func (r *run) symStep(c *thread) {
	c.stepped = true
	c.ordered = c.ordered || c.yieldStep || c.state == blocked && c.deadline > 0 // a firing, or a pass in time
	s := r.sym
	if s == nil {
		if r.seen != nil {
			if c.pendAll { // what it touched is not known: nothing is a member's own
				r.seen = nil
				return
			}
			for _, a := range c.pend {
				r.seen[a.loc] = struct{}{}
			}
		}
		return
	}
	s.grow(len(r.threads))
	if c.state == blocked {
		to := uint64(0)
		if c.timedOut {
			to = 1
		}
		s.observe(c, 0x7E, to)
	}
	switch {
	case c.yieldStep:
		s.observe(c, 0x9051, 0) // the step after a Gosched accesses nothing
	case c.pendAll:
		// A Point writes whatever it names not; a Block only reads.
		s.unknown(c, c.state != blocked)
	default:
		for _, a := range c.pend {
			s.access(c, a)
		}
	}
}

// symCheck, nil but in tests, is shown every pair of twins found
// (symmetry_weak_test.go checks their views in the memory model).
var symCheck func(r *run, x, y int)

// twinsOf returns the enabled members of a group (not cur, not the timer)
// that have a lower-numbered twin enabled: the choices the search skips.
func (r *run) twinsOf(sc *schedule) uint64 {
	s := r.sym
	if s == nil {
		return 0
	}
	s.grow(len(r.threads))
	var twins uint64
	cand := sc.enabled
	if sc.cur >= 0 && !r.curTwins() {
		cand &^= 1 << sc.cur
	}
	if sc.timer >= 0 {
		cand &^= 1 << sc.timer
	}
	for m := cand; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		if s.group[x] == 0 || twins&(1<<x) != 0 {
			continue
		}
		for n := m &^ (1 << x); n != 0; n &= n - 1 {
			if y := bits.TrailingZeros64(n); r.twin(x, y) {
				twins |= 1 << y
				if symCheck != nil {
					symCheck(r, x, y)
				}
			}
		}
	}
	return twins
}

// curTwins reports whether the goroutine deciding may be a twin: in the
// unbounded search with wakeup trees, where no choice costs anything
// (por_symmetry.go). Elsewhere its continuing is free and a switch is
// not, so it is never one.
func (r *run) curTwins() bool {
	g, ok := r.guide.(*porGuide)
	return ok && g.s.optimal
}

// twin reports whether threads x and y are twins (both of one group,
// with equal histories and wait states).
func (r *run) twin(x, y int) bool {
	s, tx, ty := r.sym, r.threads[x], r.threads[y]
	return s.group[x] != 0 && s.group[y] == s.group[x] && s.hist[y] == s.hist[x] &&
		ty.state == tx.state && ty.yielded == tx.yielded && ty.timedOut == tx.timedOut && ty.deadline == tx.deadline && (tx.deadline == 0 || ty.armed == tx.armed)
}

// twinBases maps each twin of sc to the lowest goroutine it is a twin of
// (the one the search runs in its place).
func (r *run) twinBases(sc *schedule) map[int]int {
	bases := map[int]int{}
	for m := sc.twins; m != 0; m &= m - 1 {
		y := bits.TrailingZeros64(m)
		for x := range y {
			if sc.enabled&(1<<x) != 0 && sc.twins&(1<<x) == 0 && (x != sc.cur || r.curTwins()) && x != sc.timer && r.twin(x, y) {
				bases[y] = x
				break
			}
		}
	}
	return bases
}

// Symmetric declares the goroutines of ths interchangeable: the search
// runs one of each set of twins at a decision (see above).
func Symmetric(ths ...*Thread) {
	r := current.Load()
	if r == nil || r.cur.exiting {
		return
	}
	ts := make([]*thread, 0, len(ths))
	for _, th := range ths {
		if th != nil {
			ts = append(ts, th.t)
		}
	}
	r.declareSymmetric(ts)
}

// JoinAll waits until every goroutine of ths has returned, in one step:
// the way to join a group of Symmetric goroutines without telling them
// apart (joining them one by one would wait for each in turn).
func JoinAll(ths ...*Thread) {
	r := current.Load()
	if r == nil {
		return
	}
	var on []access
	var ts []*thread
	for _, th := range ths {
		if th != nil {
			on = append(on, access{threadLoc(th.t.id), false})
			ts = append(ts, th.t)
		}
	}
	if len(ts) == 0 {
		return
	}
	r.cur.latch = true // ready only once every end was written (latchWait)
	r.block(r.cur, func() bool {
		for _, t := range ts {
			if t.state != finished {
				return false
			}
		}
		return true
	}, 0, "JoinAll", on)
	if w := weakRun(); w != nil {
		for _, t := range ts {
			w.mem.m.Join(w.thread(), weak.Thread(t.id))
		}
	}
}
