package engine

import (
	"fmt"
	"sync/atomic"

	"github.com/wsched/wsched/explore/internal/vclock"
	"github.com/wsched/wsched/explore/internal/weak"
)

// The weak-memory mode (Options.Weak): every atomic operation of the
// instrumented code is also an operation of a C11 memory model
// (explore/internal/weak), which keeps each location's recent stores and each
// goroutine's view of them. A load may then read a store older than the
// latest one, as it may on a machine with weaker atomics than Go's, when
// the orderings named in the code (explore/atomic) allow it: which
// store it reads is a decision of the search, like which goroutine runs
// next, enumerated by the depth-first search, drawn at random by PCT, and
// recorded in the replay token. Plain cells (atomic.Cell: the ring's
// slots) are checked by happens-before: two accesses, one a write, not
// ordered by the code's orderings and locks are a data race, a failure.
//
// The real memory holds the last store in modification order of every
// location; the model decides what a load returns, and, as the search
// decides, a store may go before the latest one in modification order
// (memory then keeps the latest: the wrapper does not write it), and a
// read-modify-write or a compare-and-swap may read an older store (its own
// store then goes right after that one, and memory keeps the latest
// again). Those choices are decisions like a load's, within the same
// bound of stale choices per schedule.
//
// What synchronises besides the atomics, as the Go memory model says: a
// go statement, a goroutine's end before the Join that waits for it, a
// mutex's Unlock before the next Lock, a WaitGroup's Done before the Wait
// that returns, an Event's Set before a Wait or IsSet that sees it, and a
// send on or close of a channel before a receive on it. The channels of
// impl/ carry only wake-up tokens and closes, so a receive is taken to
// acquire every send and close on its channel so far: stronger than Go's
// rule (a receive synchronises with its own send), which can only hide a
// weak behaviour, never invent one.

// Ordering is a C11 memory ordering, for the hooks below.
type Ordering = weak.Ordering

// The orderings.
const (
	Relaxed = weak.Relaxed
	Acquire = weak.Acquire
	Release = weak.Release
	AcqRel  = weak.AcqRel
	SeqCst  = weak.SeqCst
)

// memory is a run's weak-memory state.
type memory struct {
	m     *weak.Model
	locs  locTable // an atomic's address -> its weak.Loc (loc)
	cells map[uintptr]weak.Cell
	syncs map[uintptr]weak.Sync
	// cands and places hold the list of the operation in progress
	// (Model.CandidatesInto): one slice for every operation of the run.
	cands  []weak.Candidate
	places []weak.Placement
}

// newMemory returns a new run's memory; spare, if not nil, is a finished
// run's, whose maps it takes, emptied, whose lists it overwrites, and
// whose model's memory its model hands out again (weak.NewFrom): a search
// makes one per run, and these grew to their size in the run before.
func newMemory(cfg weak.Config, spare *memory) *memory {
	if spare == nil {
		return &memory{m: weak.New(cfg), cells: map[uintptr]weak.Cell{}, syncs: map[uintptr]weak.Sync{}}
	}
	spare.locs.reset()
	clear(spare.cells)
	clear(spare.syncs)
	return &memory{m: weak.NewFrom(cfg, spare.m), locs: spare.locs, cells: spare.cells, syncs: spare.syncs, cands: spare.cands, places: spare.places}
}

// weakOn is set while an exploration in the weak-memory mode runs: the
// hooks below are called at every atomic operation, and under sequential
// consistency this one load is all they cost.
var weakOn atomic.Bool

// weakOps counts the operations of the memory model (ordered atomics,
// fences, plain cells) an exploration performed: a weak-mode search with
// none checked nothing weak, and fails as "nothing weak" (nothingWeak).
var weakOps atomic.Int64

// kindNothingWeak is the failure of a weak-mode search that performed no
// operation of the memory model.
const kindNothingWeak failureKind = "nothing weak"

// nothingWeak is the failure of a weak-mode search in which no schedule
// performed an ordered atomic operation, a fence or a plain-cell access:
// the code under test reached memory the model cannot see (sync/atomic,
// plain variables), and every schedule ran sequentially consistent. A
// pass would say nothing, so the search fails and says what to use.
func nothingWeak() *Failure {
	return &Failure{Kind: kindNothingWeak, Message: "the weak-memory mode (Options.Weak) ran every schedule without one operation of its memory model: " +
		"no ordered atomic, fence or atomic.Cell of github.com/wsched/wsched/explore/atomic was used, so every schedule was sequentially consistent and nothing weak was checked. " +
		"Use explore/atomic's types (LoadAcquire, StoreRelease, CompareAndSwapAcqRelRelaxed, FenceSeqCst...) for the shared memory of the code under test, and atomic.Cell for plain data it publishes; sync/atomic and plain variables are invisible to the model."}
}

// weakRun returns the run in progress if it runs in the weak-memory mode
// and the calling goroutine is one of its own (not being torn down).
func weakRun() *run {
	if !weakOn.Load() {
		return nil
	}
	r := current.Load()
	if r == nil || r.mem == nil || r.cur == nil || r.cur.exiting {
		return nil
	}
	return r
}

// Weak reports whether the running schedule is in the weak-memory mode:
// the atomic wrappers then report each operation with the hooks below.
func Weak() bool { return weakRun() != nil }

// loc returns the model's location for the atomic at address a, made on
// its first access with the value memory holds before that access.
//
// Memory that holds something other than the model's latest store was
// written behind the model's back: a record recycled and reset by a plain
// assignment (a task from the slab, its state zeroed with the rest of the
// struct), which in C11 would be a new object, constructed by non-atomic
// writes that the hand-over of the record orders. So it becomes a new
// location, whose first value every goroutine sees.
//
// In a traced run (a failure's replay, Options.Replay) a location is named
// by the code that first touched it, the stack resolved only when a name
// is asked for (Model.Name). A search's runs are not traced and leave it
// unnamed ("location 12", Model.Name): the walk of the stack at each new
// location cost a tenth to a fifth of a weak search's CPU, for a name
// nothing but a test asks for; a run is deterministic, so the replay of a
// schedule names the same locations by their code.
func (mem *memory) loc(r *run, a uintptr, before any) weak.Loc {
	if v, ok := mem.locs.lookup(a); ok && mem.m.Latest(weak.Loc(v)) == before {
		return weak.Loc(v)
	}
	var l weak.Loc
	if r.tracing {
		pcs := callerPCs()
		l = mem.m.NewAtomicNamer(func() string { return location(firstFrame(pcs)) }, before)
	} else {
		l = mem.m.NewAtomic("", before)
	}
	mem.locs.put(a, int32(l))
	return l
}

func (r *run) thread() weak.Thread { return weak.Thread(r.cur.id) }

// WeakLoad is a load of the atomic at a with ordering o, after its
// scheduling point; latest is what memory holds. It returns the value the
// load reads: the latest store, or, as the search decides, an older one
// that the orderings allow.
func WeakLoad(a uintptr, o Ordering, latest any) any {
	r := weakRun()
	if r == nil {
		return latest
	}
	weakOps.Add(1)
	r.touchSC(o, false)
	l := r.mem.loc(r, a, latest)
	cands := r.mem.m.CandidatesInto(r.mem.cands, r.thread(), l, o)
	r.mem.cands = cands
	pick := r.chooseStore(cands)
	if r.wt != nil {
		r.wt.read(r, l, o, cands, pick)
	}
	v := r.mem.m.LoadFrom(r.thread(), l, o, cands, pick)
	r.noteSC()
	if r.sym != nil {
		r.symRead(a, l, o, cands[pick])
	}
	return v
}

// WeakStore is a store of v with ordering o, before memory is written;
// before is what memory holds. Where the store goes in modification order
// is a decision of the search (last by default); it reports whether it
// went last, so that memory must hold it.
func WeakStore(a uintptr, o Ordering, before, v any) (last bool) {
	r := weakRun()
	if r == nil {
		return true
	}
	weakOps.Add(1)
	r.touchSC(o, false)
	l := r.mem.loc(r, a, before)
	places := r.mem.m.PlacementsInto(r.mem.places, r.thread(), l, o)
	r.mem.places = places
	pick := r.choosePlace(places)
	last = r.mem.m.StoreFrom(r.thread(), l, o, v, places, pick)
	r.noteSC()
	if r.sym != nil {
		r.symShared()
	}
	if r.wt != nil {
		r.wt.wrote(r, o, nil)
		r.wt.placed(r, places[pick].Before)
	}
	return last
}

// WeakRMW is a read-modify-write (swap, add, and, or) with ordering o that
// writes f of the value it reads, before memory is touched; latest is what
// memory holds. Which store it reads is a decision of the search (the
// latest by default). It returns the value read and whether its store went
// last, so that memory must hold it.
func WeakRMW(a uintptr, o Ordering, latest any, f func(old any) any) (old any, last bool) {
	r := weakRun()
	if r == nil {
		return latest, true
	}
	weakOps.Add(1)
	r.touchSC(o, false)
	l := r.mem.loc(r, a, latest)
	cands := r.mem.m.RMWCandidatesInto(r.mem.cands, r.thread(), l, o)
	r.mem.cands = cands
	pick := r.chooseStore(cands)
	var rd *weakStep
	if r.wt != nil {
		rd = r.wt.read(r, l, o, cands, pick)
	}
	old, last = r.mem.m.RMWFrom(r.thread(), l, o, cands, pick, f)
	r.noteSC()
	if r.sym != nil {
		r.symRead(a, l, o, cands[pick])
		r.symShared()
	}
	if r.wt != nil {
		r.wt.wrote(r, o, rd)
	}
	return old, last
}

// WeakCompareAndSwap is a compare-and-swap of old for new, before memory
// is touched; latest is what memory holds. Which store it reads is a
// decision of the search: the latest by default, or an older one, which
// it fails on as a load with the failure ordering, or, if that store
// holds old, swaps on, its store going right after it. It returns whether
// it swapped and whether its store went last, so that memory must hold it.
func WeakCompareAndSwap(a uintptr, latest, old, new any, success, failure Ordering) (swapped, last bool) {
	r := weakRun()
	if r == nil {
		return latest == old, true
	}
	weakOps.Add(1)
	r.touchSC(max(success, failure), false) // SeqCst is the strongest
	l := r.mem.loc(r, a, latest)
	cands := r.mem.m.CASChoicesInto(r.mem.cands, r.thread(), l, old, success, failure)
	r.mem.cands = cands
	pick := r.chooseStore(cands)
	var rd *weakStep
	if r.wt != nil {
		o := failure
		if cands[pick].Swaps {
			o = success
		}
		rd = r.wt.read(r, l, o, cands, pick)
	}
	_, swapped, last = r.mem.m.CompareAndSwapFrom(r.thread(), l, new, success, failure, cands, pick)
	r.noteSC()
	if r.sym != nil {
		o := failure
		if swapped {
			o = success
		}
		r.symRead(a, l, o, cands[pick])
		if swapped {
			r.symShared()
		}
	}
	if r.wt != nil && swapped {
		r.wt.wrote(r, success, rd)
	}
	return swapped, last
}

// WeakFence is a fence of ordering o.
func WeakFence(o Ordering) {
	if r := weakRun(); r != nil {
		weakOps.Add(1)
		r.touchSC(o, true)
		r.mem.m.Fence(r.thread(), o)
		r.noteSC()
		if r.sym != nil {
			r.symFence(o)
		}
		if r.wt != nil {
			r.wt.fence(r, o)
		}
	}
}

// noteSC, in a traced run, records the step of the operation just made
// if it made a seq_cst event of the model (the caller notes the step
// next), so that the trace can list the seq_cst order by steps.
func (r *run) noteSC() {
	if r.wt == nil {
		return
	}
	if e, ok := r.mem.m.LastSC(r.thread()); ok {
		if _, seen := r.wt.sc[e]; !seen {
			r.wt.sc[e] = r.numbered + 1
		}
	}
}

// touchSC tells the reduced search that the running step reads the
// seq_cst order (a seq_cst access), or writes it (a seq_cst fence), if
// o is seq_cst (scLoc, por.go). Fences are no scheduling points, so the
// step of a fence and the step of a seq_cst access are ordered by these
// touches. A member's history records the access too (symmetry.go): two
// members' seq_cst fences are ordered like two writes, so the second to
// make one observes the first's and they are no longer twins.
func (r *run) touchSC(o Ordering, write bool) {
	if o != SeqCst {
		return
	}
	if r.por != nil {
		r.por.touch(r, access{scLoc, write})
	}
	if s := r.sym; s != nil && !r.cur.exiting {
		s.grow(len(r.threads))
		s.access(r.cur, access{scLoc, write})
	}
}

// WeakCell is an access to the plain (non-atomic) cell at a, after its
// scheduling point. An access not ordered after a conflicting one of
// another goroutine fails the schedule as a data race.
//
// A traced run names each access by its line of code, for the race's
// message; a search's runs do not walk the stack for it (untraced):
// the failure's traced replay (explorer.fail) makes the message again,
// with the lines.
func WeakCell(a uintptr, write bool) {
	r := weakRun()
	if r == nil {
		return
	}
	weakOps.Add(1)
	c, ok := r.mem.cells[a]
	site := "(a line the traced replay names)"
	if r.tracing {
		site = location(callerFrame())
	}
	if !ok {
		c = r.mem.m.NewCell(site)
		r.mem.cells[a] = c
	}
	var err error
	if write {
		r.symShared()
		err = r.mem.m.Write(r.thread(), c, site)
	} else {
		err = r.mem.m.Read(r.thread(), c, site)
	}
	if r.wt != nil {
		// The access's step is the one the caller notes next.
		r.wt.cells[r.mem.m.Events()] = r.numbered + 1
	}
	if race, ok := err.(*weak.Race); ok {
		if r.tracing {
			// The racing access is a step of its own, which names the
			// other: the caller's note of it never comes.
			op := "Load"
			if write {
				op = "Store"
			}
			st := step{thread: r.cur.id, op: op, at: callerFrame(), loc: a}
			if r.wt != nil {
				st.w = r.wt.take(r.cur.id)
				if st.w == nil {
					st.w = &weakStep{}
				}
				st.w.race = r.wt.cells[race.First.Seq]
			}
			r.addStep(st)
		}
		side := func(a weak.RaceAccess) string {
			kind := "read"
			if a.Write {
				kind = "write"
			}
			return fmt.Sprintf("%s by %s at %s", kind, r.threads[a.Thread].name, a.Site)
		}
		r.failNow(r.cur, kindRace, fmt.Sprintf("data race on the plain cell first accessed at %s: the %s is not ordered before the %s (no release and acquire, lock, or other synchronisation between them)", race.Cell, side(race.First), side(race.Second)))
	} else if err != nil {
		r.failNow(r.cur, kindRace, err.Error())
	}
}

// WeakRelease records that the calling goroutine released the
// synchronisation object at a (unlocked a mutex, sent on or closed a
// channel, called Done, set an Event).
func WeakRelease(a uintptr) {
	if r := weakRun(); r != nil {
		r.symShared()
		r.mem.m.Release(r.thread(), r.mem.sync(a))
	}
}

// WeakAcquire records that the calling goroutine acquired the
// synchronisation object at a (locked a mutex, received on a channel,
// returned from a Wait).
func WeakAcquire(a uintptr) {
	if r := weakRun(); r != nil {
		r.symShared()
		r.mem.m.Acquire(r.thread(), r.mem.sync(a))
	}
}

func (mem *memory) sync(a uintptr) weak.Sync {
	s, ok := mem.syncs[a]
	if !ok {
		s = mem.m.NewSync()
		mem.syncs[a] = s
	}
	return s
}

// chooseStore decides which of cands a read (a load, an RMW, a
// compare-and-swap) reads: a decision of the search when there is more
// than one (cands[0], the latest store, is the default and costs nothing;
// the model offers older ones only within its bound of stale choices per
// schedule).
func (r *run) chooseStore(cands []weak.Candidate) int {
	return r.chooseWeak(len(cands), "store %d of a read that has %d to choose from")
}

// choosePlace decides where in modification order a store goes: a
// decision of the search when there is more than one place (places[0],
// last, is the default; the model offers others only within its bound of
// stale choices per schedule). It is the same kind of decision as a
// load's choice of store, with places for stores.
func (r *run) choosePlace(places []weak.Placement) int {
	return r.chooseWeak(len(places), "place %d of a store that has %d places in modification order to choose from")
}

// chooseWeak takes a choice among n of the weak mode (a store to read, a
// place to store at) as a decision of the search; what names the choice
// for a replay that does not fit it.
func (r *run) chooseWeak(n int, what string) int {
	if n <= 1 || r.cut {
		return 0 // the only choice, or a run that coasts (statecache.go)
	}
	l := load{n}
	c := r.guide.store(r, l)
	if c < 0 || c >= n {
		r.diverge(r.cur, fmt.Sprintf("decision %d wants "+what+" (a replay token from another version of the code, or another mode's parameters)", len(r.decisions), c, n))
	}
	r.decisions = append(r.decisions, decision{kind: kindStore, load: l, chosen: c, step: r.numbered})
	if r.por != nil {
		r.por.chose(c)
	}
	if r.cache != nil {
		r.cacheNoState()
	}
	return c
}

// WeakClock returns the happens-before clock of the calling goroutine in
// the weak-memory mode (weak.Model.Clock), and its thread number in it;
// ok is false outside the weak mode. The linearizability clients
// (explore/scenarios, lin_test.go) take one at each call's invocation and
// response, and order two calls when the first's response happens before
// the second's invocation.
func WeakClock() (c vclock.Clock, thread int, ok bool) {
	r := weakRun()
	if r == nil {
		return nil, 0, false
	}
	r.symShared()
	return r.mem.m.Clock(r.thread()), int(r.thread()), true
}
