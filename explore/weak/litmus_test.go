package weak_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/weak"
)

// The litmus suite: each test's outcomes, over every interleaving and
// every store choice, compared with the set RC11 allows (herd7's rc11.cat,
// GenMC's default model), with C++20's release sequences. Each expected
// set is derived by hand; why says how in one line. Outcomes the model is
// documented not to produce (doc.go, "What is not") are listed in absent
// and asserted absent, so that a change of the model flips them visibly.
// A forbidden outcome produced is a model bug.

const (
	rlx = weak.Relaxed
	acq = weak.Acquire
	rel = weak.Release
	sc  = weak.SeqCst
)

var (
	b01  = []int{0, 1}
	b012 = []int{0, 1, 2}
)

var litmusTests = []litmus{
	// Message passing.
	{
		name:    "MP+rlx",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rlx)}, {ld("a", "y", rlx), ld("b", "x", rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "relaxed accesses do not synchronise: b may read x's initial value after a saw y=1",
	},
	{
		name:    "MP+rel+rlx",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {ld("a", "y", rlx), ld("b", "x", rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "a release store read by a relaxed load (and no acquire fence) orders nothing",
	},
	{
		name:    "MP+rlx+acq",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rlx)}, {ld("a", "y", acq), ld("b", "x", rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "an acquire load of a relaxed store (with no release fence before it) orders nothing",
	},
	{
		name:      "MP+rel+acq",
		threads:   [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {ld("a", "y", acq), ld("b", "x", rlx)}},
		allowed:   except(product("a", b01, "b", b01), "a=1 b=0"),
		forbidden: []string{"a=1 b=0"},
		why:       "the acquire load reads the release store: x=1 happens before the load of x, which cannot read older (write-read coherence)",
	},
	{
		name:      "MP+fences",
		threads:   [][]op{{st("x", 1, rlx), fence(rel), st("y", 1, rlx)}, {ld("a", "y", rlx), fence(acq), ld("b", "x", rlx)}},
		allowed:   except(product("a", b01, "b", b01), "a=1 b=0"),
		forbidden: []string{"a=1 b=0"},
		why:       "release fence, relaxed store read by a relaxed load, acquire fence: the fences synchronise, as in MP+rel+acq",
	},
	{
		name:    "MP+CASfail",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rlx)}, {ld("a", "y", rlx), cas("b", "x", 5, 6, rlx, rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "a CAS that fails is a load with its failure ordering: relaxed, it may read x's initial value after a saw y=1",
	},
	{
		name:      "MP+rel+acq+CAS",
		threads:   [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {ld("a", "y", acq), cas("b", "x", 0, 2, rlx, rlx)}},
		final:     []string{"x"},
		allowed:   []string{"a=0 b=0 x=1", "a=0 b=1 x=1", "a=1 b=1 x=1"},
		forbidden: []string{"a=1 b=0 x=1"},
		why:       "after the acquire x=1 happens before the CAS, which cannot read the initial 0: it fails reading 1; a CAS that succeeds reads 0 before x=1 exists, and x=1 goes after its 2",
	},

	// Store buffering.
	{
		name:    "SB+rlx",
		threads: [][]op{{st("x", 1, rlx), ld("a", "y", rlx)}, {st("y", 1, rlx), ld("b", "x", rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "no synchronisation and no seq_cst: each load may read the initial value",
	},
	{
		name:    "SB+rel+acq",
		threads: [][]op{{st("x", 1, rel), ld("a", "y", acq)}, {st("y", 1, rel), ld("b", "x", acq)}},
		allowed: product("a", b01, "b", b01),
		why:     "in a=b=0 no load reads the other's store, so release/acquire creates no edge",
	},
	{
		name:      "SB+sc",
		threads:   [][]op{{st("x", 1, sc), ld("a", "y", sc)}, {st("y", 1, sc), ld("b", "x", sc)}},
		allowed:   except(product("a", b01, "b", b01), "a=0 b=0"),
		forbidden: []string{"a=0 b=0"},
		why:       "psc: x=1 po a rb y=1 po b rb x=1 is a cycle (loom, treating seq_cst as acq_rel, produces a=b=0: tokio-rs/loom#180)",
	},
	{
		name:      "SB+scfences",
		threads:   [][]op{{st("x", 1, rlx), fence(sc), ld("a", "y", rlx)}, {st("y", 1, rlx), fence(sc), ld("b", "x", rlx)}},
		allowed:   except(product("a", b01, "b", b01), "a=0 b=0"),
		forbidden: []string{"a=0 b=0"},
		why:       "psc_F: F1 po a rb y=1 po F2 and F2 po b rb x=1 po F1, a cycle of the two fences",
	},
	{
		name:    "SB+scfence+rlx",
		threads: [][]op{{st("x", 1, rlx), fence(sc), ld("a", "y", rlx)}, {st("y", 1, rlx), ld("b", "x", rlx)}},
		allowed: product("a", b01, "b", b01),
		why:     "a seq_cst fence in one thread only has no seq_cst event of the other to be ordered against",
	},
	{
		name:      "SB+scfence+sc",
		threads:   [][]op{{st("x", 1, rlx), fence(sc), ld("a", "y", rlx)}, {st("y", 1, sc), ld("b", "x", sc)}},
		allowed:   except(product("a", b01, "b", b01), "a=0 b=0"),
		forbidden: []string{"a=0 b=0"},
		why:       "psc_base: F1 (po;rb) y=1, y=1 po b, b (rb;po) F1 (x=1 hb F1): a cycle",
	},
	{
		name:    "SB+rlx+scloads",
		threads: [][]op{{st("x", 1, rlx), ld("a", "y", sc)}, {st("y", 1, rlx), ld("b", "x", sc)}},
		allowed: product("a", b01, "b", b01),
		why:     "the from-reads edges end at relaxed stores, which psc does not order",
	},
	{
		name:    "SB+rmws",
		threads: [][]op{{st("x", 1, rlx), add("a", "y", 0, rlx)}, {st("y", 1, rlx), add("b", "x", 0, rlx)}},
		allowed: product("a", b01, "b", b01),
		absent:  []string{"a=0 b=0"},
		why:     "each RMW reads the initial value and its store goes before the other thread's, in mo against execution order (as 2+2W); RC11 allows it, the model appends stores in execution order",
	},
	{
		name:      "RWC+scfences",
		threads:   [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), fence(sc), ld("b", "y", rlx)}, {st("y", 1, rlx), fence(sc), ld("c", "x", rlx)}},
		allowed:   except(product("a", b01, "b", b01, "c", b01), "a=1 b=0 c=0"),
		forbidden: []string{"a=1 b=0 c=0"},
		why:       "psc_F both ways: F2 po b rb y=1 po F3, and F3 po c rb x=1 rf a po F2 (C++20's strengthened fences; Miri's C++11 fences allow it)",
	},

	// Independent reads of independent writes.
	{
		name:      "IRIW+sc",
		threads:   [][]op{{st("x", 1, sc)}, {st("y", 1, sc)}, {ld("a", "x", sc), ld("b", "y", sc)}, {ld("c", "y", sc), ld("d", "x", sc)}},
		allowed:   except(product("a", b01, "b", b01, "c", b01, "d", b01), "a=1 b=0 c=1 d=0"),
		forbidden: []string{"a=1 b=0 c=1 d=0"},
		why:       "psc orders x=1 and y=1: the reader that sees the later one first would read the earlier one as not yet done, a cycle",
	},
	{
		name:    "IRIW+rel+acq",
		threads: [][]op{{st("x", 1, rel)}, {st("y", 1, rel)}, {ld("a", "x", acq), ld("b", "y", acq)}, {ld("c", "y", acq), ld("d", "x", acq)}},
		allowed: product("a", b01, "b", b01, "c", b01, "d", b01),
		why:     "release/acquire is not multi-copy atomic: the readers may see the two independent stores in opposite orders",
	},
	{
		name:      "IRIW+acq+scfences",
		threads:   [][]op{{st("x", 1, rel)}, {st("y", 1, rel)}, {ld("a", "x", acq), fence(sc), ld("b", "y", acq)}, {ld("c", "y", acq), fence(sc), ld("d", "x", acq)}},
		allowed:   except(product("a", b01, "b", b01, "c", b01, "d", b01), "a=1 b=0 c=1 d=0"),
		forbidden: []string{"a=1 b=0 c=1 d=0"},
		why:       "psc_F: F3 po b rb y=1 rf c po F4 and F4 po d rb x=1 rf a po F3",
	},

	// Write-to-read causality.
	{
		name:    "WRC+rlx",
		threads: [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), st("y", 1, rlx)}, {ld("b", "y", rlx), ld("c", "x", rlx)}},
		allowed: product("a", b01, "b", b01, "c", b01),
		why:     "relaxed: nothing orders T1's store before T3's read of x",
	},
	{
		name:      "WRC+rel+acq",
		threads:   [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), st("y", 1, rel)}, {ld("b", "y", acq), ld("c", "x", rlx)}},
		allowed:   except(product("a", b01, "b", b01, "c", b01), "a=1 b=1 c=0"),
		forbidden: []string{"a=1 b=1 c=0"},
		why:       "T2's read of x=1 is po-before its release, so it happens before T3's read of x, which cannot read older (read-read coherence)",
	},

	// Release sequences.
	{
		name:    "RS+rmw",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {add("r", "y", 1, rlx)}, {ld("a", "y", acq), ld("b", "x", rlx)}},
		allowed: []string{
			"r=0 a=0 b=0", "r=0 a=0 b=1", "r=0 a=1 b=0", "r=0 a=1 b=1",
			"r=1 a=0 b=0", "r=1 a=0 b=1", "r=1 a=1 b=1", "r=1 a=2 b=1",
		},
		forbidden: []string{"r=1 a=1 b=0", "r=1 a=2 b=0"},
		why:       "the relaxed RMW reads y=1 and continues its release sequence: an acquire of its 2 synchronises with T1 (r=0 a=1 b=0 reads the RMW's own 1, which heads nothing)",
	},
	{
		name:      "RS+store",
		threads:   [][]op{{st("x", 1, rlx), st("y", 1, rel), st("y", 2, rlx)}, {ld("a", "y", acq), ld("b", "x", rlx)}},
		allowed:   []string{"a=0 b=0", "a=0 b=1", "a=1 b=1", "a=2 b=0", "a=2 b=1"},
		forbidden: []string{"a=1 b=0"},
		why:       "C++20 (P0982): a later plain store of the same thread no longer continues the release sequence, so reading y=2 does not synchronise (rc11.cat, with C++11's release sequences, forbids a=2 b=0)",
	},

	// Two stores to each of two locations.
	{
		name:    "2+2W",
		threads: [][]op{{st("x", 1, rlx), st("y", 2, rlx)}, {st("y", 1, rlx), st("x", 2, rlx)}},
		final:   []string{"x", "y"},
		allowed: product("x", []int{1, 2}, "y", []int{1, 2}),
		absent:  []string{"x=1 y=1"},
		why:     "modification order is free per location; x=1 and y=1 last (mo against program order on both) is consistent in RC11, but the model appends stores in execution order",
	},
	{
		name:      "2+2W+sc",
		threads:   [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, sc), st("x", 2, sc)}},
		final:     []string{"x", "y"},
		allowed:   except(product("x", []int{1, 2}, "y", []int{1, 2}), "x=1 y=1"),
		forbidden: []string{"x=1 y=1"},
		why:       "psc contains po and mo: x=2 mo x=1 po y=2 mo y=1 po x=2 would be a cycle",
	},

	// Load buffering.
	{
		name:      "LB",
		threads:   [][]op{{ld("a", "x", rlx), st("y", 1, rlx)}, {ld("b", "y", rlx), st("x", 1, rlx)}},
		allowed:   except(product("a", b01, "b", b01), "a=1 b=1"),
		forbidden: []string{"a=1 b=1"},
		beyond:    []string{"a=1 b=1"},
		why:       "RC11's no-thin-air axiom (po ∪ rf acyclic) forbids a=b=1; C++20 allows it for relaxed accesses, and the model, whose reads read executed stores only, never produces it",
	},

	// Coherence.
	{
		name:      "CoRR",
		threads:   [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx)}},
		allowed:   []string{"a=0 b=0", "a=0 b=1", "a=1 b=1"},
		forbidden: []string{"a=1 b=0"},
		why:       "read-read coherence: a later read of the same thread cannot read an older store",
	},
	{
		name:    "CoRR2",
		threads: [][]op{{st("x", 1, rlx)}, {st("x", 2, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx)}, {ld("c", "x", rlx), ld("d", "x", rlx)}},
		allowed: filter(product("a", b012, "b", b012, "c", b012, "d", b012), func(r map[string]int) bool {
			// Some modification order 0,1,2 or 0,2,1 in which both
			// readers' pairs go forwards.
			fwd := func(rank map[int]int) bool { return rank[r["a"]] <= rank[r["b"]] && rank[r["c"]] <= rank[r["d"]] }
			return fwd(map[int]int{0: 0, 1: 1, 2: 2}) || fwd(map[int]int{0: 0, 2: 1, 1: 2})
		}),
		forbidden: []string{"a=1 b=2 c=2 d=1", "a=2 b=1 c=1 d=2", "a=1 b=0 c=0 d=0", "a=0 b=0 c=2 d=0"},
		why:       "modification order is one total order that every thread's reads follow: two readers cannot see 1 and 2 in opposite orders",
	},
	{
		name:      "CoWR",
		threads:   [][]op{{st("x", 1, rlx), ld("a", "x", rlx)}, {st("x", 2, rlx)}},
		final:     []string{"x"},
		allowed:   []string{"a=1 x=1", "a=1 x=2", "a=2 x=2"},
		forbidden: []string{"a=2 x=1", "a=0 x=1", "a=0 x=2"},
		why:       "write-read coherence: a load reads its thread's earlier store or one after it in mo",
	},
	{
		name:      "CoRW",
		threads:   [][]op{{ld("a", "x", rlx), st("x", 1, rlx)}, {st("x", 2, rlx)}},
		final:     []string{"x"},
		allowed:   []string{"a=0 x=1", "a=0 x=2", "a=2 x=1"},
		forbidden: []string{"a=2 x=2"},
		why:       "read-write coherence: a store after a load goes after, in mo, the store the load read",
	},
	{
		name:    "CoWW",
		threads: [][]op{{st("x", 1, rlx), st("x", 2, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx)}},
		final:   []string{"x"},
		allowed: []string{
			"a=0 b=0 x=2", "a=0 b=1 x=2", "a=0 b=2 x=2",
			"a=1 b=1 x=2", "a=1 b=2 x=2", "a=2 b=2 x=2",
		},
		forbidden: []string{"a=1 b=0 x=2", "a=2 b=1 x=2", "a=2 b=0 x=2", "a=0 b=0 x=1"},
		why:       "write-write coherence: one thread's stores are in mo in program order, and reads see them in that order",
	},

	// Atomicity of read-modify-writes.
	{
		name:      "RMW+add",
		threads:   [][]op{{add("a", "x", 1, rlx)}, {add("b", "x", 1, rlx)}},
		final:     []string{"x"},
		allowed:   []string{"a=0 b=1 x=2", "a=1 b=0 x=2"},
		forbidden: []string{"a=0 b=0 x=1"},
		why:       "an RMW reads the store just before its own in mo: two increments never both read 0",
	},
	{
		name:      "RMW+cas",
		threads:   [][]op{{cas("a", "x", 0, 1, rlx, rlx)}, {cas("b", "x", 0, 2, rlx, rlx)}},
		final:     []string{"x"},
		allowed:   []string{"a=0 b=1 x=1", "a=2 b=0 x=2"},
		forbidden: []string{"a=0 b=0 x=1", "a=0 b=0 x=2"},
		why:       "exactly one CAS from 0 succeeds; the other reads its store (reading the stale 0 it would have to succeed, which an RMW on a stale store cannot)",
	},

	// Data races on a plain cell d, flag f.
	{
		name:      "Race+rlx",
		threads:   [][]op{{wr("d"), st("f", 1, rlx)}, {ld("a", "f", rlx), rd("d").When("a", 1)}},
		allowed:   []string{"a=0", "a=1 race"},
		forbidden: []string{"a=1"},
		why:       "a relaxed flag orders nothing: the write of d does not happen before the read",
	},
	{
		name:      "Race+rel+acq",
		threads:   [][]op{{wr("d"), st("f", 1, rel)}, {ld("a", "f", acq), rd("d").When("a", 1)}},
		allowed:   []string{"a=0", "a=1"},
		forbidden: []string{"a=1 race"},
		why:       "the acquire of the released flag orders the write of d before the read",
	},
	{
		name:      "Race+fences",
		threads:   [][]op{{wr("d"), fence(rel), st("f", 1, rlx)}, {ld("a", "f", rlx), fence(acq), rd("d").When("a", 1)}},
		allowed:   []string{"a=0", "a=1"},
		forbidden: []string{"a=1 race"},
		why:       "fence-fence synchronisation orders the write of d before the read",
	},
	{
		name:      "Race+unguarded",
		threads:   [][]op{{wr("d"), st("f", 1, rel)}, {ld("a", "f", acq), rd("d")}},
		allowed:   []string{"a=0 race", "a=1"},
		forbidden: []string{"a=0"},
		why:       "a read of d without having seen the flag is unordered with the write, whatever the interleaving",
	},
	{
		name:      "Race+ww",
		threads:   [][]op{{wr("d")}, {wr("d")}},
		allowed:   []string{"race"},
		forbidden: []string{""},
		why:       "two writes by different threads with no synchronisation",
	},
	{
		name:      "Race+scfences",
		threads:   [][]op{{wr("d"), fence(sc)}, {fence(sc), rd("d")}},
		allowed:   []string{"race"},
		forbidden: []string{""},
		why:       "seq_cst fences order reads but do not synchronise: with no store read, nothing orders the write before the read",
	},
}

func TestLitmus(t *testing.T) {
	var table strings.Builder
	fmt.Fprintln(&table, "| test | RC11 allows | observed | forbidden (asserted absent) | allowed, not produced | executions |")
	fmt.Fprintln(&table, "|---|---|---|---|---|---|")
	for _, lt := range litmusTests {
		t.Run(lt.name, func(t *testing.T) {
			checkDefinition(t, lt)
			seen, n := observe(lt)
			for _, o := range sorted(seen) {
				switch {
				case !slices.Contains(lt.allowed, o):
					t.Errorf("produced %q, which RC11 forbids: a model bug (%s)", o, lt.why)
				case slices.Contains(lt.absent, o):
					t.Errorf("produced %q, which the model is documented not to produce (doc.go): update doc.go and this test", o)
				}
			}
			for _, o := range lt.allowed {
				if !seen[o] && !slices.Contains(lt.absent, o) {
					t.Errorf("never produced %q, which RC11 allows (%s)", o, lt.why)
				}
			}
			notProduced := append(slices.Clone(lt.absent), lt.beyond...)
			fmt.Fprintf(&table, "| %s | %s | %s | %s | %s | %d |\n", lt.name, braces(lt.allowed), braces(sorted(seen)), braces(lt.forbidden), braces(notProduced), n)
		})
	}
	t.Logf("litmus outcomes (why each set: litmus_test.go)\n%s", table.String())
}

// checkDefinition catches a test written wrong: a forbidden or absent
// outcome must be outside, resp. inside, the allowed set.
func checkDefinition(t *testing.T, lt litmus) {
	for _, f := range lt.forbidden {
		if slices.Contains(lt.allowed, f) {
			t.Fatalf("test definition: %q both allowed and forbidden", f)
		}
	}
	for _, a := range lt.absent {
		if !slices.Contains(lt.allowed, a) {
			t.Fatalf("test definition: absent %q is not in the allowed set", a)
		}
	}
}

func braces(set []string) string {
	if len(set) == 0 {
		return "{}"
	}
	s := slices.Clone(set)
	slices.Sort(s)
	for i, x := range s {
		if x == "" {
			s[i] = "(none)"
		}
	}
	return "{" + strings.Join(s, "; ") + "}"
}
