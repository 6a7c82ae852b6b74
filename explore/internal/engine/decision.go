package engine

import "math/bits"

// A run's path is its decisions, in order, of two kinds, as loom's path
// has its Schedule and Load branches: a schedule (which goroutine performs
// the next operation) and, in the weak-memory mode, a load (which store a
// read reads, or where in modification order a store goes). Each guide
// chooses each kind with a method of its own; the replay token writes
// each with its letter (token.go).

// schedule is a decision of which goroutine performs the next operation,
// taken where more than one could.
type schedule struct {
	enabled uint64 // bit i: thread i could go next
	cur     int    // the thread deciding, if it could go on itself; else -1
	// timer is a blocked thread whose timeout may fire now (the earliest
	// deadline), or -1. Its bit is in enabled; choosing it advances
	// virtual time to its deadline. It is never the default choice, and
	// choosing it always counts as a preemption.
	timer int
	// twins are the goroutines the search does not choose here: each
	// has a lower-numbered twin that can go (symmetry.go). Never the
	// default choice.
	twins uint64
}

// defaultChoice is the thread the search tries first: the current thread
// if it can go on (no preemption), otherwise the lowest-numbered one
// (never a timer firing early).
func (s *schedule) defaultChoice() int {
	if s.cur >= 0 {
		return s.cur
	}
	m := s.enabled
	if s.timer >= 0 {
		m &^= 1 << s.timer
	}
	return bits.TrailingZeros64(m)
}

// costs reports whether choosing c at s is a preemption.
func (s *schedule) costs(c int) bool {
	return c == s.timer || s.cur >= 0 && c != s.cur
}

// alternatives lists the choices in the order the search tries them: the
// default first, then the others by thread number.
func (s *schedule) alternatives() []int { return s.appendAlternatives(nil) }

// appendAlternatives appends the alternatives to alts.
func (s *schedule) appendAlternatives(alts []int) []int {
	def := s.defaultChoice()
	alts = append(alts, def)
	for m := s.enabled &^ (1 << def) &^ s.twins; m != 0; m &= m - 1 {
		alts = append(alts, bits.TrailingZeros64(m))
	}
	return alts
}

// load is a decision of the weak-memory mode (weakmode.go): which of n
// stores a read reads, 0 being the latest, or which of n places in
// modification order a store goes to, 0 being last. 0 is the default, and
// no choice costs a preemption (the model bounds the stale choices).
type load struct{ n int }

// alternatives lists the choices in the order the search tries them.
func (l load) alternatives() []int { return l.appendAlternatives(nil) }

// appendAlternatives appends the alternatives to alts.
func (l load) appendAlternatives(alts []int) []int {
	for i := range l.n {
		alts = append(alts, i)
	}
	return alts
}

// decision is one entry of a run's path: a schedule or a load, as kind
// says (the other is zero), with the choice taken and whether it cost a
// preemption.
type decision struct {
	kind byte // kindGoroutine: a schedule; kindStore: a load
	schedule
	load
	chosen  int
	preempt bool // a preemption: chosen != cur while cur could go on, or the timer
	// step is how many numbered steps the traced run had printed when
	// the decision was taken (its choice shows from step step+1 on);
	// 0 in an untraced run. The play tree uses it (play.go).
	step int
}

func (d *decision) defaultChoice() int {
	if d.kind == kindStore {
		return 0
	}
	return d.schedule.defaultChoice()
}

func (d *decision) costs(c int) bool {
	return d.kind == kindGoroutine && d.schedule.costs(c)
}

func (d *decision) alternatives() []int { return d.appendAlternatives(nil) }

// appendAlternatives appends the alternatives to alts: the search's
// scan for its next prefix lists them at every decision of every run,
// into memory it keeps (explorer.alts).
func (d *decision) appendAlternatives(alts []int) []int {
	if d.kind == kindStore {
		return d.load.appendAlternatives(alts)
	}
	return d.schedule.appendAlternatives(alts)
}

// guide chooses at each decision of a run: which goroutine goes next
// (goroutine), and in the weak-memory mode which store a read reads or
// where a store goes (store). Both take the decision by value: a pointer
// would put it on the heap, at every decision.
type guide interface {
	goroutine(r *run, s schedule) int
	store(r *run, l load) int
}
