package weak_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/weak"
)

// The litmus suite: each test's outcomes, over every interleaving and
// every store choice, compared with the set the RC11 oracle
// (explore/internal/weak/rc11: RC11's axioms as herd7's rc11.cat states them, with
// C++20's release sequences) finds by enumerating the test's candidate
// executions. The model must produce exactly those: an outcome the
// oracle forbids is a model bug (unsound), one it allows and the model
// never produces a behaviour the explorer could not find (incomplete).
// Where a test gives the allowed set derived by hand (why says how in one
// line), the oracle must agree.

const (
	rlx = weak.Relaxed
	acq = weak.Acquire
	rel = weak.Release
	sc  = weak.SeqCst
	ar  = weak.AcqRel
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
		why:     "each RMW reads the initial value and its store goes before the other thread's, in mo against execution order (as 2+2W)",
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
		why:     "modification order is free per location: x=1 and y=1 last (mo against program order on both) is consistent",
	},
	{
		name:      "2+2W+sc",
		threads:   [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, sc), st("x", 2, sc)}},
		final:     []string{"x", "y"},
		allowed:   except(product("x", []int{1, 2}, "y", []int{1, 2}), "x=1 y=1"),
		forbidden: []string{"x=1 y=1"},
		why:       "psc contains po and mo: x=2 mo x=1 po y=2 mo y=1 po x=2 would be a cycle",
	},

	// A store placed in modification order before one executed earlier.
	{
		name:    "R",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rlx)}, {st("y", 2, rlx), ld("a", "x", rlx)}},
		final:   []string{"y"},
		allowed: product("a", b01, "y", []int{1, 2}),
		why:     "relaxed: y=2 may go before y=1 in mo and the load still read x's initial value",
	},
	{
		name:      "R+sc",
		threads:   [][]op{{st("x", 1, sc), st("y", 1, sc)}, {st("y", 2, sc), ld("a", "x", sc)}},
		final:     []string{"y"},
		allowed:   except(product("a", b01, "y", []int{1, 2}), "a=0 y=2"),
		forbidden: []string{"a=0 y=2"},
		why:       "psc: x=1 po y=1 mo y=2 po a rb x=1 is a cycle",
	},
	{
		name:    "WWC",
		threads: [][]op{{st("x", 2, rlx)}, {ld("a", "x", rlx), st("y", 1, rel)}, {ld("b", "y", acq), st("x", 1, rlx)}},
		final:   []string{"x"},
		why:     "with a=2 b=1, x=2 happens before x=1 (read by T2, released, acquired by T3), so x=1 is last; without synchronisation either order",
	},
	{
		name:      "RWC+sc",
		threads:   [][]op{{st("x", 1, sc)}, {ld("a", "x", sc), ld("b", "y", sc)}, {st("y", 1, sc), ld("c", "x", sc)}},
		allowed:   except(product("a", b01, "b", b01, "c", b01), "a=1 b=0 c=0"),
		forbidden: []string{"a=1 b=0 c=0"},
		why:       "psc: x=1 rf a po b rb y=1 po c rb x=1",
	},
	{
		name:    "RWC+acq+sc",
		threads: [][]op{{st("x", 1, sc)}, {ld("a", "x", acq), ld("b", "y", sc)}, {st("y", 1, sc), ld("c", "x", sc)}},
		why:     "as IRIW-acq-sc: the acquire read orders nothing against seq_cst events of other locations",
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
		threads:   [][]op{{wr("d"), st("f", 1, rlx)}, {ld("a", "f", rlx), rd("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1 race"},
		forbidden: []string{"a=1"},
		why:       "a relaxed flag orders nothing: the write of d does not happen before the read",
	},
	{
		name:      "Race+rel+acq",
		threads:   [][]op{{wr("d"), st("f", 1, rel)}, {ld("a", "f", acq), rd("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1"},
		forbidden: []string{"a=1 race"},
		why:       "the acquire of the released flag orders the write of d before the read",
	},
	{
		name:      "Race+fences",
		threads:   [][]op{{wr("d"), fence(rel), st("f", 1, rlx)}, {ld("a", "f", rlx), fence(acq), rd("d").when("a", 1)}},
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
	fmt.Fprintln(&table, "| test | RC11 allows (executions) | produced | allowed, not produced | runs |")
	fmt.Fprintln(&table, "|---|---|---|---|---|")
	runs := 0
	for _, lt := range litmusTests {
		t.Run(lt.name, func(t *testing.T) {
			checkDefinition(t, lt)
			allowed, execs := oracle(lt)
			if lt.allowed != nil && !maps.Equal(allowed, setOf(lt.allowed)) {
				t.Errorf("the oracle allows %s, derived by hand %s (%s)", braces(sorted(allowed)), braces(lt.allowed), lt.why)
			}
			for _, f := range lt.forbidden {
				if allowed[f] {
					t.Errorf("the oracle allows %q, which the test says RC11 forbids (%s)", f, lt.why)
				}
			}
			seen, n := observe(lt)
			unsound, missing := compare(seen, allowed)
			for _, o := range unsound {
				t.Errorf("produced %q, which RC11 forbids: a model bug (%s)", o, lt.why)
			}
			for _, o := range missing {
				t.Errorf("never produced %q, which RC11 allows (%s)", o, lt.why)
			}
			fmt.Fprintf(&table, "| %s | %s (%d) | %s | %s | %d |\n", lt.name, braces(sorted(allowed)), execs, braces(sorted(seen)), braces(missing), n)
			runs += n
		})
	}
	t.Logf("METRIC litmus_tests=%d litmus_model_runs=%d", len(litmusTests), runs)
	t.Logf("litmus outcomes (why each set: litmus_test.go)\n%s", table.String())
}

// checkDefinition catches a test written wrong: a forbidden outcome must
// be outside the hand-derived allowed set.
func checkDefinition(t *testing.T, lt litmus) {
	for _, f := range lt.forbidden {
		if slices.Contains(lt.allowed, f) {
			t.Fatalf("test definition: %q both allowed and forbidden", f)
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
