package engine

import (
	"sort"
	"sync/atomic"
)

// A run of the reduced search replays its prefix: every decision as the
// run before it took it, but the last, which takes an alternative. The
// steps that end before that last decision is made are the run before's
// steps again, in the same order, touching the same locations (at other
// addresses: the program allocates anew), so their analysis (clocks,
// location records, the races they reverse) is the one that run made. On
// runtime scenarios these steps are two thirds of the steps analysed
// (runtime/go-tree: 56,839,859 of 84,476,021). So the record of one run
// is kept for the next (keepPrefix): newPorRun cuts it back to those
// steps (cutTo) instead of emptying it, and the run analyses only what
// follows them.
//
// The replayed steps still run (the program's goroutines must reach the
// state after them), and still do what depends on this run and not on
// the analysis: begin records each as the new step (its goroutine, its
// accesses at this run's addresses), and finish updates the sleep set
// and the decision's record of what the step touched. What finish skips
// is what it computed from them in the run before: the races (their
// alternatives are asked for already: an ask is a bit set, or a sequence
// a wakeup tree holds or a sleeper covers, so asking again changes
// nothing), the clock and the location records. It maps each location
// to the record the run before made for it instead (replayed).
//
// A replayed step that is not the run before's (another goroutine, other
// accesses, a location that maps to two records: a program that does not
// replay deterministically) ends the keeping there: the record is cut
// back to the steps before it (diverge) and the analysis goes on from it
// as if the run had been analysed from its start. The search is the same
// either way (TestKeptPrefixRunsTheSameSchedules).

// keepPrefix turns the keeping on; the tests turn it off to compare.
// The plain search keeps the analysis too when it keeps a state cache
// (statecache.go), which hashes each step's clock: cacheKept and
// cacheDiverged count its kept steps and its divergences, for the tests.
var (
	keepPrefix               = true
	cacheKept, cacheDiverged atomic.Int64
)

// stepAux is what cutTo needs of an analysed step: the decisions made
// when it ended, where its accesses end in accs, and where its clock ends
// in the arena (in chunk, the arena's count of chunks then); and the
// trace's hash after it, which a replay of the step takes back (the state
// cache's, statecache.go).
type stepAux struct {
	decEnd, accEnd, clockEnd int32
	chunk                    uint32
	trace                    stateKey
}

// keepable returns how many of the last run's steps the next run, whose
// prefix has d decisions, replays: those that ended before decision d-1,
// the one it changes, was made, and were analysed.
func (p *porRun) keepable(d int) int {
	if d == 0 {
		return 0
	}
	n := len(p.events)
	if p.open {
		n-- // the last step did not end
	}
	n = min(n, len(p.aux))
	return sort.Search(n, func(k int) bool { return p.aux[k].decEnd >= int32(d) })
}

// cutTo cuts the analysis back to its first b steps: the locations first
// touched after them are dropped, the others' records are what they
// were after step b-1 (rewind), the accesses' links and the clocks after
// theirs are free, and undoneAt names a step of them or none.
// events[:b] must still hold the steps.
func (p *porRun) cutTo(b int) {
	a := int32(0)
	if b > 0 {
		a = p.aux[b-1].accEnd
	}
	// Records are made in the order their locations were first touched.
	ns := sort.Search(len(p.states), func(i int) bool { return p.states[i].first >= int32(b) })
	p.states = p.states[:ns]
	for i := range p.states {
		if ls := &p.states[i]; ls.lastT >= a { // else untouched since
			p.rewind(ls, a)
		}
	}
	p.links = p.links[:a]
	// A step's clock is cut from the arena after the clocks of the steps
	// before it, in the chunk then current or a later one: if step b-1's
	// is not in this chunk, none of the chunk is kept.
	if b > 0 && p.aux[b-1].chunk == p.chunk {
		p.arena = p.arena[:p.aux[b-1].clockEnd]
	} else {
		p.arena = p.arena[:0]
	}
	p.aux = p.aux[:b]
	if p.undoneAt >= b {
		p.undoneAt = -1
	}
}

// rewind makes location record ls what it was after the accesses before
// accs[a] (of the steps kept): its chains' heads move back past the
// later ones, its writer is the step of the last write before, and its
// readers those since that write, the last per goroutine in the order
// remember adds them (a goroutine's place is its first read since).
func (p *porRun) rewind(ls *locState, a int32) {
	for ls.lastT >= a {
		ls.lastT = p.links[ls.lastT].prevT
	}
	for ls.lastW >= a {
		ls.lastW = p.links[ls.lastW].prevW
	}
	ls.w = stepRef{ev: -1}
	if ls.lastW >= 0 {
		ls.w = p.stepRef(p.links[ls.lastW].ev)
	}
	// The accesses after the last write are reads, latest first on the
	// chain of all its accesses.
	back := p.rewindBuf[:0]
	for g := ls.lastT; g > ls.lastW; g = p.links[g].prevT {
		back = append(back, p.links[g].ev)
	}
	p.rewindBuf = back
	reads := ls.reads[:0]
	for k := len(back) - 1; k >= 0; k-- {
		me := p.stepRef(back[k])
		replaced := false
		for i, x := range reads {
			if x.tid == me.tid {
				reads[i], replaced = me, true
			}
		}
		if !replaced {
			reads = append(reads, me)
		}
	}
	ls.reads = reads
}

// stepRef names event ev (which events' memory still holds, whether or
// not events has been cut shorter).
func (p *porRun) stepRef(ev int32) stepRef {
	e := &p.events[:cap(p.events)][ev]
	return stepRef{ev, int32(e.tid), int32(e.local)}
}

// replaying is begin's check of a replayed step: it must be the last
// run's step k (the same goroutine, chosen at the same decision among the
// same ones), whose count of accesses and whether it touched everything
// it keeps for finish (replayed). False, after diverge, if it is not.
func (p *porRun) replaying(k, c, dec int, en uint64) bool {
	ev := &p.events[k]
	if ev.tid != c || ev.dec != dec || ev.en != en {
		p.diverge(k)
		return false
	}
	p.replayN, p.replayAll = len(ev.acc), ev.all
	return true
}

// replayed ends replayed step n, as remember would have, if it touched
// what it touched in the last run: as many accesses, each the same kind,
// and locations that map one to one to the last run's records, to which
// it maps them. False, after diverge, if not: the step is then analysed.
func (p *porRun) replayed(n int) bool {
	e := &p.events[n]
	if len(e.acc) != p.replayN || e.all != p.replayAll {
		p.diverge(n)
		return false
	}
	if !e.all {
		for j, a := range e.acc {
			if !p.mapLoc(int32(p.accStart+j), a, int32(n)) {
				p.diverge(n)
				return false
			}
		}
	}
	if p.s != nil {
		p.s.kept++
	} else {
		cacheKept.Add(1)
	}
	p.thClock[e.tid] = e.clock
	if e.all {
		p.lastGlob = n
		p.alls = append(p.alls, int32(n))
	}
	return true
}

// mapLoc maps access a, accs[g] of step n, to the record the last run's
// access there had, unless that access was not step n's or not of a's
// kind, or the record or a's location is mapped to another already.
func (p *porRun) mapLoc(g int32, a access, n int32) bool {
	l := &p.links[g]
	if l.ev != n || l.write != a.write {
		return false
	}
	ls := &p.states[l.st]
	if ls.run == p.runNo {
		return ls.addr == a.loc // mapped at its first access this run
	}
	if v, _ := p.locs.index(a.loc, l.st); v != l.st {
		return false
	}
	ls.run, ls.addr = p.runNo, a.loc
	return true
}

// diverge ends the keeping at step k, which is not the last run's: the
// analysis is cut back to the steps before it (cutTo), and the location
// table holds what they touched, at this run's addresses.
func (p *porRun) diverge(k int) {
	if p.s != nil {
		p.s.diverged++
	} else {
		cacheDiverged.Add(1)
	}
	p.keep = k
	p.cutTo(k)
	p.locs.reset()
	p.runNo++
	start := int32(0)
	for x := range k {
		end := p.aux[x].accEnd
		if !p.events[x].all {
			for g := start; g < end; g++ {
				l := &p.links[g]
				p.locs.put(p.accs[g].loc, l.st)
				ls := &p.states[l.st]
				ls.run, ls.addr = p.runNo, p.accs[g].loc
			}
		}
		start = end
	}
}
