package weak_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/wsched/wsched/explore/internal/weak"
)

// Generated three-thread chains, the shapes TestRandomLitmus's uniform
// draw almost never makes: a publisher T1, a middle thread T2 that reads
// what T1 published and (maybe through a fence) passes it on, and a
// reader T3 that reads the last flag and then the data. The middle
// thread is where release sequences continue through RMWs and where a
// fence's two halves both matter. A shape is the chain's kind, the
// middle thread's fence and whether the data is an atomic or a plain
// cell; everything else (each operation's ordering, the RMW or CAS or
// load in the middle) is drawn.
//
//	RS    T1: data; y=1        T2: RMW or CAS on y        T3: y; data
//	WRC   T1: x=1 (data)       T2: x; fence; y=1          T3: y; x
//	ISA2  T1: data; y=1        T2: y; fence; z=1          T3: z; data
//	SB    T1: x=1; fence; y    T2: y=1; fence; x          (two threads:
//	      the seq_cst order's shape; with a cell, T1 writes d first and
//	      T2 reads it if it saw x=1)
var chainKinds = []string{"RS", "WRC", "ISA2", "SB"}

type chainShape struct {
	kind  string
	fence int // index in fenceOrders
	cell  bool
}

func (s chainShape) String() string {
	data := "atomic"
	if s.cell {
		data = "cell"
	}
	return s.kind + "+" + fenceOrders[s.fence].name + "+" + data
}

// genChain draws a chain of the shape given; pick draws from a list.
// canonical (drawn, for a chain with a fence) makes the fence the chain's
// only link: T1's store release or seq_cst, T2's accesses relaxed, T3's
// load acquire or seq_cst. Without it, a uniform draw of every ordering
// made that combination about once in fifty programs, and a model whose
// fence took its release half before its acquire half passed 200 of them.
func genChain(s chainShape, pick func(label string, os ...weak.Ordering) weak.Ordering, rmwKind func() int, canonical bool) litmus {
	f := fenceOrders[s.fence]
	if s.kind == "SB" {
		return genSB(s, pick, canonical)
	}
	if canonical && !f.none {
		inner := pick
		pick = func(label string, os ...weak.Ordering) weak.Ordering {
			switch label {
			case "T1 store":
				return inner(label, rel, sc)
			case "T3 load":
				return inner(label, acq, sc)
			case "T2 load", "T2 store", "T2 rmw", "T2 cas", "T2 cas failure":
				return rlx
			}
			return inner(label, os...)
		}
	}
	lt := litmus{name: s.String()}
	// The data: an atomic x written relaxed and read relaxed by T3, or a
	// plain cell d that T3 reads only if it saw the last flag.
	var t1 []op
	var data func(reg string, v int) op
	if s.kind == "WRC" {
		// The flag is the data: T3 reads x again.
		t1 = []op{st("x", 1, pick("T1 store", rlx, rel, sc))}
		data = func(string, int) op { return ld("c", "x", rlx) }
		if s.cell {
			t1 = []op{wr("d"), st("x", 1, pick("T1 store", rlx, rel, sc))}
			data = func(reg string, v int) op { return rd("d").when(reg, v) }
		}
	} else {
		t1 = []op{st("x", 1, rlx), st("y", 1, pick("T1 store", rlx, rel, sc))}
		data = func(string, int) op { return ld("c", "x", rlx) }
		if s.cell {
			t1 = []op{wr("d"), st("y", 1, pick("T1 store", rlx, rel, sc))}
			data = func(reg string, v int) op { return rd("d").when(reg, v) }
		}
	}
	var t2, t3 []op
	switch s.kind {
	case "RS":
		var mid op
		switch rmwKind() {
		case 0:
			mid = add("a", "y", 1, pick("T2 rmw", rlx, acq, rel, ar, sc))
		default:
			mid = cas("a", "y", 1, 2, pick("T2 cas", rlx, acq, rel, ar, sc), pick("T2 cas failure", rlx, acq, sc))
		}
		t2 = cat(fenceOps(f), []op{mid})
		t3 = []op{ld("b", "y", pick("T3 load", rlx, acq, sc)), data("b", 2)}
	case "WRC":
		t2 = cat([]op{ld("a", "x", pick("T2 load", rlx, acq, sc))}, fenceOps(f), []op{st("y", 1, pick("T2 store", rlx, rel, sc))})
		t3 = []op{ld("b", "y", pick("T3 load", rlx, acq, sc)), data("b", 1)}
	case "ISA2":
		t2 = cat([]op{ld("a", "y", pick("T2 load", rlx, acq, sc))}, fenceOps(f), []op{st("z", 1, pick("T2 store", rlx, rel, sc))})
		t3 = []op{ld("b", "z", pick("T3 load", rlx, acq, sc)), data("b", 1)}
	}
	lt.threads = [][]op{t1, t2, t3}
	return lt
}

// genSB is genChain for SB. canonical: with a fence, every access
// relaxed (the fences are the only order); without, every access
// seq_cst.
func genSB(s chainShape, pick func(label string, os ...weak.Ordering) weak.Ordering, canonical bool) litmus {
	f := fenceOrders[s.fence]
	st1, ld1 := pick("T1 store", rlx, rel, sc), pick("T1 load", rlx, acq, sc)
	st2, ld2 := pick("T2 store", rlx, rel, sc), pick("T2 load", rlx, acq, sc)
	if canonical {
		o := rlx
		if f.none {
			o = sc
		}
		st1, ld1, st2, ld2 = o, o, o, o
	}
	t1 := cat([]op{st("x", 1, st1)}, fenceOps(f), []op{ld("a", "y", ld1)})
	t2 := cat([]op{st("y", 1, st2)}, fenceOps(f), []op{ld("b", "x", ld2)})
	if s.cell {
		t1 = append([]op{wr("d")}, t1...)
		t2 = append(t2, rd("d").when("b", 1))
	}
	return litmus{name: s.String(), threads: [][]op{t1, t2}}
}

// checkChain compares the model with the oracle on lt.
func checkChain(lt litmus) error {
	allowed, _ := oracle(lt)
	seen, _ := observe(lt)
	unsound, missing := compare(seen, allowed)
	if len(unsound) > 0 || len(missing) > 0 {
		return fmt.Errorf("%s: the model produces %s, which RC11 forbids, and misses %s, which it allows", lt.name, braces(unsound), braces(missing))
	}
	return nil
}

// TestRandomChains draws chains of every shape, each kind in its own
// property: the fence and the data are drawn uniformly (ten shapes a
// kind, each drawn with probability 1/10 per program, so 100 programs
// miss one with odds of about 1 in 30,000, if rapid's draws were
// uniform), the orderings uniformly or,
// half the time, canonically (genChain). A shape no program drew runs
// once, canonical, so every shape is checked whatever the draw; the log
// gives how many programs each shape had.
func TestRandomChains(t *testing.T) {
	drawn := map[string]int{}
	var shapes []chainShape
	for _, k := range chainKinds {
		for fi := range fenceOrders {
			for _, c := range []bool{false, true} {
				shapes = append(shapes, chainShape{k, fi, c})
			}
		}
	}
	for _, k := range chainKinds {
		t.Run(k, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				s := chainShape{kind: k, fence: rapid.IntRange(0, len(fenceOrders)-1).Draw(rt, "fence"), cell: rapid.Bool().Draw(rt, "cell")}
				pick := func(label string, os ...weak.Ordering) weak.Ordering { return rapid.SampledFrom(os).Draw(rt, label) }
				lt := genChain(s, pick, func() int { return rapid.IntRange(0, 1).Draw(rt, "rmw or cas") }, rapid.Bool().Draw(rt, "canonical"))
				drawn[s.String()]++
				if err := checkChain(lt); err != nil {
					rt.Fatal(err)
				}
			})
		})
	}
	var table strings.Builder
	fixed := 0
	for _, s := range shapes {
		n := drawn[s.String()]
		fmt.Fprintf(&table, "%-22s %d\n", s, n)
		if n > 0 {
			continue
		}
		fixed++
		lt := genChain(s, func(_ string, os ...weak.Ordering) weak.Ordering { return os[0] }, func() int { return 0 }, true)
		if err := checkChain(lt); err != nil {
			t.Error(err)
		}
	}
	covered := len(shapes) - fixed
	t.Logf("chain shapes drawn (programs per shape):\n%s", table.String())
	t.Logf("METRIC chain_shapes=%d chain_shapes_drawn=%d chain_programs=%d", len(shapes), covered, sum(drawn))
	if !slices.ContainsFunc(shapes, func(s chainShape) bool { return drawn[s.String()] > 0 }) {
		t.Errorf("no shape drawn at all: the generator is broken")
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
