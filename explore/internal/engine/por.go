package engine

// Dynamic partial-order reduction.
//
// Two schedules that differ only in the order of operations that do not
// conflict (different locations, or two reads) are one execution: the same
// values are read, the same states reached at the end. The plain search
// runs both; the reduced search runs one schedule per class, adding an
// alternative at a decision only where the run shows that two conflicting
// steps of different goroutines could have gone the other way (Flanagan
// and Godefroid, "Dynamic partial-order reduction for model checking
// software", POPL 2005).
//
// A step is what the explorer schedules: the goroutine chosen at a
// decision performs its pending operation, then runs its own code up to
// its next scheduling point. The operation's location comes from PointAt
// (explore/atomic passes the address of the atomic); what the step
// touches in between without a scheduling point (a statistics counter, a
// check that reads several counters) comes from Touch. A timeout firing
// writes the virtual clock (clockLoc), as a deadline set does, and Now
// reads it. A step whose accesses are not known (a Point without a
// location, a Block on an arbitrary condition, the step after a Gosched)
// is taken to conflict with every other step: that costs reduction,
// never soundness. Ordinary memory touched between points must be ordered by
// the atomics (a program without data races), as the race detector checks
// outside the explorer.
//
// The analysis runs as the schedule runs. When a step ends (its goroutine
// reaches its next point), its vector clock is computed from the steps it
// conflicts with, and every earlier conflicting step of another goroutine
// that does not already happen before it (and is not ordered before it
// through another such step) is a race: the search adds the later step's
// goroutine as an alternative at the decision just before the earlier
// step, if that goroutine could have gone there. If it could not (it was
// blocked, or not yet started), the search looks further back for the
// latest conflicting step before which it could, as Flanagan and
// Godefroid's "co-enabled" condition does. A run replays the decisions
// of the run before it up to the one it changes; the steps before that
// are the same steps, so their analysis is kept from that run, not made
// again (por_keep.go).
//
// With the preemption bound: reducing and bounding together is not sound
// as such (Coons, Musuvathi and McKinley, "Bounded partial-order
// reduction", OOPSLA 2013): the schedule of a class that the search would
// run may cost more preemptions than another schedule of the same class,
// which the bound allowed and the reduction skipped. As they do, every
// alternative added at a decision is also added at the start of the run
// of steps of one goroutine that the decision interrupts (where a switch
// happened anyway and costs nothing more), and an alternative over the
// bound is not run. Sleep sets (Godefroid 1996) are unsound with a bound
// for the same reason (a rule that keeps their cut schedules within the
// bound still missed classes: docs/explore.md, "Sleep sets under the
// bound") and are used only by the unbounded search, which
// runs every execution of the scenario whatever its preemptions; in the
// plain mode it keeps wakeup trees (por_wakeup.go) instead of single
// alternatives, and runs one schedule per class where no step passes a
// wait on a condition (docs/explore.md, "One schedule per class").

// access is one operation on shared state: a location (an address) and
// whether it writes. Location 0 stands for every location.
type access struct {
	loc   uintptr
	write bool
}

// threadLoc is the location that a goroutine's end writes and a Join of
// it reads. Such locations are small numbers, which no address is: they
// name the same thing in every run (see sleeper).
func threadLoc(id int) uintptr { return uintptr(id + 1) }

// passLoc is goroutine id's timer as a later timer sees it: a timed wait
// of id that passes in time (its condition held before its deadline)
// writes it, and the firing of a timer that could fire only once that one
// was gone reads it (porRun.begin). The firing of the earliest armed timer
// is enabled by the end of every timer before it: one that fired wrote the
// clock, which the firing writes too, but one whose wait passed in time
// touched no location the firing does, and the search took the two steps
// as independent, and the firing as possible before the pass, which it is
// not (docs/explore.md, "One schedule per class").
func passLoc(id int) uintptr { return uintptr(1<<11 + id) }

// isPassLoc reports whether l is a goroutine's passLoc (a run has at most
// 64 goroutines).
func isPassLoc(l uintptr) bool { return l >= passLoc(0) && l < passLoc(64) }

// clockLoc is the virtual clock: Now reads it; a deadline set and a
// timeout firing write it.
const clockLoc = 1<<12 - 1

// scLoc is the weak-memory model's seq_cst order (weak/psc.go): a
// seq_cst fence writes it (its predecessors in psc are whatever came
// before it), a seq_cst load, store or read-modify-write reads it. Two
// seq_cst accesses to different locations commute; a seq_cst fence
// commutes with no seq_cst operation of another goroutine.
const scLoc = clockLoc - 1

const maxNamedLoc = 1 << 12

// stepSummary is what one step touched.
type stepSummary struct {
	all bool // everything: conflicts with every step
	acc []access
}

func (s *stepSummary) conflicts(o *stepSummary) bool {
	return s.all || o.all || overlaps(s.acc, o.acc)
}

// overlaps reports whether two lists of accesses touch one location, one
// of them writing.
func overlaps(as, bs []access) bool {
	for _, a := range as {
		for _, b := range bs {
			if a.loc == b.loc && (a.write || b.write) {
				return true
			}
		}
	}
	return false
}

// touchesClock reports whether as reads or writes the virtual clock.
func touchesClock(as []access) bool {
	for _, a := range as {
		if a.loc == clockLoc {
			return true
		}
	}
	return false
}
