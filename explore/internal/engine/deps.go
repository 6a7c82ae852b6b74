package engine

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Why the reduced search branches (Options.Dependencies): every race it
// reverses (porRun.race: two conflicting steps of different goroutines,
// which it asks to run the other way round) is counted by what the two
// steps conflict on. A step whose accesses are not known (a Point without
// a location, a Block on an arbitrary condition, the step after a
// Gosched) conflicts with every step: such races are counted by where
// that step's operation is. A named location is counted by how it was
// first touched in the run (an atomic's PointAt, a lock's BlockOn, a
// Touch between points, as a statistics counter is) and where. The
// virtual clock, a goroutine's end (Join) and the weak mode's seq_cst
// order have causes of their own. The table says which of these a
// scenario's branching comes from: a false dependency (an unnamed point,
// the clock read where no timer decides, a counter the property never
// reads) costs schedules, never soundness.

// Race causes: the kind before the site.
const (
	CauseClock   = "clock"
	CauseJoin    = "goroutine end (Join)"
	CauseSC      = "seq_cst order"
	CauseUnnamed = "unnamed point"
	CauseAtomic  = "atomic"
	CauseLock    = "wait on a location (lock, channel)"
	CauseTouch   = "touched between points"
	CauseOther   = "other"
)

// depDiag gathers the causes over every run of one search.
type depDiag struct {
	label  map[uintptr]string     // a named location's cause in the running run: kind and site
	pendAt map[int]string         // per thread: the site of its pending unnamed step
	sites  []string               // per event of the running run: the site of an unnamed step, or ""
	counts map[string]int         // "kind\tsite" -> races
	siteAt map[[16]uintptr]string // site's answers, by the stack it walked
	races  int
}

func newDepDiag() *depDiag {
	return &depDiag{label: map[uintptr]string{}, pendAt: map[int]string{}, counts: map[string]int{}, siteAt: map[[16]uintptr]string{}}
}

// site is where the instrumented code called the hook: its function, and
// file:line. Every run names its locations anew (newRun), so the answer is
// kept by the stack walked to find it: resolving the frames is the slow
// half, and a few lines of code touch every location.
func (d *depDiag) site() string {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	if s, ok := d.siteAt[pcs]; ok {
		return s
	}
	f := firstFrame(pcs[:n])
	fn := f.Function
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	s := fmt.Sprintf("%s (%s:%d)", fn, filepath.Base(f.File), f.Line)
	d.siteAt[pcs] = s
	return s
}

// newRun forgets what the run before named. Its locations are addresses,
// and the next run allocates anew: an address it reuses may hold another
// variable, first touched elsewhere and otherwise (a label kept for the
// whole search counted that variable's races under the first one's).
func (d *depDiag) newRun() {
	clear(d.label)
	clear(d.pendAt)
	d.sites = d.sites[:0]
}

// named records how location loc was touched, the first time in the run.
func (d *depDiag) named(loc uintptr, kind string) {
	if _, ok := d.label[loc]; !ok && loc >= maxNamedLoc {
		d.label[loc] = kind + "\t" + d.site()
	}
}

// unnamed records the site of thread t's coming step, which touches
// everything.
func (d *depDiag) unnamed(t int, what string) { d.pendAt[t] = what + " " + d.site() }

// count classifies the race of events i and n of p.
func (d *depDiag) count(p *porRun, i, n int) {
	d.races++
	ei, en := &p.events[i], &p.events[n]
	key := CauseOther + "\t"
	switch {
	case en.all && n < len(d.sites):
		key = CauseUnnamed + "\t" + d.sites[n]
	case ei.all && i < len(d.sites):
		key = CauseUnnamed + "\t" + d.sites[i]
	default:
		for _, a := range ei.acc {
			for _, b := range en.acc {
				if a.loc != b.loc || !a.write && !b.write {
					continue
				}
				switch {
				case a.loc == clockLoc, a.loc == timerLoc, isPassLoc(a.loc):
					key = CauseClock + "\t"
				case a.loc == closeLoc:
					key = CauseLock + "\tchannel closes (Recv, Select: chans.go)"
				case a.loc == scLoc:
					key = CauseSC + "\t"
				case a.loc < maxNamedLoc:
					key = CauseJoin + "\t"
				default:
					key = d.label[a.loc]
					if key == "" {
						key = CauseOther + "\t"
					}
				}
				goto found
			}
		}
	}
found:
	d.counts[key]++
}

// begin notes event n of the running run (its site if it is unnamed).
func (d *depDiag) begin(n, tid int, all bool) {
	d.sites = slices.Grow(d.sites[:min(n, len(d.sites))], 1)[:n]
	s := ""
	if all {
		s = d.pendAt[tid]
	}
	d.sites = append(d.sites, s)
}

// Dependency is one row of a search's dependency table: a cause of its
// races, where, and how many.
type Dependency struct {
	Kind  string // CauseClock, CauseUnnamed, ...
	Site  string // the function and file:line, where the kind has one
	Races int
}

// table is the causes, most races first.
func (d *depDiag) table() []Dependency {
	var out []Dependency
	for k, n := range d.counts {
		kind, s, _ := strings.Cut(k, "\t")
		out = append(out, Dependency{kind, s, n})
	}
	slices.SortFunc(out, func(a, b Dependency) int {
		if a.Races != b.Races {
			return b.Races - a.Races
		}
		return strings.Compare(a.Kind+a.Site, b.Kind+b.Site)
	})
	return out
}
