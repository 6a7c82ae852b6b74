package weak

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A tiny brute-force runner for litmus tests: every interleaving of the
// threads' operations, at every read every store the model offers, and
// at every store every place in modification order it offers,
// each a fresh Model. It collects the outcomes: the registers' values,
// the final (latest) value of the locations asked for, and "race" when a
// plain-cell access raced.

type opKind uint8

const (
	opLoad opKind = iota
	opStore
	opAdd
	opCAS
	opFence
	opRead  // a plain cell
	opWrite // a plain cell
)

type op struct {
	kind      opKind
	loc, reg  string
	val, new  int
	ord, fail Ordering
	// valReg, for a store, names the register whose value is stored.
	valReg string
	// guard: run the operation only if register ifReg holds ifVal.
	ifReg string
	ifVal int
}

func ld(reg, loc string, o Ordering) op { return op{kind: opLoad, reg: reg, loc: loc, ord: o} }
func st(loc string, v int, o Ordering) op {
	return op{kind: opStore, loc: loc, val: v, ord: o}
}
func stReg(loc, reg string, o Ordering) op {
	return op{kind: opStore, loc: loc, valReg: reg, ord: o}
}
func add(reg, loc string, d int, o Ordering) op {
	return op{kind: opAdd, reg: reg, loc: loc, val: d, ord: o}
}
func cas(reg, loc string, exp, new int, s, f Ordering) op {
	return op{kind: opCAS, reg: reg, loc: loc, val: exp, new: new, ord: s, fail: f}
}
func fence(o Ordering) op { return op{kind: opFence, ord: o} }
func rd(cell string) op   { return op{kind: opRead, loc: cell} }
func wr(cell string) op   { return op{kind: opWrite, loc: cell} }
func (o op) when(reg string, v int) op {
	o.ifReg, o.ifVal = reg, v
	return o
}

type litmus struct {
	name    string
	threads [][]op
	final   []string // locations whose final value is part of the outcome
	// allowed, if set, is the set RC11 allows derived by hand (why): the
	// oracle must find the same. forbidden names outcomes the test is
	// about that RC11 forbids; the oracle must not allow them.
	allowed, forbidden []string
	// beyond are outcomes C++20 allows but RC11 forbids, which the model
	// does not produce either (load buffering).
	beyond []string
	why    string // one line: why RC11 allows or forbids what it does
	source string // where the test comes from, if from outside
}

// chooser enumerates the choice sequences depth-first: it replays prefix,
// takes 0 at every later choice, and records each choice's range.
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

// next returns the choice sequence after this one, or false after the last.
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

// observe runs every execution of lt and returns the set of outcomes and
// the number of executions.
func observe(lt litmus) (map[string]bool, int) {
	seen := map[string]bool{}
	n := 0
	prefix := []int{}
	for {
		c := &chooser{prefix: prefix}
		seen[runOnce(lt, c)] = true
		n++
		p, ok := c.next()
		if !ok {
			return seen, n
		}
		prefix = p
	}
}

// unbounded lets every execution read any store: the litmus tests check
// the model's semantics, not its bounds.
var unbounded = Config{History: 64, MaxStale: 1 << 20}

func runOnce(lt litmus, c *chooser) string {
	m := New(unbounded)
	locs := map[string]Loc{}
	cells := map[string]Cell{}
	var regOrder []string
	for _, th := range lt.threads {
		for _, o := range th {
			switch o.kind {
			case opRead, opWrite:
				if _, ok := cells[o.loc]; !ok {
					cells[o.loc] = m.NewCell(o.loc)
				}
			case opFence:
			default:
				if _, ok := locs[o.loc]; !ok {
					locs[o.loc] = m.NewAtomic(o.loc, 0)
				}
			}
			if o.reg != "" {
				regOrder = append(regOrder, o.reg)
			}
		}
	}
	for _, f := range lt.final {
		if _, ok := locs[f]; !ok {
			locs[f] = m.NewAtomic(f, 0)
		}
	}
	ids := make([]Thread, len(lt.threads))
	for i := range ids {
		ids[i] = m.Go(0)
	}
	pc := make([]int, len(lt.threads))
	regs := map[string]int{}
	race := false
	for {
		var ready []int
		for i, th := range lt.threads {
			if pc[i] < len(th) {
				ready = append(ready, i)
			}
		}
		if len(ready) == 0 {
			break
		}
		i := ready[c.pick(len(ready))]
		o := lt.threads[i][pc[i]]
		pc[i]++
		if o.ifReg != "" && regs[o.ifReg] != o.ifVal {
			continue
		}
		t := ids[i]
		var err error
		switch o.kind {
		case opLoad:
			cands := m.Candidates(t, locs[o.loc], o.ord)
			regs[o.reg] = m.Load(t, locs[o.loc], o.ord, c.pick(len(cands))).(int)
		case opStore:
			v := o.val
			if o.valReg != "" {
				v = regs[o.valReg]
			}
			places := m.Placements(t, locs[o.loc], o.ord)
			m.StoreAt(t, locs[o.loc], o.ord, v, c.pick(len(places)))
		case opAdd:
			cands := m.RMWCandidates(t, locs[o.loc], o.ord)
			old, _ := m.RMWAt(t, locs[o.loc], o.ord, c.pick(len(cands)), func(v Value) Value { return v.(int) + o.val })
			regs[o.reg] = old.(int)
		case opCAS:
			cands := m.CASChoices(t, locs[o.loc], o.val, o.ord, o.fail)
			v, _, _ := m.CompareAndSwapAt(t, locs[o.loc], o.val, o.new, o.ord, o.fail, c.pick(len(cands)))
			regs[o.reg] = v.(int)
		case opFence:
			m.Fence(t, o.ord)
		case opRead:
			err = m.Read(t, cells[o.loc], "T"+fmt.Sprint(i+1))
		case opWrite:
			err = m.Write(t, cells[o.loc], "T"+fmt.Sprint(i+1))
		}
		if err != nil {
			var r *Race
			if !errors.As(err, &r) {
				panic(err)
			}
			race = true
		}
	}
	var parts []string
	for _, r := range regOrder {
		if v, ok := regs[r]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", r, v))
		}
	}
	for _, f := range lt.final {
		parts = append(parts, fmt.Sprintf("%s=%v", f, m.Latest(locs[f])))
	}
	if race {
		parts = append(parts, "race")
	}
	return strings.Join(parts, " ")
}

// product is every combination of the registers' values, in the runner's
// format: product("a", []int{0, 1}, "b", []int{0, 1}).
func product(args ...any) []string {
	out := []string{""}
	for i := 0; i < len(args); i += 2 {
		name, vals := args[i].(string), args[i+1].([]int)
		var next []string
		for _, p := range out {
			for _, v := range vals {
				next = append(next, strings.TrimSpace(fmt.Sprintf("%s %s=%d", p, name, v)))
			}
		}
		out = next
	}
	return out
}

// except is set without the outcomes given.
func except(set []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(set), func(s string) bool { return slices.Contains(drop, s) })
}

// filter keeps the outcomes whose registers satisfy ok.
func filter(set []string, ok func(regs map[string]int) bool) []string {
	var out []string
	for _, o := range set {
		regs := map[string]int{}
		for _, f := range strings.Fields(o) {
			var v int
			name, val, _ := strings.Cut(f, "=")
			fmt.Sscan(val, &v)
			regs[name] = v
		}
		if ok(regs) {
			out = append(out, o)
		}
	}
	return out
}

func sorted(set map[string]bool) []string { return slices.Sorted(maps.Keys(set)) }

func setOf(list []string) map[string]bool {
	s := map[string]bool{}
	for _, x := range list {
		s[x] = true
	}
	return s
}
