package weak_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wsched/wsched/explore/internal/weak"
	litmustest "github.com/wsched/wsched/explore/litmus"
)

// A litmus test of the suite, described once and run twice: on the
// model through the public runner (explore/litmus) and on the RC11 oracle
// (oracle_test.go). The outcomes are the registers' values, the final
// (latest) value of the locations asked for, and "race" when a
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
	ord, fail weak.Ordering
	// valReg, for a store, names the register whose value is stored.
	valReg string
	// guard: run the operation only if register ifReg holds ifVal.
	ifReg string
	ifVal int
}

func ld(reg, loc string, o weak.Ordering) op { return op{kind: opLoad, reg: reg, loc: loc, ord: o} }
func st(loc string, v int, o weak.Ordering) op {
	return op{kind: opStore, loc: loc, val: v, ord: o}
}
func stReg(loc, reg string, o weak.Ordering) op {
	return op{kind: opStore, loc: loc, valReg: reg, ord: o}
}
func add(reg, loc string, d int, o weak.Ordering) op {
	return op{kind: opAdd, reg: reg, loc: loc, val: d, ord: o}
}
func cas(reg, loc string, exp, new int, s, f weak.Ordering) op {
	return op{kind: opCAS, reg: reg, loc: loc, val: exp, new: new, ord: s, fail: f}
}
func fence(o weak.Ordering) op { return op{kind: opFence, ord: o} }
func rd(cell string) op        { return op{kind: opRead, loc: cell} }
func wr(cell string) op        { return op{kind: opWrite, loc: cell} }
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

// observe runs every execution of lt on the public runner
// (explore/litmus: every interleaving, at every read every store the
// model offers, at every store every place in modification order) and
// returns the set of outcomes and the number of executions.
func observe(lt litmus) (map[string]bool, int) {
	outcomes, n := toTest(lt).Outcomes()
	return setOf(outcomes), n
}

func toTest(lt litmus) litmustest.Test {
	t := litmustest.Test{Name: lt.name, Final: lt.final}
	for _, th := range lt.threads {
		var ops []litmustest.Op
		for _, o := range th {
			ops = append(ops, o.test())
		}
		t.Threads = append(t.Threads, ops)
	}
	return t
}

// test is o as an operation of the public runner.
func (o op) test() litmustest.Op {
	var t litmustest.Op
	switch o.kind {
	case opLoad:
		t = litmustest.Load(o.reg, o.loc, o.ord)
	case opStore:
		t = litmustest.Store(o.loc, o.val, o.ord)
		if o.valReg != "" {
			t = litmustest.StoreReg(o.loc, o.valReg, o.ord)
		}
	case opAdd:
		t = litmustest.Add(o.reg, o.loc, o.val, o.ord)
	case opCAS:
		t = litmustest.CAS(o.reg, o.loc, o.val, o.new, o.ord, o.fail)
	case opFence:
		t = litmustest.Fence(o.ord)
	case opRead:
		t = litmustest.Read(o.loc)
	case opWrite:
		t = litmustest.Write(o.loc)
	}
	if o.ifReg != "" {
		t = t.When(o.ifReg, o.ifVal)
	}
	return t
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
