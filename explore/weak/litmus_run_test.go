package weak_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	lit "github.com/wsched/wsched/explore/litmus"
)

// The suite's shorthand for package litmus, which runs each test: every
// interleaving of the threads' operations and, at every read, every store
// the model offers, each a fresh Model. An outcome is the registers'
// values, the final (latest) value of the locations asked for, and "race"
// when a plain-cell access raced.

type op = lit.Op

var (
	ld    = lit.Load
	st    = lit.Store
	add   = lit.Add
	cas   = lit.CAS
	fence = lit.Fence
	rd    = lit.Read
	wr    = lit.Write
)

type litmus struct {
	name    string
	threads [][]op
	final   []string // locations whose final value is part of the outcome
	// allowed is the set RC11 allows; forbidden names the outcomes the
	// test is about that RC11 forbids (the exact comparison excludes
	// every other outcome as well).
	allowed, forbidden []string
	// absent are outcomes in allowed that the model cannot produce
	// (doc.go, "What is not"); they must not be observed.
	absent []string
	// beyond are outcomes C++20 allows but RC11 forbids, which the model
	// does not produce either (load buffering).
	beyond []string
	why    string // one line: why RC11 allows or forbids what it does
}

// observe runs every execution of lt and returns the set of outcomes and
// the number of executions.
func observe(lt litmus) (map[string]bool, int) {
	outcomes, n := lit.Test{Name: lt.name, Threads: lt.threads, Final: lt.final}.Outcomes()
	return setOf(outcomes), n
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
