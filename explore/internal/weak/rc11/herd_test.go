package rc11

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The oracle's outcomes checked against herd7's state lists under RC11:
// herdtools7 (github.com/herd/herdtools7, commit 5feffe4e8f98), the
// expected outputs its regression tests compare herd7's output with, run
// with herd/libdir/rc11.cat:
//
//   - herd/tests/instructions/C/CNN.litmus and CNN.litmus.expected
//     (ci.cfg: model herd/libdir/rc11.cat). The tests of 128-bit types,
//     of a constant initial value, of plain racy accesses and of the Linux
//     kernel's primitives are left out; the five that fit a Program are
//     here.
//   - gen/tests/C/NAME.litmus.expected (C.cfg: cat rc11.cat): the 24 tests
//     the Makefile's diy-test-C target has diycross7 generate, from
//     relaxed accesses, rfe/coe/fre/"hat" edges, and a read-modify-write
//     (fetch_add, exchange) or a read then write of one location in one
//     thread. Their C files are generated, not committed; each program
//     below is built from its name as diy names its cycles: the family
//     (MP, LB, S, RR+RW, RR+WR, RW+WR: each thread's first and last
//     access), then each thread's edges ("porlxrlx": program order to
//     another location, both relaxed; "posWrlxrlx": a read then a write
//     of the same location; "rmwrlxrlx": atomic_exchange_explicit;
//     "fetch.addrlxrlx": atomic_fetch_add_explicit, which adds the value
//     diy gives the write: the location's first write 1, its second 2), a
//     trailing "s" when both threads have the same edges.
//
// Each state is herd7's line as it prints it; a test passes if the
// oracle's outcomes are exactly those states, and its number of
// executions is herd7's Positive plus Negative (the number of consistent
// executions it enumerated).
type herdTest struct {
	name, source string
	p            Program
	states       []string // herd7's "States" lines, verbatim
	executions   int      // herd7's "Witnesses" Positive + Negative
	// drop lists the keys of herd7's states that the Program has no
	// register for (C13's 0:r2 = (r1^r1)+r1, equal to 0:r1).
	drop []string
}

func swap(reg, loc string, v int, o Ordering) Op {
	return Op{Kind: Swap, Reg: reg, Loc: loc, Val: v, Ord: o}
}

const herdCommit = "herdtools7 5feffe4e8f98d93b60144a3cda322eba92dd9723"

var herdTests = []herdTest{
	// herd/tests/instructions/C: hand-written tests.
	{
		name: "C03", source: "herd/tests/instructions/C/C03.litmus",
		// atomic_fetch_add_explicit(y,1,memory_order_seq_cst)
		p:      Program{Threads: [][]Op{{add("", "y", 1, sc)}}, Final: []string{"y"}},
		states: []string{"[y]=0x1;"}, executions: 1,
	},
	{
		name: "C13", source: "herd/tests/instructions/C/C13.litmus",
		// Load buffering through data dependencies: out of thin air,
		// forbidden by RC11's sb ∪ rf acyclicity.
		p: Program{Threads: [][]Op{
			{ld("0:r1", "y", rlx), stReg("x", "0:r1", rlx)},
			{ld("1:r4", "x", rlx), stReg("y", "1:r4", rlx)},
		}},
		states: []string{"0:r1=0x0; 0:r2=0x0; 1:r4=0x0;"}, executions: 3, drop: []string{"0:r2"},
	},
	{
		name: "C14", source: "herd/tests/instructions/C/C14.litmus",
		p:      Program{Threads: [][]Op{{add("", "y", 1, rlx)}, {add("", "y", 1, rlx)}}, Final: []string{"y"}},
		states: []string{"[y]=0x2;"}, executions: 2,
	},
	{
		name: "C15", source: "herd/tests/instructions/C/C15.litmus",
		p:      Program{Threads: [][]Op{{st("y", 1, rlx)}, {swap("1:r1", "y", 2, rlx)}}, Final: []string{"y"}},
		states: []string{"1:r1=0x0; [y]=0x1;", "1:r1=0x1; [y]=0x2;"}, executions: 2,
	},
	{
		name: "C16", source: "herd/tests/instructions/C/C16.litmus",
		// atomic_compare_exchange_strong(y,z,2), seq_cst, with *z = 0:
		// on failure it writes the value read to z, on success z
		// already holds it; so z is the value the CAS read, its
		// register here.
		p:      Program{Threads: [][]Op{{st("y", 1, rlx)}, {cas("z", "y", 0, 2, sc, sc)}}, Final: []string{"y"}},
		states: []string{"[y]=0x1; [z]=0x0;", "[y]=0x1; [z]=0x1;"}, executions: 2,
	},

	// gen/tests/C: diycross7's tests, programs from their names.
	{
		name: "LB+fetch.addrlxrlx-porlxrlxs",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 2, rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [x]=1; [y]=1;",
			"0:r0=0; 1:r0=1; [x]=1; [y]=3;",
			"0:r0=1; 1:r0=0; [x]=3; [y]=1;",
		}, executions: 3,
	},
	{
		name: "LB+porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=1; [y]=3;",
			"0:r0=1; 1:r0=0; [y]=1;",
		}, executions: 3,
	},
	{
		name: "LB+porlxrlx+posWrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("y", 1, rlx)},
			{ld("1:r0", "y", rlx), st("y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=0; [y]=2;",
			"0:r0=0; 1:r0=1; [y]=2;",
			"0:r0=1; 1:r0=0; [y]=1;",
			"0:r0=1; 1:r0=0; [y]=2;",
		}, executions: 5,
	},
	{
		name: "LB+porlxrlx+rmwrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("y", 1, rlx)},
			{swap("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=1; [y]=2;",
			"0:r0=1; 1:r0=0; [y]=1;",
		}, executions: 3,
	},
	{
		name: "LB+posWrlxrlx-porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("x", 2, rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [x]=1; [y]=1;",
			"0:r0=0; 1:r0=0; [x]=2; [y]=1;",
			"0:r0=0; 1:r0=1; [x]=1; [y]=3;",
			"0:r0=0; 1:r0=1; [x]=2; [y]=3;",
			"0:r0=1; 1:r0=0; [x]=2; [y]=1;",
		}, executions: 5,
	},
	{
		name: "LB+rmwrlxrlx-porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{swap("0:r0", "x", 2, rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [x]=1; [y]=1;",
			"0:r0=0; 1:r0=1; [x]=1; [y]=3;",
			"0:r0=1; 1:r0=0; [x]=2; [y]=1;",
		}, executions: 3,
	},
	{
		name: "MP+porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 1, rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), ld("1:r1", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"1:r0=0; 1:r1=0; [y]=1;",
			"1:r0=0; 1:r1=1; [y]=1;",
			"1:r0=1; 1:r1=0; [y]=3;",
			"1:r0=1; 1:r1=1; [y]=3;",
		}, executions: 4,
	},
	{
		name: "MP+porlxrlx+posWrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 1, rlx), st("y", 1, rlx)},
			{ld("1:r0", "y", rlx), st("y", 2, rlx), ld("1:r1", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"1:r0=0; 1:r1=0; [y]=1;",
			"1:r0=0; 1:r1=0; [y]=2;",
			"1:r0=0; 1:r1=1; [y]=1;",
			"1:r0=0; 1:r1=1; [y]=2;",
			"1:r0=1; 1:r1=0; [y]=2;",
			"1:r0=1; 1:r1=1; [y]=2;",
		}, executions: 6,
	},
	{
		name: "MP+porlxrlx+rmwrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 1, rlx), st("y", 1, rlx)},
			{swap("1:r0", "y", 2, rlx), ld("1:r1", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"1:r0=0; 1:r1=0; [y]=1;",
			"1:r0=0; 1:r1=1; [y]=1;",
			"1:r0=1; 1:r1=0; [y]=2;",
			"1:r0=1; 1:r1=1; [y]=2;",
		}, executions: 4,
	},
	{
		name: "RR+RW+fetch.addrlxrlx-porlxrlx+posWrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 2, rlx), ld("0:r1", "y", rlx)},
			{ld("1:r0", "y", rlx), st("y", 1, rlx), st("x", 1, rlx)},
		}, Final: []string{"x"}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0; [x]=1;",
			"0:r0=0; 0:r1=1; 1:r0=0; [x]=1;",
			"0:r0=1; 0:r1=0; 1:r0=0; [x]=3;",
			"0:r0=1; 0:r1=1; 1:r0=0; [x]=3;",
		}, executions: 4,
	},
	{
		name: "RR+RW+fetch.addrlxrlx-porlxrlx+rmwrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 2, rlx), ld("0:r1", "y", rlx)},
			{swap("1:r0", "y", 1, rlx), st("x", 1, rlx)},
		}, Final: []string{"x"}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0; [x]=1;",
			"0:r0=0; 0:r1=1; 1:r0=0; [x]=1;",
			"0:r0=1; 0:r1=0; 1:r0=0; [x]=3;",
			"0:r0=1; 0:r1=1; 1:r0=0; [x]=3;",
		}, executions: 4,
	},
	{
		name: "RR+RW+fetch.addrlxrlx-porlxrlxs",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 2, rlx), ld("0:r1", "y", rlx)},
			{add("1:r0", "y", 1, rlx), st("x", 1, rlx)},
		}, Final: []string{"x"}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0; [x]=1;",
			"0:r0=0; 0:r1=1; 1:r0=0; [x]=1;",
			"0:r0=1; 0:r1=0; 1:r0=0; [x]=3;",
			"0:r0=1; 0:r1=1; 1:r0=0; [x]=3;",
		}, executions: 4,
	},
	{
		name: "RR+RW+porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), ld("0:r1", "y", rlx)},
			{add("1:r0", "y", 1, rlx), st("x", 1, rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=1; 0:r1=0; 1:r0=0;",
			"0:r0=1; 0:r1=1; 1:r0=0;",
		}, executions: 4,
	},
	{
		name: "RR+RW+porlxrlx+posWrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), ld("0:r1", "y", rlx)},
			{ld("1:r0", "y", rlx), st("y", 1, rlx), st("x", 1, rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=1; 0:r1=0; 1:r0=0;",
			"0:r0=1; 0:r1=1; 1:r0=0;",
		}, executions: 4,
	},
	{
		name: "RR+RW+porlxrlx+rmwrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), ld("0:r1", "y", rlx)},
			{swap("1:r0", "y", 1, rlx), st("x", 1, rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=1; 0:r1=0; 1:r0=0;",
			"0:r0=1; 0:r1=1; 1:r0=0;",
		}, executions: 4,
	},
	{
		name: "RR+WR+fetch.addrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 1, rlx), ld("0:r1", "y", rlx)},
			{st("y", 1, rlx), ld("1:r0", "x", rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=0; 1:r0=1;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=1;",
		}, executions: 4,
	},
	{
		name: "RR+WR+posWrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("x", 1, rlx), ld("0:r1", "y", rlx)},
			{st("y", 1, rlx), ld("1:r0", "x", rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=0; 1:r0=1;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=1;",
		}, executions: 4,
	},
	{
		name: "RR+WR+rmwrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{swap("0:r0", "x", 1, rlx), ld("0:r1", "y", rlx)},
			{st("y", 1, rlx), ld("1:r0", "x", rlx)},
		}},
		states: []string{
			"0:r0=0; 0:r1=0; 1:r0=0;",
			"0:r0=0; 0:r1=0; 1:r0=1;",
			"0:r0=0; 0:r1=1; 1:r0=0;",
			"0:r0=0; 0:r1=1; 1:r0=1;",
		}, executions: 4,
	},
	{
		name: "RW+WR+fetch.addrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{add("0:r0", "x", 1, rlx), st("y", 1, rlx)},
			{st("y", 2, rlx), ld("1:r0", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=0; [y]=2;",
			"0:r0=0; 1:r0=1; [y]=1;",
			"0:r0=0; 1:r0=1; [y]=2;",
		}, executions: 4,
	},
	{
		name: "RW+WR+posWrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{ld("0:r0", "x", rlx), st("x", 1, rlx), st("y", 1, rlx)},
			{st("y", 2, rlx), ld("1:r0", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=0; [y]=2;",
			"0:r0=0; 1:r0=1; [y]=1;",
			"0:r0=0; 1:r0=1; [y]=2;",
		}, executions: 4,
	},
	{
		name: "RW+WR+rmwrlxrlx-porlxrlx+porlxrlx",
		p: Program{Threads: [][]Op{
			{swap("0:r0", "x", 1, rlx), st("y", 1, rlx)},
			{st("y", 2, rlx), ld("1:r0", "x", rlx)},
		}, Final: []string{"y"}},
		states: []string{
			"0:r0=0; 1:r0=0; [y]=1;",
			"0:r0=0; 1:r0=0; [y]=2;",
			"0:r0=0; 1:r0=1; [y]=1;",
			"0:r0=0; 1:r0=1; [y]=2;",
		}, executions: 4,
	},
	{
		name: "S+porlxrlx+fetch.addrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 2, rlx), st("y", 1, rlx)},
			{add("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"1:r0=0; [x]=1; [y]=1;",
			"1:r0=0; [x]=2; [y]=1;",
			"1:r0=1; [x]=1; [y]=3;",
			"1:r0=1; [x]=2; [y]=3;",
		}, executions: 4,
	},
	{
		name: "S+porlxrlx+posWrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 2, rlx), st("y", 1, rlx)},
			{ld("1:r0", "y", rlx), st("y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"1:r0=0; [x]=1; [y]=1;",
			"1:r0=0; [x]=1; [y]=2;",
			"1:r0=0; [x]=2; [y]=1;",
			"1:r0=0; [x]=2; [y]=2;",
			"1:r0=1; [x]=1; [y]=2;",
			"1:r0=1; [x]=2; [y]=2;",
		}, executions: 6,
	},
	{
		name: "S+porlxrlx+rmwrlxrlx-porlxrlx",
		p: Program{Threads: [][]Op{
			{st("x", 2, rlx), st("y", 1, rlx)},
			{swap("1:r0", "y", 2, rlx), st("x", 1, rlx)},
		}, Final: []string{"x", "y"}},
		states: []string{
			"1:r0=0; [x]=1; [y]=1;",
			"1:r0=0; [x]=2; [y]=1;",
			"1:r0=1; [x]=1; [y]=2;",
			"1:r0=1; [x]=2; [y]=2;",
		}, executions: 4,
	},
}

// TestHerdStates checks the oracle's outcomes against herd7's state
// lists, and its execution counts against herd7's.
func TestHerdStates(t *testing.T) {
	for _, h := range herdTests {
		t.Run(h.name, func(t *testing.T) {
			source := h.source
			if source == "" {
				source = "gen/tests/C/" + h.name + ".litmus.expected"
			}
			want := map[string]bool{}
			for _, s := range h.states {
				want[herdState(t, s, h.drop)] = true
			}
			res := Allowed(h.p)
			got := map[string]bool{}
			for o := range res.Outcomes {
				got[sortedOutcome(o)] = true
			}
			for o := range got {
				if !want[o] {
					t.Errorf("outcome %q: the oracle allows it, herd7 does not (%s, %s)", o, herdCommit, source)
				}
			}
			for o := range want {
				if !got[o] {
					t.Errorf("state %q: herd7 allows it, the oracle does not (%s, %s)", o, herdCommit, source)
				}
			}
			if res.Executions != h.executions {
				t.Errorf("%d consistent executions, herd7 %d (%s, %s)", res.Executions, h.executions, herdCommit, source)
			}
		})
	}
}

// herdState turns one of herd7's state lines ("0:r0=0x1; [y]=0x2;") into
// the oracle's form with its parts sorted ("0:r0=1 y=2"), leaving out the
// keys in drop.
func herdState(t *testing.T, line string, drop []string) string {
	t.Helper()
	var parts []string
	for _, f := range strings.Split(line, ";") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("state %q: %q is not key=value", line, f)
		}
		k = strings.TrimSuffix(strings.TrimPrefix(k, "["), "]")
		if slices.Contains(drop, k) {
			continue
		}
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			t.Fatalf("state %q: %v", line, err)
		}
		parts = append(parts, fmt.Sprintf("%s=%d", k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func sortedOutcome(o string) string {
	parts := strings.Fields(o)
	slices.Sort(parts)
	return strings.Join(parts, " ")
}
