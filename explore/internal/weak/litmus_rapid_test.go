package weak_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/wsched/wsched/explore/internal/weak"
	"github.com/wsched/wsched/internal/rapidcases"
)

// Small programs drawn by rapid, run through the model (every interleaving
// and store choice) and the RC11 oracle. Every outcome the model produces
// must be allowed (soundness), and every outcome allowed must be produced
// (completeness).

// genProgram draws 2 or 3 threads of 1 to 3 operations on 2 or 3
// locations, with every ordering each operation accepts. Stores write
// distinct values.
func genProgram(t *rapid.T) litmus {
	locs := []string{"x", "y", "z"}[:rapid.IntRange(2, 3).Draw(t, "locs")]
	nthreads := rapid.IntRange(2, 3).Draw(t, "threads")
	pick := func(label string, os ...weak.Ordering) weak.Ordering {
		return rapid.SampledFrom(os).Draw(t, label)
	}
	lt := litmus{name: "random", final: locs}
	val, reg := 0, 0
	for range nthreads {
		var ops []op
		for range rapid.IntRange(1, 3).Draw(t, "ops") {
			l := rapid.SampledFrom(locs).Draw(t, "loc")
			kind := rapid.IntRange(0, 4).Draw(t, "kind")
			switch kind {
			case 0:
				ops = append(ops, ld(fmt.Sprintf("r%d", reg), l, pick("load", weak.Relaxed, weak.Acquire, weak.SeqCst)))
				reg++
			case 1:
				val++
				ops = append(ops, st(l, val, pick("store", weak.Relaxed, weak.Release, weak.SeqCst)))
			case 2:
				ops = append(ops, add(fmt.Sprintf("r%d", reg), l, 10, pick("rmw", weak.Relaxed, weak.Acquire, weak.Release, weak.AcqRel, weak.SeqCst)))
				reg++
			case 3:
				val++
				ops = append(ops, cas(fmt.Sprintf("r%d", reg), l, rapid.IntRange(0, val).Draw(t, "expected"), 100+val,
					pick("cas", weak.Relaxed, weak.Acquire, weak.Release, weak.AcqRel, weak.SeqCst), pick("cas failure", weak.Relaxed, weak.Acquire, weak.SeqCst)))
				reg++
			case 4:
				ops = append(ops, fence(pick("fence", weak.Acquire, weak.Release, weak.AcqRel, weak.SeqCst)))
			}
		}
		lt.threads = append(lt.threads, ops)
	}
	return lt
}

func TestRandomLitmus(t *testing.T) {
	rapidcases.FewerUnderRace(t)
	rapid.Check(t, func(t *rapid.T) {
		lt := genProgram(t)
		allowed, _ := oracle(lt)
		seen, _ := observe(lt)
		unsound, missing := compare(seen, allowed)
		if len(unsound) > 0 || len(missing) > 0 {
			t.Fatalf("the model produces %s, which RC11 forbids, and misses %s, which it allows", braces(unsound), braces(missing))
		}
	})
}
