package litmus

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wsched/wsched/explore/internal/weak"
	"github.com/wsched/wsched/internal/rapidcases"
	"pgregory.net/rapid"
)

// With a bound on stale choices, an untraced Model stops keeping what
// only the stale choices read (the seq_cst order, the views' frontiers
// and pins) at the last choice the bound allows; a traced one keeps it
// (weak.Config.Traced). Each program runs every execution both ways, at
// bounds of 1 and 2 stale choices, and must see the same outcomes in the
// same order: a lean Model that something still asked would offer a stale
// choice the traced one forbids, or forbid one it offers. Store buffering
// with seq_cst accesses, and with relaxed ones and seq_cst fences, needs
// the order for its forbidden outcome (a Model that never kept it would
// offer it at either bound); rapid draws the rest.
func TestLeanExecutionsSeeWhatTracedOnesSee(t *testing.T) {
	rapidcases.FewerUnderRace(t)
	defer func(was weak.Config) { config = was }(config)
	same := func(test Test) (string, bool) {
		for _, stale := range []int{1, 2} {
			config = weak.Config{History: 64, MaxStale: stale, Traced: true}
			traced := runsOf(test, false)
			config.Traced = false
			lean := runsOf(test, false)
			if !slices.Equal(traced, lean) {
				return fmt.Sprintf("%s, %d stale choices: %d executions traced, %d lean; first difference at %d", test.Name, stale, len(traced), len(lean), firstDiff(traced, lean)), false
			}
		}
		return "", true
	}
	sb := func(name string, access Ordering, fenced bool) Test {
		thread := func(a, b, reg string) []Op {
			ops := []Op{Store(a, 1, access)}
			if fenced {
				ops = append(ops, Fence(SeqCst))
			}
			return append(ops, Load(reg, b, access))
		}
		return Test{Name: name, Threads: [][]Op{thread("x", "y", "r1"), thread("y", "x", "r2")}}
	}
	for _, test := range []Test{sb("SB+sc", SeqCst, false), sb("SB+fences", Relaxed, true)} {
		if msg, ok := same(test); !ok {
			t.Error(msg)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		if msg, ok := same(drawTest(rt)); !ok {
			rt.Fatal(msg)
		}
	})
}
