package weak

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// Small programs drawn by rapid, run through the model (every interleaving
// and store choice) and the RC11 oracle. Every outcome the model produces
// must be allowed (soundness, for every program). Completeness is asserted
// where the model claims it: programs without seq_cst operations, whose
// executions the seq_cst order does not constrain (the model takes the
// execution order of seq_cst events as RC11's psc: doc.go, "What is not").

// genProgram draws 2 or 3 threads of 1 to 3 operations on 2 or 3
// locations, with every ordering each operation accepts. Stores write
// distinct values. noSC leaves seq_cst out.
func genProgram(t *rapid.T, noSC bool) litmus {
	locs := []string{"x", "y", "z"}[:rapid.IntRange(2, 3).Draw(t, "locs")]
	nthreads := rapid.IntRange(2, 3).Draw(t, "threads")
	pick := func(label string, os ...Ordering) Ordering {
		if noSC {
			var keep []Ordering
			for _, o := range os {
				if o != SeqCst {
					keep = append(keep, o)
				}
			}
			os = keep
		}
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
				ops = append(ops, ld(fmt.Sprintf("r%d", reg), l, pick("load", Relaxed, Acquire, SeqCst)))
				reg++
			case 1:
				val++
				ops = append(ops, st(l, val, pick("store", Relaxed, Release, SeqCst)))
			case 2:
				ops = append(ops, add(fmt.Sprintf("r%d", reg), l, 10, pick("rmw", Relaxed, Acquire, Release, AcqRel, SeqCst)))
				reg++
			case 3:
				val++
				ops = append(ops, cas(fmt.Sprintf("r%d", reg), l, rapid.IntRange(0, val).Draw(t, "expected"), 100+val,
					pick("cas", Relaxed, Acquire, Release, AcqRel, SeqCst), pick("cas failure", Relaxed, Acquire, SeqCst)))
				reg++
			case 4:
				ops = append(ops, fence(pick("fence", Acquire, Release, AcqRel, SeqCst)))
			}
		}
		lt.threads = append(lt.threads, ops)
	}
	return lt
}

func TestRandomLitmusSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lt := genProgram(t, false)
		allowed, _ := oracle(lt)
		seen, _ := observe(lt)
		if unsound, _ := compare(seen, allowed); len(unsound) > 0 {
			t.Fatalf("the model produces %s, which RC11 forbids (allowed %s)", braces(unsound), braces(sorted(allowed)))
		}
	})
}

func TestRandomLitmusComplete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lt := genProgram(t, true)
		allowed, _ := oracle(lt)
		seen, _ := observe(lt)
		unsound, missing := compare(seen, allowed)
		if len(unsound) > 0 || len(missing) > 0 {
			t.Fatalf("the model produces %s, which RC11 forbids, and misses %s, which it allows", braces(unsound), braces(missing))
		}
	})
}
