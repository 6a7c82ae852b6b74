package weak_test

import "github.com/wsched/wsched/explore/internal/weak"

// The shapes the hand-written suite (litmus_test.go) lacked, each written
// once per ordering so that every rule of the model meets a test that
// needs it: release sequences continued by RMWs of every ordering (a
// release-only RMW, a relaxed one after a release fence, a CAS), and a
// fence of every ordering in the middle thread of a three-thread chain
// (WRC, ISA2) and on either side of message passing, with atomics and
// with a plain cell. Only the outcome each test is about is stated; the
// oracle (RC11's axioms) gives the rest, and the model must produce
// exactly its set.

func init() { litmusTests = append(litmusTests, shapeTests()...) }

// fenceOrders are the orderings a fence takes; "" is no fence at all.
var fenceOrders = []struct {
	name string
	ord  weak.Ordering
	none bool
}{{"nofence", 0, true}, {"acq", acq, false}, {"rel", rel, false}, {"acqrel", ar, false}, {"sc", sc, false}}

// fenceOps is the fence of f as a list of operations (none for "nofence").
func fenceOps(f struct {
	name string
	ord  weak.Ordering
	none bool
}) []op {
	if f.none {
		return nil
	}
	return []op{fence(f.ord)}
}

func cat(parts ...[]op) []op {
	var out []op
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func shapeTests() []litmus {
	var out []litmus
	// Release sequences: T1 publishes x through a release store of y; T2's
	// RMW on y continues the sequence; T3 acquires the RMW's value. With
	// r=1 (the RMW read T1's store) and a=2 (T3 read the RMW's), T3
	// synchronises with T1 whatever the RMW's ordering, so b=0 (and, with
	// a plain cell, a race) is forbidden.
	rmws := []struct {
		name string
		ops  []op
	}{
		{"rlxRMW", []op{add("r", "y", 1, rlx)}},
		{"relRMW", []op{add("r", "y", 1, rel)}},
		{"acqRMW", []op{add("r", "y", 1, acq)}},
		{"acqrelRMW", []op{add("r", "y", 1, ar)}},
		{"scRMW", []op{add("r", "y", 1, sc)}},
		{"relfence+rlxRMW", []op{fence(rel), add("r", "y", 1, rlx)}},
		{"relCAS", []op{cas("r", "y", 1, 2, rel, rlx)}},
		{"relfence+rlxCAS", []op{fence(rel), cas("r", "y", 1, 2, rlx, rlx)}},
	}
	for _, m := range rmws {
		out = append(out, litmus{
			name:      "RS+" + m.name,
			threads:   [][]op{{st("x", 1, rlx), st("y", 1, rel)}, m.ops, {ld("a", "y", acq), ld("b", "x", rlx)}},
			forbidden: []string{"r=1 a=2 b=0"},
			why:       "the RMW reads T1's release store and continues its release sequence, so an acquire of the RMW's 2 synchronises with T1 and reads x=1",
		}, litmus{
			name:      "RS+" + m.name + "+cell",
			threads:   [][]op{{wr("d"), st("y", 1, rel)}, m.ops, {ld("a", "y", acq), rd("d").when("a", 2)}},
			forbidden: []string{"r=1 a=2 race"},
			why:       "as RS+" + m.name + ": the write of d happens before the read that follows the acquire of the RMW's 2",
		})
	}
	// A fence of each ordering in the middle thread. The chain holds only
	// when the fence both acquires (what T2 read relaxed) and releases
	// (to T2's relaxed store): acq_rel and seq_cst.
	for _, f := range fenceOrders {
		chain := f.ord == ar || f.ord == sc
		wrc := litmus{
			name:    "WRC+" + f.name,
			threads: [][]op{{st("x", 1, rel)}, cat([]op{ld("a", "x", rlx)}, fenceOps(f), []op{st("y", 1, rlx)}), {ld("b", "y", acq), ld("c", "x", rlx)}},
			why:     "T2 reads T1's release store relaxed; its fence (if acq_rel or seq_cst) acquires it and releases to T2's relaxed store of y, which T3 acquires: T1's x=1 happens before T3's read of x",
		}
		isa2 := litmus{
			name:    "ISA2+" + f.name,
			threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, cat([]op{ld("a", "y", rlx)}, fenceOps(f), []op{st("z", 1, rlx)}), {ld("b", "z", acq), ld("c", "x", rlx)}},
			why:     "as WRC: T1's release of y is acquired by T2's fence and released again to z, so x=1 happens before T3's read of x",
		}
		cell := litmus{
			name:    "WRC+" + f.name + "+cell",
			threads: [][]op{{wr("d"), st("x", 1, rel)}, cat([]op{ld("a", "x", rlx)}, fenceOps(f), []op{st("y", 1, rlx).when("a", 1)}), {ld("b", "y", acq), rd("d").when("b", 1)}},
			why:     "as WRC: the write of d happens before T3's read through T2's fence, only if it both acquires and releases",
		}
		if chain {
			wrc.forbidden = []string{"a=1 b=1 c=0"}
			isa2.forbidden = []string{"a=1 b=1 c=0"}
			cell.forbidden = []string{"a=1 b=1 race"}
		}
		out = append(out, wrc, isa2, cell)
	}
	// Message passing with a fence of each ordering on the writer's side
	// (before a relaxed store of the flag, read by an acquire load) and on
	// the reader's (after a relaxed load of a released flag).
	for _, f := range fenceOrders {
		w := litmus{
			name:    "MP+" + f.name + "+acq",
			threads: [][]op{cat([]op{st("x", 1, rlx)}, fenceOps(f), []op{st("y", 1, rlx)}), {ld("a", "y", acq), ld("b", "x", rlx)}},
			why:     "a fence that releases (release, acq_rel, seq_cst) before the relaxed store of y makes it a release for the acquire load",
		}
		r := litmus{
			name:    "MP+rel+" + f.name,
			threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, cat([]op{ld("a", "y", rlx)}, fenceOps(f), []op{ld("b", "x", rlx)})},
			why:     "a fence that acquires (acquire, acq_rel, seq_cst) after the relaxed load of y synchronises with the release store it read",
		}
		if f.ord == rel || f.ord == ar || f.ord == sc {
			w.forbidden = []string{"a=1 b=0"}
		}
		if f.ord == acq || f.ord == ar || f.ord == sc {
			r.forbidden = []string{"a=1 b=0"}
		}
		out = append(out, w, r)
	}
	// A read of a plain cell, then a write by another thread: the race
	// is found at the write (the read came first), unless a release and
	// an acquire order the two.
	out = append(out, litmus{
		name:      "Race+rw",
		threads:   [][]op{{rd("d"), st("f", 1, rlx)}, {ld("a", "f", rlx), wr("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1 race"},
		forbidden: []string{"a=1"},
		why:       "a relaxed flag orders nothing: the read of d does not happen before the write",
	}, litmus{
		name:      "Race+rw+rel+acq",
		threads:   [][]op{{rd("d"), st("f", 1, rel)}, {ld("a", "f", acq), wr("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1"},
		forbidden: []string{"a=1 race"},
		why:       "the acquire of the released flag orders the read of d before the write",
	})
	// A read of a plain cell, then a write by another thread: the race
	// is found at the write (the read came first), unless a release and
	// an acquire order the two.
	out = append(out, litmus{
		name:      "Race+rw",
		threads:   [][]op{{rd("d"), st("f", 1, rlx)}, {ld("a", "f", rlx), wr("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1 race"},
		forbidden: []string{"a=1"},
		why:       "a relaxed flag orders nothing: the read of d does not happen before the write",
	}, litmus{
		name:      "Race+rw+rel+acq",
		threads:   [][]op{{rd("d"), st("f", 1, rel)}, {ld("a", "f", acq), wr("d").when("a", 1)}},
		allowed:   []string{"a=0", "a=1"},
		forbidden: []string{"a=1 race"},
		why:       "the acquire of the released flag orders the read of d before the write",
	})
	return out
}
