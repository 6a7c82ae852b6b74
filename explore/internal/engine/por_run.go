package engine

import (
	"math/bits"
	"slices"

	"github.com/wsched/wsched/explore/internal/vclock"
)

// The analysis of one run of the reduced search (por.go says what it
// finds): as the run goes, each step's accesses (begin, touch), and when
// it ends (finish) its races with earlier steps, its vector clock and the
// sleep set; each race asks the search (por_search.go) for an
// alternative at an earlier decision (race, timerRace, backtrack).

// porEvent is one step of a run. The fields the scans back over a run
// read (race, backtrack, initials) come first, in one cache line of the
// 128 bytes.
type porEvent struct {
	tid   int
	local int    // the step's number among its goroutine's steps
	prev  int    // its goroutine's previous step, or -1
	dec   int    // the decision that chose it, or -1 (no choice)
	en    uint64 // the goroutines that could go instead
	// sig and wsig are the locations the step touches, and those it
	// writes, each as one bit of a 64-bit hash (sigBit), set when it
	// ends: two steps whose signatures do not meet (neither's writes
	// meet the other's locations) do not conflict, a test that spares
	// comparing their accesses one by one.
	sig, wsig uint64
	wait      bool // the step passes a wait (Block, BlockOn)
	// latch: the wait is a latch's (latchWait) and its condition held
	// (no timeout fired).
	latch bool
	// fired: the step passes a wait whose timeout fired (it writes the
	// clock; had what it waits on become ready first, the same wait
	// would pass without).
	fired bool
	// free: the decision that chose it had no running goroutine to
	// preempt (its goroutine had stopped: any choice there was free).
	free  bool
	npend int // acc[:npend] is its pending operation's, the rest touches
	stepSummary
	// clock[q] is how many steps of goroutine q happen before this one,
	// or are it.
	clock vclock.Clock
}

// locState is the analysis's record of one location.
type locState struct {
	// first is the step that touched it first, and at the index of the
	// access in that step's (wakeup trees name a location so: the steps
	// before a decision are the same in every run through it, their
	// addresses not).
	first, at int32
	w         stepRef   // the last step that wrote it (ev -1: none)
	reads     []stepRef // the steps that read it since, the last per goroutine
	// lastT and lastW are the last access to it, and the last write, of
	// the steps remembered (indexes in accs; -1: none): the heads of its
	// chains (accLink).
	lastT, lastW int32
	// addr is its address in run run (porRun.runNo), when a replayed
	// step mapped it (por_keep.go).
	addr uintptr
	run  uint32
}

// stepRef names a step of the run (ev) with its goroutine and its number
// among that goroutine's steps (porEvent.tid, local): what racesOf asks of
// a location's writer and readers (another goroutine's? does it happen
// before the step?), answered without reading the step's record.
type stepRef struct {
	ev, tid, local int32
}

// accLink is the record of one access of a remembered step (at the same
// index as the access in porRun.accs): the step, and the access to the
// same location before it, and the write to it before it, of the steps
// remembered earlier (-1: none). Following them from a location's
// lastT (lastW) visits, latest first, every earlier step that touched
// (wrote) it: race's scan back visits only the steps that can conflict
// with its step, not every earlier step (scanBack).
type accLink struct {
	ev, prevT, prevW int32
	// st is the location's record, and write the access's kind: what a
	// replay of the step maps and checks (por_keep.go, mapLoc).
	st    int32
	write bool
}

// porRun is the analysis of one run.
type porRun struct {
	s       *porSearch
	events  []porEvent
	open    bool           // the last event's goroutine is still running it
	last    []int          // per goroutine: its last event, or -1
	thClock []vclock.Clock // per goroutine: its last event's clock
	// parent is, per goroutine, the event that started it (a goroutine's
	// steps happen after its go statement), or -1.
	parent   []int
	locs     locTable // index in states
	states   []locState
	arena    []uint32  // where clocks are cut from
	accs     []access  // where the steps' accesses are kept, in order
	accStart int       // the running step's first in accs
	links    []accLink // per access in accs of a remembered step: its chains
	// alls are the remembered steps that touch everything, in order.
	alls []int32
	curs []cursor // scanBack's scratch
	cand []int
	// marks are, in order, the steps chosen at a decision that are
	// the first of a run of steps of one goroutine, or whose decision
	// was free (porEvent.free): the places where backtrack asks for a
	// goroutine besides the decision it is given.
	marks    []int32
	firsts   []int   // initials' scratch
	vsteps   []int   // initials' scratch: the steps of v so far
	idx      []int32 // the running step's locations, in states
	joins    []uint8 // per access of the running step: what stepClock joins (joinW, joinR)
	joinGlob bool    // stepClock joins lastGlob's clock
	lastGlob int
	sleep    []sleeper
	sleepBuf []sleeper // insert's scratch
	wsteps   []wstep   // reverseOptimally's scratch
	// undoneAt is the step whose race ran undoPreemptions, which runs
	// once per run, or -1.
	undoneAt int
	// keep: the run's first keep steps replay the last run's, whose
	// analysis is kept (por_keep.go); aux is, per analysed step, what
	// cutTo needs; chunk counts the arena's chunks; replayN and
	// replayAll are the replayed step's count of accesses and whether it
	// touched everything, in the last run; runNo counts the runs (and
	// divergences) the record served (locState.run).
	keep      int
	aux       []stepAux
	chunk     uint32
	replayN   int
	replayAll bool
	runNo     uint32
	rewindBuf []int32 // rewind's scratch
	// stopped: every goroutine that could go was asleep (the run repeats
	// a class already explored); it is finished without analysis.
	stopped bool
	// stepDecs is the index in the run's decisions of the running
	// step's first choice of the weak mode, if it makes one.
	stepDecs int
	// picks are the weak mode's choices of store or place, with the
	// step that made each (normalForm names the execution with them).
	picks []pick
	// swapped: the sequence being inserted is a mirror image, goroutines
	// swapX and swapY swapped (por_symmetry.go).
	swapped      bool
	swapX, swapY int
	// trace is the hash of the steps finished so far, for the state
	// cache of the plain search (statecache.go).
	trace stateKey
}

// pick is a choice c (0: the latest) made in step ev.
type pick struct{ ev, c int }

// chose records a choice of the weak mode made in the running step.
func (p *porRun) chose(c int) {
	if p.open {
		p.picks = append(p.picks, pick{len(p.events) - 1, c})
	}
}

// withPicks is h, the hash of step n, with the choices of the weak mode
// the step made (a store to read, a place to store at: picks, the last
// ones the step's) folded in: in the weak mode what a step did depends on
// them as well as on the steps before it (statecache.go).
func (p *porRun) withPicks(h stateKey, n int) stateKey {
	for i := len(p.picks) - 1; i >= 0 && p.picks[i].ev == n; i-- {
		w := uint64(i-len(p.picks))<<32 | uint64(uint32(p.picks[i].c))
		h.a = mix(h.a ^ w)
		h.b = mix(h.b + w*0x9e3779b97f4a7c15)
	}
	return h
}

// newPorRun returns an empty record for a run of search s (nil for a
// plain search that records, as Classes does, or keeps a state cache);
// spare, if not nil, is an earlier run's record, emptied so that its
// memory is reused. If spare is the last run's and this run replays its
// first replays decisions (else replays is -1), the analysis of the steps
// before them is kept (por_keep.go).
func newPorRun(s *porSearch, spare *porRun, replays int) *porRun {
	if spare != nil {
		p := spare
		keep := 0
		if keepPrefix && replays >= 0 {
			keep = p.keepable(replays)
		}
		p.cutTo(keep) // the last run's analysis of the steps this one replays (por_keep.go)
		p.locs.reset()
		*p = porRun{s: s, events: p.events[:0], last: p.last[:0], thClock: p.thClock[:0],
			parent: p.parent[:0], locs: p.locs, states: p.states, arena: p.arena,
			joins: p.joins[:0], lastGlob: -1, accs: p.accs[:0], cand: p.cand[:0], firsts: p.firsts[:0], vsteps: p.vsteps[:0], idx: p.idx[:0], picks: p.picks[:0],
			links: p.links, alls: p.alls[:0], curs: p.curs[:0], marks: p.marks[:0],
			sleep: p.sleep[:0], sleepBuf: p.sleepBuf[:0], wsteps: p.wsteps[:0],
			undoneAt: p.undoneAt, keep: keep, aux: p.aux, chunk: p.chunk,
			runNo: p.runNo + 1, rewindBuf: p.rewindBuf[:0]}
		return p
	}
	return &porRun{s: s, lastGlob: -1, undoneAt: -1}
}

// clock returns a clock of n entries, a copy of from (which has at most
// n), zeros after it.
func (p *porRun) clock(n int, from vclock.Clock) vclock.Clock {
	if cap(p.arena)-len(p.arena) < n {
		p.arena = make([]uint32, 0, max(1<<14, n))
		p.chunk++
	}
	c := p.arena[len(p.arena) : len(p.arena)+n : len(p.arena)+n]
	p.arena = p.arena[:len(p.arena)+n]
	clear(c[copy(c, from):])
	return c
}

// locIndex returns the index in states of location l's record, made
// if need be (l is the k-th access of step n).
func (p *porRun) locIndex(l uintptr, n, k int) int32 {
	i, added := p.locs.index(l, int32(len(p.states)))
	if !added {
		return i
	}
	if len(p.states) < cap(p.states) {
		p.states = p.states[:i+1]
		old := &p.states[i]
		old.first, old.at, old.w, old.reads, old.lastT, old.lastW = int32(n), int32(k), stepRef{ev: -1}, old.reads[:0], -1, -1
	} else {
		p.states = append(p.states, locState{first: int32(n), at: int32(k), w: stepRef{ev: -1}, lastT: -1, lastW: -1})
	}
	return i
}

func (p *porRun) grow(n int) {
	for len(p.last) < n {
		p.last = append(p.last, -1)
		p.thClock = append(p.thClock, nil)
		p.parent = append(p.parent, -1)
	}
}

// spawned records that goroutine tid was started by the running step.
func (p *porRun) spawned(tid int) {
	p.grow(tid + 1)
	if p.open {
		p.parent[tid] = len(p.events) - 1
	}
}

// clockOf is the clock of goroutine tid's last step, or of the step that
// started it.
func (p *porRun) clockOf(tid int) vclock.Clock {
	if c := p.thClock[tid]; c != nil {
		return c
	}
	if i := p.parent[tid]; i >= 0 {
		return p.events[i].clock
	}
	return nil
}

// begin starts the step of goroutine c, chosen at decision dec (-1: no
// choice).
func (p *porRun) begin(r *run, c, dec int, en uint64) {
	p.grow(len(r.threads))
	t := r.threads[c]
	prev, local := p.last[c], 0
	if prev >= 0 {
		local = p.events[prev].local + 1
	}
	// The step is made in place, field by field (a porEvent is 128
	// bytes: a composite literal is built on the stack and copied, with
	// the write barrier's bulk move while the collector marks). Every
	// field is set here.
	if len(p.events) < cap(p.events) {
		p.events = p.events[:len(p.events)+1]
	} else {
		p.events = append(p.events, porEvent{})
	}
	ev := &p.events[len(p.events)-1]
	if k := len(p.events) - 1; k >= p.keep || !p.replaying(k, c, dec, en) {
		ev.clock = nil // else the last run's, kept
	}
	ev.tid, ev.local, ev.prev, ev.dec, ev.en = c, local, prev, dec, en
	ev.sig, ev.wsig = 0, 0
	ev.wait = t.state == blocked
	ev.latch = ev.wait && t.latch && !t.timedOut
	ev.fired = ev.wait && t.timedOut
	ev.all = t.pendAll
	ev.free = dec >= 0 && r.decisions[dec].cur < 0
	if k := len(p.events) - 1; dec >= 0 && (k == 0 || p.events[k-1].tid != c || ev.free) {
		p.marks = append(p.marks, int32(k))
	}
	start := len(p.accs)
	p.accs = append(p.accs, t.pend...)
	ev.npend = len(t.pend)
	if t.timedOut {
		// A timeout firing moves the clock, and the wait reports
		// whether ready held (pend) after all. Whether the timeout
		// fired at a decision of its own, when every goroutine
		// waited, or as a later timeout was chosen (which passes
		// this earlier deadline too), the step depends on the
		// clock.
		p.accs = append(p.accs, access{clockLoc, true})
		p.accs = r.passedBefore(t, p.accs)
		t.passed = 0
	} else if ev.wait && t.deadline > 0 {
		// A timed wait that passes in time ends its timer: a later
		// timer could not fire before (passLoc).
		p.accs = append(p.accs, access{passLoc(c), true})
		t.passed, t.passedArmed = t.deadline, t.armed
	}
	ev.acc = p.accs[start:len(p.accs):len(p.accs)]
	p.accStart = start
	p.stepDecs = len(r.decisions)
	p.last[c] = len(p.events) - 1
	if dec < 0 && p.s != nil && p.s.sleep && !p.stopped && asleep(p.sleep)&(1<<c) != 0 && p.alone(r, c) {
		// The one goroutine that can go is asleep: the run repeats a
		// class, as when every goroutine that could go is at a
		// decision (porGuide.goroutine), in every search with sleep
		// sets (the weak mode's source sets ran such a run to its
		// end, uncounted: TestReducedWeakRunsEachClassOfASmallProgramOnce).
		p.stopped = true
		p.s.stopped++
	}
	if dec < 0 && p.s != nil && p.s.optimal && p.s.armed {
		p.s.follow(c) // a step without a decision on the branch followed
	}
	if r.deps != nil {
		r.deps.begin(len(p.events)-1, c, ev.all)
	}
	p.open = true
}

// touch adds an access to the running step.
func (p *porRun) touch(r *run, a access) {
	if !p.open {
		return
	}
	ev := &p.events[len(p.events)-1]
	if a.loc == 0 {
		if d := r.deps; d != nil && !ev.all && len(d.sites) == len(p.events) {
			d.sites[len(d.sites)-1] = "touches everything " + d.site()
		}
		ev.all = true
		return
	}
	// The running step's accesses are the end of accs.
	p.accs = append(p.accs, a)
	ev.acc = p.accs[p.accStart:len(p.accs):len(p.accs)]
}

// hb reports whether event i happens before (or is) a point whose clock is
// c.
func (p *porRun) hb(c vclock.Clock, i int) bool {
	e := &p.events[i]
	return uint32(e.local) < c.At(e.tid)
}

// finish ends the running step: the sleep set learns what it touched,
// and, unless the run only repeats a class, its races with earlier steps
// are found, its clock is computed, the search is asked to reverse the
// races, and the step is remembered for the steps to come.
func (p *porRun) finish(r *run) {
	if !p.open {
		return
	}
	p.open = false
	n := len(p.events) - 1
	e := &p.events[n]
	e.sig, e.wsig = 0, 0
	for _, a := range e.acc {
		b := sigBit(a.loc)
		e.sig |= b
		if a.write {
			e.wsig |= b
		}
	}
	if p.s != nil && p.s.sleep {
		p.wakeSleepers(r, e)
	}
	if p.stopped {
		p.aux = p.aux[:min(len(p.aux), n)] // analysed no further
		return
	}
	if n < p.keep && p.replayed(n) {
		p.trace = p.aux[n].trace
		return // analysed in the last run
	}
	prev := p.clockOf(e.tid)
	cand := p.racesOf(e, prev)
	p.cand = cand // stepClock reads it
	e.clock = p.stepClock(r, e, prev)
	if r.cache != nil {
		h := stepHash(e.tid, e.local, e.clock)
		if r.mem != nil {
			h = p.withPicks(h, n)
		}
		p.trace.addStep(h)
	}
	if p.s != nil {
		p.reverseRaces(r, cand, n)
		if e.dec >= 0 {
			p.timerRace(r, n)
		}
	}
	p.remember(n)
	p.aux = append(p.aux, stepAux{int32(len(r.decisions)), int32(len(p.accs)), int32(len(p.arena)), p.chunk, p.trace})
}

// wakeSleepers records step e at the decision that chose it (what it
// touched, for the sleep sets of the choices explored after it there),
// and wakes the sleepers whose step conflicts with it.
func (p *porRun) wakeSleepers(r *run, e *porEvent) {
	if e.dec >= 0 {
		choice, of := p.firstStore(r)
		p.s.nodes[e.dec].record(e.tid, choice, of, e.stepSummary, e.npend)
	}
	kept := p.sleep[:0]
	for _, z := range p.sleep {
		// A goroutine that stepped with a variant awake has another
		// step next: its variants go. (A whole step asleep that goes
		// all the same, porRun.alone, stays asleep, as it did.)
		if (z.choice < 0 || z.tid != e.tid) && !z.conflicts(r, &e.stepSummary) {
			kept = append(kept, z)
		}
	}
	p.sleep = kept
}

// firstStore is the store the running step's first load read, of of, or
// -1 if it had none to choose from (a decision of kind kindStore).
func (p *porRun) firstStore(r *run) (choice, of int) {
	if k := p.stepDecs; k < len(r.decisions) && r.decisions[k].kind == kindStore {
		return r.decisions[k].chosen, r.decisions[k].load.n
	}
	return -1, 0
}

// racesOf returns the candidates for races with step e, whose
// goroutine's clock before it is prev: the earlier conflicting steps of
// other goroutines (the last writer of each location e touches, and the
// readers since if e writes it; every goroutine's last step if e touches
// everything) that do not already happen before e. It keeps the indexes
// of e's locations' records in p.idx, for stepClock and remember, and in
// p.joins which of their clocks stepClock is to join (joinW, joinR), and
// in p.joinGlob whether to join the clock of the last step that touched
// everything: the clock of a step that happens before e (it is e's
// goroutine's, or prev counts it) is no later than prev, and joining it
// changes nothing.
func (p *porRun) racesOf(e *porEvent, prev vclock.Clock) []int {
	cand := p.cand[:0]
	// The tests are written out (no closure: this runs at every step).
	// A step is a candidate if it is another goroutine's and does not
	// happen before e (prev does not count it).
	if e.all {
		for _, i := range p.last {
			if i >= 0 && p.events[i].tid != e.tid && !p.hb(prev, i) {
				cand = append(cand, i)
			}
		}
		return cand
	}
	p.joinGlob = false
	if g := p.lastGlob; g >= 0 && p.events[g].tid != e.tid && !p.hb(prev, g) {
		cand = append(cand, g)
		p.joinGlob = true
	}
	tid, n := int32(e.tid), len(p.events)-1
	idx, joins := p.idx[:0], p.joins[:0]
	for j, a := range e.acc {
		k := p.locIndex(a.loc, n, j)
		idx = append(idx, k)
		ls := &p.states[k]
		var join uint8
		// A location's writer or reader (stepRef) is a candidate if
		// it is another goroutine's and not already before e.
		if w := ls.w; w.ev >= 0 && w.tid != tid && uint32(w.local) >= prev.At(int(w.tid)) {
			cand = append(cand, int(w.ev))
			join |= joinW
		}
		if a.write {
			for _, x := range ls.reads {
				if x.ev >= 0 && x.tid != tid && uint32(x.local) >= prev.At(int(x.tid)) {
					cand = append(cand, int(x.ev))
					join |= joinR
				}
			}
		}
		joins = append(joins, join)
	}
	p.idx, p.joins = idx, joins
	return cand
}

// What stepClock joins of a location's record (porRun.joins).
const (
	joinW = 1 << iota // the last writer's clock
	joinR             // the readers' since
)

// stepClock is step e's vector clock: its goroutine's (prev) and one
// more step of it, joined with the clocks of the steps it conflicts with
// (every step's, if it touches everything: each goroutine's last step's,
// which are no earlier than its steps before). Of those, it joins only
// the clocks racesOf found may be later than prev (p.joins).
func (p *porRun) stepClock(r *run, e *porEvent, prev vclock.Clock) vclock.Clock {
	c := p.clock(len(r.threads), prev)
	c[e.tid] = uint32(e.local + 1)
	if e.all {
		for _, q := range p.thClock {
			c = c.Join(q)
		}
		return c
	}
	if len(p.cand) == 0 {
		// No candidate: nothing racesOf found may be later than prev
		// (every clock it marks to join is a candidate's).
		return c
	}
	if p.joinGlob {
		// A step that touches everything happens after every earlier
		// one: the last one's clock is the join of theirs.
		c = c.Join(p.events[p.lastGlob].clock)
	}
	for k, a := range e.acc {
		join := p.joins[k]
		if join == 0 {
			continue
		}
		ls := &p.states[p.idx[k]]
		if join&joinW != 0 {
			c = c.Join(p.events[ls.w.ev].clock)
		}
		if a.write && join&joinR != 0 {
			// A reader replaced in reads by a later read of its
			// goroutine happens before that read: the readers left
			// stand for every read since the write.
			for _, x := range ls.reads {
				c = c.Join(p.events[x.ev].clock)
			}
		}
	}
	return c
}

// reverseRaces asks the search to reverse each race of step n with a
// candidate that nothing but the conflict orders before n (not through
// another candidate: only the immediate races), each once (race).
func (p *porRun) reverseRaces(r *run, cand []int, n int) {
	for k, i := range cand {
		immediate := true
		for _, j := range cand {
			if j != i && j > i && p.hb(p.events[j].clock, i) {
				immediate = false // ordered before this one through j
				break
			}
		}
		if immediate && (k == 0 || !slices.Contains(cand[:k], i)) {
			p.race(r, i, n)
		}
	}
}

// remember records step n as its goroutine's last, and as the last
// writer, or one of the readers, of each location it touched (or as the
// last step that touched everything).
func (p *porRun) remember(n int) {
	e := &p.events[n]
	c := e.clock
	p.thClock[e.tid] = c
	if e.all {
		p.lastGlob = n
		p.alls = append(p.alls, int32(n))
		return
	}
	if len(p.accs) > cap(p.links) {
		p.links = append(p.links[:cap(p.links)], make([]accLink, len(p.accs)-cap(p.links))...)
	}
	p.links = p.links[:len(p.accs)]
	me := stepRef{int32(n), int32(e.tid), int32(e.local)}
	for k, a := range e.acc {
		ls := &p.states[p.idx[k]]
		g := int32(p.accStart + k)
		l := &p.links[g]
		l.ev, l.prevT, ls.lastT = int32(n), ls.lastT, g
		l.st, l.write = p.idx[k], a.write
		if a.write {
			l.prevW, ls.lastW = ls.lastW, g
			ls.w, ls.reads = me, ls.reads[:0]
			continue
		}
		replaced := false
		for k, x := range ls.reads {
			if x.tid == me.tid {
				ls.reads[k], replaced = me, true
			}
		}
		if !replaced {
			ls.reads = append(ls.reads, me)
		}
	}
}

// race: event i and event n (the step just finished) conflict, and
// nothing orders i before n but the conflict. To run n's side first, the
// search must run, at the decision before i, a goroutine whose next step
// starts the part of the run after i that does not depend on i (the
// initials of Abdulla et al.'s "source sets", POPL 2014): n's goroutine if
// nothing before n there orders it, else the goroutine of the step that
// does (the one that enabled n, say). If none of them could go at that
// decision, the race cannot be reversed there (i itself enabled n: a
// goroutine's last step and a Join of it), and the search tries the
// latest earlier conflicting step, as Flanagan and Godefroid's
// "co-enabled" condition does (a lock: not the unlock just before the
// next lock, but the lock before it).
func (p *porRun) race(r *run, i, n int) {
	if r.deps != nil {
		r.deps.count(p, i, n)
	}
	tid := p.events[n].tid
	en := &p.events[n]
	enAll := en.all
	prev := p.clockOf(tid)
	// arrived: the step after which n's goroutine stood at n's wait
	// (its previous step, or the step that started it).
	arrived := en.prev
	if arrived < 0 {
		arrived = p.parent[tid]
	}
	it := p.scanBack(i, n)
	for j := i; j >= 0; j = it.next(p) {
		ej := &p.events[j]
		// j < i: j is skipped if it is n's goroutine's, happens before
		// n (p.hb(prev, j)), or does not conflict with n (the
		// signatures first: stepsConflict).
		if j < i && (ej.tid == tid || uint32(ej.local) < prev.At(ej.tid) ||
			!enAll && ej.wsig&en.sig == 0 && ej.sig&en.wsig == 0 && !ej.all || !stepsConflict(ej, en)) {
			continue
		}
		if en.latch && p.s.bound < 0 && p.latchAhead(j, en) {
			// n passes a latch's wait, which j set (or j touched
			// everything) and nothing before j did: n cannot go
			// before j, nor before any earlier step, whether or not
			// j was chosen at a decision (a goroutine's end that ran
			// alone, its joiner blocked). Not under a
			// bound: there the reversal also stands for the places
			// where it costs less, and the search looks on for them
			// ([[load(2) set(0) load(2)] [store(2) wait(0)]], with
			// the rule, missed a trace at bound 1:
			// TestReducedWithABoundMissesNoTraceOfALatchSetTwice).
			return
		}
		if en.fired && p.letFire(j, en) {
			// n fires a timer that could not fire while j's was
			// armed: j passed its timed wait in time, which ended
			// that timer (passLoc). n cannot go before j; the race to
			// reverse is with the arming of j's timer (the clock),
			// further back.
			continue
		}
		if ej.dec < 0 {
			continue
		}
		if en.wait && !en.all && ej.en&(1<<tid) == 0 && (arrived < j || ends(ej, en)) && onWait(ej, en) {
			// n passes a wait on one location (BlockOn), at which
			// its goroutine already stood before j and could not
			// go: the location's value before j kept it waiting, so
			// n cannot go before j (an unlock and the next lock).
			// The race to reverse is with an earlier step (the lock
			// before that unlock). A goroutine that could not go
			// before j because it had not reached this wait yet is
			// not such a case: what runs after j may still go
			// first, unless j is the end that n joins (nothing else
			// could have let the Join pass). And j must conflict
			// with n on what n waits on: a step that only moves the
			// clock n's later deadline reads says nothing about the
			// wait.
			continue
		}
		if (p.s.optimal || p.s.bound < 0) && en.wait && p.heldAt(j, en) {
			// n takes a lock that j's goroutine held until j: n cannot
			// go before j (the lock before it, further back). Without
			// a bound, with wakeup trees or (the weak mode) source
			// sets: asked for at j, n's goroutine ran its steps before
			// the lock there, a class run twice. Not under a bound,
			// whose rules the bounded properties checked without it.
			continue
		}
		ini := p.initials(j, n) & ej.en
		if ini == 0 {
			continue
		}
		nd := &p.s.nodes[ej.dec]
		c := bits.TrailingZeros64(ini)
		if ini&(1<<tid) != 0 {
			c = tid
		}
		if p.s.optimal {
			p.reverseOptimally(r, j, n, c)
			return
		}
		if have := ini & (nd.bt | nd.done); have != 0 {
			// One of them is asked for there already; under a bound,
			// whether it runs there depends on its cost, so the
			// cheaper places are asked for again, for it and for n's
			// goroutine if that is one of them (the one to move).
			if p.s.bound < 0 {
				return
			}
			if h := bits.TrailingZeros64(have); h != c {
				if c == tid {
					p.backtrack(r, j, h)
				} else {
					c = h
				}
			}
		}
		p.backtrack(r, j, c)
		if p.s.bound < 0 || !nd.over(c, p.s.bound) {
			return
		}
		// Under a bound, this place is too dear: the run already spent
		// its preemptions before it. The reversal may still be had at
		// an earlier conflicting step, where the run had spent fewer
		// (a lock taken three times: not the last lock, over the
		// bound, but the first): look on. And the preemptions spent
		// before j may be spent later in another schedule of the same
		// execution (a timeout fired early, which commutes with the
		// steps after it): each one is undone, once per run.
		if p.undoneAt < 0 {
			p.undoneAt = n
			p.undoPreemptions(r, j)
		}
	}
}

// letFire reports whether step j passed a timed wait in time whose end
// the firing n reads (passLoc): n's timer fires after j's, and could not
// fire before j.
func (p *porRun) letFire(j int, n *porEvent) bool {
	ej := &p.events[j]
	if !ej.wait || ej.fired || ej.all {
		return false
	}
	l := passLoc(ej.tid)
	for _, a := range n.acc[n.npend:] {
		if a.loc == l && !a.write {
			return writes(ej.acc, l)
		}
	}
	return false
}

// alone reports whether c is the only goroutine that could go (the
// others wait; none merely yielded its turn).
func (p *porRun) alone(r *run, c int) bool {
	for _, x := range r.threads {
		if x.id != c && x.enabled() {
			return false
		}
	}
	return true
}

// heldAt reports whether wait n takes a location (a wait that writes what
// it waits on: a lock, BlockOn) that step j releases, taken last before
// j by j's goroutine passing such a wait: a lock held until j, which n
// cannot take before j. (The other such wait, explore/sync's TokenWait,
// has one goroutine alone taking its token: never two goroutines.) The
// search without a bound reverses n with the acquisition instead; a
// branch that cannot be followed, or a goroutine asked for at j, would
// run a class twice.
func (p *porRun) heldAt(j int, n *porEvent) bool {
	ej := &p.events[j]
	for _, a := range n.acc[:n.npend] {
		if !a.write || a.loc == 0 || !writes(ej.acc, a.loc) {
			continue
		}
		for k := j - 1; k >= 0; k-- {
			ek := &p.events[k]
			if ek.all {
				break
			}
			if writes(ek.acc, a.loc) {
				if ek.tid == ej.tid && ek.wait && writes(ek.acc[:ek.npend], a.loc) {
					return true
				}
				break
			}
		}
	}
	return false
}

// latchAhead reports whether n, a step that passes a latch's wait (one
// location for an Event or a Join, one per goroutine for a JoinAll),
// needs step j before it: j wrote one of the latch's locations that no
// step before j wrote, or j touched everything while some location of
// the latch was not written before j (every step after j that could
// write it depends on j). Each location of a latch is written once (a
// goroutine's end) or only sets it (an Event's Set), so n cannot pass
// before such a j. A j that conflicts with n otherwise (what n touches
// after the wait) is not such a step: the latch's writers after it may
// not depend on it.
func (p *porRun) latchAhead(j int, n *porEvent) bool {
	ej := &p.events[j]
	for _, a := range n.acc[:n.npend] {
		if (ej.all || writes(ej.acc, a.loc)) && !p.writtenBefore(j, a.loc) {
			return true
		}
	}
	return false
}

// writtenBefore reports whether a step before j wrote loc, a latch's
// location: an Event's Set and a goroutine's end name it (a step that
// touches everything besides still lists it).
func (p *porRun) writtenBefore(j int, loc uintptr) bool {
	for k := j - 1; k >= 0; k-- {
		if writes(p.events[k].acc, loc) {
			return true
		}
	}
	return false
}

// sigBit is location l's bit in a step's signature (porEvent.sig): the
// high bits of a multiplicative hash, as locTable's slot.
func sigBit(l uintptr) uint64 { return 1 << ((uint64(l) * 0x9e3779b97f4a7c15) >> 58) }

// clockSig is the virtual clock's bit.
var clockSig = sigBit(clockLoc)

// stepsConflict is a.conflicts(&b.stepSummary) for two ended steps, the
// signatures first.
func stepsConflict(a, b *porEvent) bool {
	if a.all || b.all {
		return true
	}
	if a.wsig&b.sig == 0 && a.sig&b.wsig == 0 {
		return false
	}
	return overlaps(a.acc, b.acc)
}

func writes(as []access, loc uintptr) bool {
	for _, a := range as {
		if a.loc == loc && a.write {
			return true
		}
	}
	return false
}

// timerRace: at the decision that chose step n, the earliest sleeper's
// timeout could have fired instead. A firing is not a step any run shows
// until it is chosen, so its races are not found as the others' are. If
// n conflicts with the firing of any sleeper (n moves the clock, as a
// deadline set or another firing does, or writes what a sleeper waits
// on), firing first is another execution; timeouts fire in deadline
// order, so the way to it starts with the earliest sleeper, which is
// asked for there. If n conflicts with none, every timeout can still fire
// after n, and the later decisions ask.
//
// A sleeper whose wait is over (what it waits on is ready) but which has
// not run yet still holds its place in deadline order: no later timeout
// fires before it goes. Such sleepers that could go instead of n are
// asked for too.
func (p *porRun) timerRace(r *run, n int) {
	e := &p.events[n]
	d := &r.decisions[e.dec]
	if !e.all && !p.hitsSleeper(r, e, d) {
		return
	}
	if d.timer >= 0 && d.timer != e.tid {
		p.backtrack(r, n, d.timer)
		// The firing commutes with the steps before n back to the
		// last one it conflicts with, but where it goes among them
		// changes what the bound allows after it (a firing always
		// costs a preemption; fired early, it may leave none for a
		// switch that a later firing would have come with for
		// free). So it is asked for at each of those decisions; without
		// a bound, firing at n's decision stands for every place among
		// them (the same class), and the places before would repeat it.
		t := r.threads[d.timer]
		for k := n - 1; k >= 0 && p.s.bound >= 0; k-- {
			ek := &p.events[k]
			if ek.tid == d.timer || ek.all || ek.sig&clockSig != 0 && touchesClock(ek.acc) || touchesFiring(ek, t) {
				break
			}
			if ek.dec >= 0 && r.decisions[ek.dec].timer == d.timer {
				p.s.nodes[ek.dec].bt |= 1 << d.timer
			}
		}
	}
	if p.s.bound < 0 && !p.heldBack(r, e, d) {
		return
	}
	for _, t := range r.threads {
		if t.id != e.tid && t.id != d.timer && t.state == blocked && t.deadline > 0 && d.enabled&(1<<t.id) != 0 {
			p.backtrack(r, n, t.id)
		}
	}
}

// heldBack reports whether, at decision d, which chose step e, a
// goroutine waits with a deadline and cannot go (its timeout may fire
// later): only a firing held back by a sleeper whose wait is over makes
// that sleeper's place in the deadline order matter.
func (p *porRun) heldBack(r *run, e *porEvent, d *decision) bool {
	for _, t := range r.threads {
		if t.id != e.tid && armedNow(t) && d.enabled&(1<<t.id) == 0 {
			return true
		}
	}
	return false
}

// touchesFiring reports whether step e touches what t waits on, which
// t's timeout firing reads (besides the clock).
func touchesFiring(e *porEvent, t *thread) bool {
	return t.pendAll || overlaps(e.acc, t.pend)
}

// hitsSleeper reports whether step e, chosen at decision d, conflicts
// with the firing of a goroutine waiting with a deadline. Without a
// bound, a sleeper whose wait could pass at d and still can after e does
// not count: its timeout could not fire at d, e did not stop it firing,
// and a later step that does asks for it then.
func (p *porRun) hitsSleeper(r *run, e *porEvent, d *decision) bool {
	if e.sig&clockSig != 0 && touchesClock(e.acc) {
		return true
	}
	for _, t := range r.threads {
		if armedNow(t) && t.id != e.tid && touchesFiring(e, t) && !p.readyThrough(t, d) {
			return true
		}
	}
	return false
}

// readyThrough reports, in the unbounded search, whether sleeper t's wait
// could pass at decision d (not by its timeout) and still can.
func (p *porRun) readyThrough(t *thread, d *decision) bool {
	return p.s.bound < 0 && t.id != d.timer && d.enabled&(1<<t.id) != 0 && !t.pendAll && t.ready != nil && t.ready()
}

// onWait reports whether step j conflicts with what the wait n waits on
// (n's pending operation).
func onWait(j, n *porEvent) bool {
	return j.all || overlaps(n.acc[:n.npend], j.acc)
}

// ends reports whether step j ends the goroutine whose end the wait n
// reads (a Join after the end).
func ends(j, n *porEvent) bool {
	for _, a := range n.acc[:n.npend] {
		if a.loc == 0 || a.loc >= clockLoc || a.write {
			continue
		}
		for _, b := range j.acc {
			if b.loc == a.loc && b.write {
				return true
			}
		}
	}
	return false
}

// undoPreemptions asks, at each decision before event j that took a
// preemption, for the choices there that take none: the goroutine that
// was running, or, where it had stopped (a timeout fired instead of a
// free switch), every other goroutine that could go. The first is the
// decision's default, which the search took when it first reached the
// decision; taken out, the function changed no schedule of the engine's
// tests or of the scenarios tried (docs/explore.md, "Why that mutant
// lives"). It stays as the bound's conservative rule.
func (p *porRun) undoPreemptions(r *run, j int) {
	for k := j - 1; k >= 0; k-- {
		ek := &p.events[k]
		if ek.dec < 0 {
			continue
		}
		d := &r.decisions[ek.dec]
		if !d.preempt {
			continue
		}
		nd := &p.s.nodes[ek.dec]
		if d.cur >= 0 {
			nd.bt |= 1 << d.cur
			continue
		}
		m := d.enabled
		if d.timer >= 0 {
			m &^= 1 << d.timer
		}
		nd.bt |= m
	}
}

// initials returns the goroutines whose first step in v can go first in
// v, where v is the steps after event i that do not depend on it, then
// event n.
//
// A step's clock orders it after every step it depends on in the run,
// also through steps that depend on i, which v leaves out: in
// [[locked{load(0)}] [locked{store(1)}] [load(1)]] a run of g1's lock,
// g2's load of 1, g1's store and unlock, then g0's lock has g0's lock
// after g2's load (the load before the store, the store before the
// unlock, the unlock before the lock), though in v (g2's load, g0's lock)
// nothing orders them, and g0, asleep there, starts v. Without a bound
// (where the search asks for one goroutine of v's initials, not for the
// cheapest place) a step the clock puts after an earlier step of v is
// looked at again within v alone (firstWithin); under a bound the
// clock's answer stands, fewer initials and never a wrong one.
func (p *porRun) initials(i, n int) uint64 {
	var seen, ini uint64
	firsts, vs := p.firsts[:0], p.vsteps[:0]
	for x := i + 1; x <= n; x++ {
		ex := &p.events[x]
		if x < n && p.hb(ex.clock, i) {
			continue // after i: not in v
		}
		if seen&(1<<ex.tid) != 0 {
			vs = append(vs, x)
			continue
		}
		seen |= 1 << ex.tid
		first := true
		for _, y := range firsts {
			if p.hb(ex.clock, y) {
				first = false
				break
			}
		}
		if !first && p.s.bound < 0 {
			first = p.firstWithin(x, vs)
		}
		if first {
			ini |= 1 << ex.tid
		}
		firsts, vs = append(firsts, x), append(vs, x)
	}
	p.firsts, p.vsteps = firsts, vs
	return ini
}

// firstWithin reports whether event x can go first in a sequence whose
// steps before it are ys (events of this run, in their order): whether
// none of them is ordered directly before x, as its goroutine's step, the
// step that started its goroutine, or a step it conflicts with. Any order
// among the sequence's own steps ends in such a link, so none orders x;
// an order through a step outside the sequence is not one there.
func (p *porRun) firstWithin(x int, ys []int) bool {
	ex := &p.events[x]
	for _, y := range ys {
		if !p.hb(ex.clock, y) {
			continue // not before x in the run, so not directly
		}
		ey := &p.events[y]
		if ey.tid == ex.tid || p.parent[ex.tid] == y || stepsConflict(ey, ex) {
			return false
		}
	}
	return true
}

// backtrack adds goroutine tid as an alternative at the decision before
// event i, and, under a preemption bound, at the start of the run of
// steps that i's predecessor belongs to.
func (p *porRun) backtrack(r *run, i, tid int) {
	p.s.nodes[p.events[i].dec].bt |= 1 << tid
	if p.s.bound < 0 {
		return
	}
	// Under a bound, also at every earlier place since tid last went
	// where a switch may cost fewer preemptions than at i: the start
	// of each run of steps of one goroutine, and each decision at which
	// the goroutine that went had stopped (it waited, or a timeout of
	// its own fired), where any choice is free. Those places are the
	// marks (begin); tid last went at its last step before i, found
	// back along its steps from its last.
	last := p.last[tid]
	for last >= i {
		last = p.events[last].prev
	}
	x, _ := slices.BinarySearch(p.marks, int32(i)) // the first mark at or after i
	for x--; x >= 0 && int(p.marks[x]) > last; x-- {
		ek := &p.events[p.marks[x]]
		if ek.en&(1<<tid) != 0 {
			p.s.nodes[ek.dec].bt |= 1 << tid
		}
	}
}

// cursor is scanBack's place on one chain of a location (accLink): an
// access (an index in accs, or -1 past the chain's end), and whether the
// chain is the location's writes' (w) or all its accesses'.
type cursor struct {
	g int32
	w bool
}

// scanner walks back over the steps before event i that may conflict
// with event n, latest first (scanBack).
type scanner struct {
	j      int // the step returned last
	linear bool
	curs   []cursor
	all    int // the next of porRun.alls to look at, downwards
}

// scanBack returns a scanner of the steps before event i (i itself is
// the scan's first step) that may conflict with event n, the step just
// finished, latest first: every earlier step, if n touches everything;
// else the steps on the chains of n's locations (accLink: every step that
// touched a location that n writes, every step that wrote one that n
// reads) and the steps that touch everything. Every step before i that
// conflicts with n is among them (race tests each it returns as it tested
// every step), so race visits the same steps in the same order as a scan
// of every step would.
func (p *porRun) scanBack(i, n int) scanner {
	en := &p.events[n]
	if en.all {
		return scanner{j: i, linear: true}
	}
	curs := p.curs[:0]
	for k, a := range en.acc {
		ls := &p.states[p.idx[k]]
		if a.write {
			curs = append(curs, cursor{ls.lastT, false})
		} else {
			curs = append(curs, cursor{ls.lastW, true})
		}
	}
	p.curs = curs
	return scanner{j: i, curs: curs, all: len(p.alls) - 1}
}

// next returns the next step of the scan, or -1 at its end.
func (s *scanner) next(p *porRun) int {
	if s.linear {
		s.j--
		return s.j
	}
	last := int32(s.j)
	best := int32(-1)
	for k := range s.curs {
		c := &s.curs[k]
		for c.g >= 0 {
			l := &p.links[c.g]
			if l.ev < last {
				best = max(best, l.ev)
				break
			}
			if c.w {
				c.g = l.prevW
			} else {
				c.g = l.prevT
			}
		}
	}
	for s.all >= 0 {
		if a := p.alls[s.all]; a < last {
			best = max(best, a)
			break
		}
		s.all--
	}
	s.j = int(best)
	return s.j
}
