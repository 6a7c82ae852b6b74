package litmus

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wsched/wsched/explore/internal/weak"
)

// Test is a litmus test: threads of operations that run concurrently, each
// location and cell starting at 0.
type Test struct {
	Name    string
	Threads [][]Op
	// Final names locations whose last value (in modification order) is
	// part of the outcome.
	Final []string
}

// Outcomes runs every execution of t and returns its distinct outcomes,
// sorted, and how many executions there were.
func (t Test) Outcomes() (outcomes []string, executions int) {
	seen := map[string]bool{}
	t.each(false, func(e *Execution) bool {
		seen[e.Outcome] = true
		executions++
		return true
	})
	return slices.Sorted(maps.Keys(seen)), executions
}

// Explain returns the first execution of t (in the order Outcomes runs
// them) whose outcome is outcome, with every step and the store each read
// read; false if no execution produces it. The outcome's fields may come
// in any order.
func (t Test) Explain(outcome string) (Execution, bool) {
	want := normal(outcome)
	var found *Execution
	t.each(true, func(e *Execution) bool {
		if normal(e.Outcome) == want {
			found = e
			return false
		}
		return true
	})
	if found == nil {
		return Execution{}, false
	}
	return *found, true
}

func normal(outcome string) string {
	f := strings.Fields(outcome)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// Execution is one run of a test: its steps in the order they ran, and the
// outcome.
type Execution struct {
	Test    string
	Outcome string
	Steps   []Step
	// SC is the seq_cst events' steps (indexes into Steps) in a seq_cst
	// order the execution is consistent with (one that extends RC11's
	// psc), as the graph draws it.
	SC []int
}

// Step is one operation of an execution.
type Step struct {
	Thread int // 1 for the test's first thread
	Op     Op
	// Skipped is set when the operation's When guard was false.
	Skipped bool
	// Value is what a load, Add or CAS read, or what a store wrote.
	Value int
	// From, for an atomic read, is the step whose store it read (an index
	// into Steps), or -1 for the location's initial 0.
	From int
	// Stale is set when the read read a store other than the latest one:
	// what no sequentially consistent memory could return at that point.
	Stale bool
	// Race, for a plain access, describes the data race it made.
	Race string
	// RaceWith, on both accesses of a data race, is the other's index
	// into Steps; -1 for none.
	RaceWith int
	// Before, for a store, is how many newer stores it went before in
	// its location's modification order (0: last).
	Before int
}

func (e Execution) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", e.Test, e.Outcome)
	for i, s := range e.Steps {
		line := fmt.Sprintf("%3d  T%d  %-40s", i+1, s.Thread, s.Op)
		switch {
		case s.Skipped:
			line += "  (skipped: the guard was false)"
		case s.Op.reads():
			from := "the initial value"
			if s.From >= 0 {
				from = fmt.Sprintf("step %d", s.From+1)
			}
			line += fmt.Sprintf("  reads %d from %s", s.Value, from)
			if s.Stale {
				line += " (stale: a newer store exists)"
			}
		case s.Race != "":
			line += "  RACE: " + s.Race
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// unbounded lets every read read any store: a litmus test is about the
// model's semantics, not its bounds.
var unbounded = weak.Config{History: 64, MaxStale: 1 << 20}

// config is the Models' Config: unbounded, but for the test that a Model
// bounded in stale choices stops keeping what only they read where
// nothing asks for it (lean_test.go).
var config = unbounded

// freshModels makes each execution's memory with weak.New, where each
// gives an untraced execution the last one's (weak.NewFrom, as the
// explorer's searches do): for the test that the two see the same.
var freshModels = false

// each runs every execution of t, depth first, and calls f with each until
// f returns false. trace records the steps.
func (t Test) each(trace bool, f func(*Execution) bool) {
	prefix := []int{}
	var spare *weak.Model
	for {
		c := &chooser{prefix: prefix}
		ex, m := t.run(c, trace, spare)
		if !trace && !freshModels {
			spare = m // the execution is done with it: its outcome is a string
		}
		if !f(ex) {
			return
		}
		p, ok := c.next()
		if !ok {
			return
		}
		prefix = p
	}
}

// run runs one execution, taking its decisions (which thread goes next,
// which store a read reads) from c, in a Model made anew or, if spare is
// not nil, from spare (weak.NewFrom), and returns it with its Model.
func (t Test) run(c *chooser, trace bool, spare *weak.Model) (*Execution, *weak.Model) {
	var m *weak.Model
	if spare != nil {
		m = weak.NewFrom(config, spare)
	} else {
		m = weak.New(config)
	}
	locs := map[string]weak.Loc{}
	cells := map[string]weak.Cell{}
	var regOrder []string
	for _, th := range t.Threads {
		for _, o := range th {
			switch {
			case o.kind == opRead || o.kind == opWrite:
				if _, ok := cells[o.loc]; !ok {
					cells[o.loc] = m.NewCell(o.loc)
				}
			case o.atomic():
				if _, ok := locs[o.loc]; !ok {
					locs[o.loc] = m.NewAtomic(o.loc, 0)
				}
			}
			if o.reg != "" && !slices.Contains(regOrder, o.reg) {
				regOrder = append(regOrder, o.reg)
			}
		}
	}
	for _, f := range t.Final {
		if _, ok := locs[f]; !ok {
			locs[f] = m.NewAtomic(f, 0)
		}
	}
	ids := make([]weak.Thread, len(t.Threads))
	thread := map[weak.Thread]int{}
	for i := range ids {
		ids[i] = m.Go(0)
		thread[ids[i]] = i + 1
	}
	ex := &Execution{Test: t.Name}
	stepOf := map[int]int{}   // the model's store numbers (Candidate.Seq) -> step index
	cellStep := map[int]int{} // a plain access's operation number -> step index
	scStep := map[weak.SCEvent]int{}
	latest := func(th weak.Thread, l weak.Loc) weak.Candidate { return m.Candidates(th, l, Relaxed)[0] }
	pc := make([]int, len(t.Threads))
	regs := map[string]int{}
	race := false
	for {
		var ready []int
		for i, th := range t.Threads {
			if pc[i] < len(th) {
				ready = append(ready, i)
			}
		}
		if len(ready) == 0 {
			break
		}
		i := ready[c.pick(len(ready))]
		o := t.Threads[i][pc[i]]
		pc[i]++
		s := Step{Thread: i + 1, Op: o, From: -1, RaceWith: -1}
		if o.ifReg != "" && regs[o.ifReg] != o.ifVal {
			s.Skipped = true
			if trace {
				ex.Steps = append(ex.Steps, s)
			}
			continue
		}
		th := ids[i]
		var err error
		var read *weak.Candidate
		switch o.kind {
		case opLoad:
			cands := m.Candidates(th, locs[o.loc], o.ord)
			k := c.pick(len(cands))
			read = &cands[k]
			regs[o.reg] = m.Load(th, locs[o.loc], o.ord, k).(int)
			s.Value = regs[o.reg]
		case opStore:
			// Where the store goes in modification order is a choice
			// too (last, or before newer stores the model allows).
			v := o.val
			if o.valReg != "" {
				v = regs[o.valReg]
			}
			places := m.Placements(th, locs[o.loc], o.ord)
			k := c.pick(len(places))
			m.StoreAt(th, locs[o.loc], o.ord, v, k)
			s.Value, s.Before = v, places[k].Before
		case opAdd:
			cands := m.RMWCandidates(th, locs[o.loc], o.ord)
			k := c.pick(len(cands))
			read = &cands[k]
			old, _ := m.RMWAt(th, locs[o.loc], o.ord, k, func(v weak.Value) weak.Value { return v.(int) + o.val })
			regs[o.reg] = old.(int)
			s.Value = regs[o.reg]
		case opCAS:
			cands := m.CASChoices(th, locs[o.loc], o.val, o.ord, o.fail)
			k := c.pick(len(cands))
			read = &cands[k]
			v, _, _ := m.CompareAndSwapAt(th, locs[o.loc], o.val, o.new, o.ord, o.fail, k)
			regs[o.reg] = v.(int)
			s.Value = regs[o.reg]
		case opFence:
			m.Fence(th, o.ord)
		case opRead:
			err = m.Read(th, cells[o.loc], fmt.Sprintf("T%d", i+1))
		case opWrite:
			err = m.Write(th, cells[o.loc], fmt.Sprintf("T%d", i+1))
		}
		if o.kind == opRead || o.kind == opWrite {
			cellStep[m.Events()] = len(ex.Steps)
		}
		if err != nil {
			var r *weak.Race
			if !errors.As(err, &r) {
				panic(err)
			}
			race = true
			// The race names both accesses by their steps, as the
			// execution prints them.
			side := func(a weak.RaceAccess, step int) string {
				kind := "read"
				if a.Write {
					kind = "write"
				}
				return fmt.Sprintf("the %s by T%d (step %d)", kind, thread[a.Thread], step+1)
			}
			first := cellStep[r.First.Seq]
			s.Race = fmt.Sprintf("data race on %s: %s is not ordered before %s", r.Cell, side(r.First, first), side(r.Second, len(ex.Steps)))
			if trace && first < len(ex.Steps) && ex.Steps[first].Race == "" {
				ex.Steps[first].Race = fmt.Sprintf("data race with step %d", len(ex.Steps)+1)
				ex.Steps[first].RaceWith = len(ex.Steps)
				s.RaceWith = first
			}
		}
		if trace && o.kind != opRead && o.kind != opWrite {
			// A seq_cst event of the model: its step, for SCOrder.
			if e, ok := m.LastSC(th); ok {
				if _, seen := scStep[e]; !seen {
					scStep[e] = len(ex.Steps)
				}
			}
		}
		if trace {
			if read != nil {
				s.Stale = read.Age > 0
				if read.Writer >= 0 {
					s.From = stepOf[read.Seq]
				}
			}
			if o.kind == opStore || o.kind == opAdd || o.kind == opCAS {
				// A write is the latest store of its location once
				// made: that names it for the reads after it.
				if w := latest(th, locs[o.loc]); w.Writer == th {
					if _, known := stepOf[w.Seq]; !known {
						stepOf[w.Seq] = len(ex.Steps)
					}
				}
			}
			ex.Steps = append(ex.Steps, s)
		}
	}
	if trace {
		for _, e := range m.SCOrder() {
			if k, ok := scStep[e]; ok {
				ex.SC = append(ex.SC, k)
			}
		}
	}
	var parts []string
	for _, r := range regOrder {
		if v, ok := regs[r]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", r, v))
		}
	}
	for _, f := range t.Final {
		parts = append(parts, fmt.Sprintf("%s=%v", f, m.Latest(locs[f])))
	}
	if race {
		parts = append(parts, "race")
	}
	ex.Outcome = strings.Join(parts, " ")
	return ex, m
}

// chooser enumerates the decision sequences depth first: it replays
// prefix, takes 0 at every later decision, and records each decision's
// range.
type chooser struct {
	prefix []int
	trail  []choice
}

type choice struct{ k, n int }

func (c *chooser) pick(n int) int {
	if n == 1 {
		return 0
	}
	k := 0
	if i := len(c.trail); i < len(c.prefix) {
		k = c.prefix[i]
	}
	c.trail = append(c.trail, choice{k, n})
	return k
}

// next returns the decision sequence after this one, or false after the
// last.
func (c *chooser) next() ([]int, bool) {
	i := len(c.trail) - 1
	for i >= 0 && c.trail[i].k+1 >= c.trail[i].n {
		i--
	}
	if i < 0 {
		return nil, false
	}
	p := make([]int, i+1)
	for j := range i {
		p[j] = c.trail[j].k
	}
	p[i] = c.trail[i].k + 1
	return p, true
}
