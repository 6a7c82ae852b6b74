package litmus

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wsched/wsched/explore/internal/weak"
	"pgregory.net/rapid"
)

// With a bound on stale choices, a Model stops growing the seq_cst order
// at the last choice the bound allows (weak.Config.Traced): nothing asks
// it again. Each program runs every execution with the order kept whole
// and with it cut, at bounds of 1 and 2 stale choices, and must see the
// same outcomes in the same order: a cut order that something still read
// would offer a stale choice the whole one forbids, or forbid one it
// offers. Store buffering with seq_cst accesses, and with relaxed ones
// and seq_cst fences, needs the order for its forbidden outcome (a model
// that never kept it would offer it at either bound); rapid draws the
// rest.
func TestSCOrderCutWhereNothingAsks(t *testing.T) {
	defer func(was weak.Config) { config = was }(config)
	same := func(test Test) (string, bool) {
		for _, stale := range []int{1, 2} {
			config = weak.Config{History: 64, MaxStale: stale, Traced: true}
			whole := runsOf(test, false)
			config.Traced = false
			cut := runsOf(test, false)
			if !slices.Equal(whole, cut) {
				return fmt.Sprintf("%s, %d stale choices: %d executions with the seq_cst order whole, %d with it cut; first difference at %d", test.Name, stale, len(whole), len(cut), firstDiff(whole, cut)), false
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
