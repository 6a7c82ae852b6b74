//go:build explore

package scenarios

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wsched/wsched/explore"
)

// The parts of a sharded search add up to the whole search
// (docs/explore.md, "Sharding"): on a sample of scenarios, data structures
// and runtime, in the plain and the weak mode, by the plain search and the
// bounded reduced one, the test binary runs each
// scenario's test whole, then as parts 0..n-1 of n for n = 2 and 3 (each
// part a process of its own, as a job of a CI matrix would be, side by
// side), and the records the parts write (WSCHED_EXPLORE_RECORDS), merged
// by explore.MergeRecords, must give the whole search's schedules, steps,
// bound, exhaustiveness and failures. The engine's
// TestShardsAddUpToTheWholeSearch* check more: that the parts run the very
// schedules of the whole search, once each, on generated programs. Two
// runtime scenarios run with the state cache, as their layer does: there
// each part caches its own subtrees' states and the parts do not add up to
// the whole search's schedules; they must end where the whole search ends,
// pass, and cut runs (the engine's
// TestStateCacheInPartsReachesEveryOutcomeOfItsShare checks what they
// reach).
func TestExploreShardsAddUp(t *testing.T) {
	inPartZeroOnly(t)
	claimOnce(t, "shards-add-up")
	sample := []struct {
		test                 string
		weak, reduce, cached bool
	}{
		{"TestExploreDequeTwoThieves", false, false, false},
		{"TestExploreSlotTwoThieves", false, false, false},
		{"TestExploreGlobalQueue", false, false, false},
		{"TestExploreForkJoinRunWhileSleeping", false, false, false}, // a runtime and its pool
		{"TestExploreGlobalQueueNotStarved", false, false, false},    // a runtime
		{"TestExploreSlotTwoThieves", true, false, false},
		{"TestExploreGlobalQueue", true, false, false},
		{"TestExploreYieldGoesBehindTheRing", true, false, false}, // a runtime
		// The bounded reduced search, whose parts may run a subtree
		// twice (the merge counts it once): a runtime in the plain mode,
		// twins (a Symmetric group) and a runtime in the weak mode.
		{"TestExploreGlobalQueueNotStarved", false, true, false},
		{"TestExploreSlotTwoThieves", true, true, false},
		{"TestExploreYieldGoesBehindTheRing", true, true, false},
		// The plain search with the state cache in the plain mode.
		{"TestExploreLIFOBehindBlockedPoll", false, false, true},
		{"TestExploreLIFOBehindBlockedPollAfterIdle", false, false, true},
	}
	dir := t.TempDir()
	var mu sync.Mutex
	run := 0
	// search runs the test's scenario as part k of n (n = 0: whole) and
	// returns its run record.
	search := func(test string, weak, reduce, cached bool, k, n int) (explore.Record, error) {
		mu.Lock()
		run++
		file := filepath.Join(dir, fmt.Sprintf("records-%d.jsonl", run))
		mu.Unlock()
		cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
		cmd.Env = childEnv(file)
		if n > 0 {
			cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d/%d", explore.ShardEnv, k, n))
		}
		// With the state cache the parts do not add up to the whole
		// search (each part caches its own subtrees' states): the
		// searches compared by their counts run without it.
		if !cached {
			cmd.Env = append(cmd.Env, explore.CacheEnv+"=off")
		}
		if weak {
			cmd.Env = append(cmd.Env, explore.WeakEnv+"=1")
		}
		if reduce {
			cmd.Env = append(cmd.Env, explore.ReduceEnv+"=1")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return explore.Record{}, fmt.Errorf("%s (part %d/%d): %v\n%s", test, k, n, err, out)
		}
		recs, err := explore.ReadRecords(file)
		if err != nil || len(recs) != 1 {
			return explore.Record{}, fmt.Errorf("%s (part %d/%d): %d records, %v\n%s", test, k, n, len(recs), err, out)
		}
		return recs[0], nil
	}
	for _, c := range sample {
		whole, err := search(c.test, c.weak, c.reduce, c.cached, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !whole.Exhaustive || whole.Failure != nil {
			t.Fatalf("%s (weak %v): the whole search is not exhaustive or fails (%d schedules, %+v): the sample needs scenarios whose searches end", whole.Scenario, c.weak, whole.Schedules, whole.Failure)
		}
		for _, n := range []int{2, 3} {
			parts := make([]explore.Record, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for k := range n {
				wg.Go(func() { parts[k], errs[k] = search(c.test, c.weak, c.reduce, c.cached, k, n) })
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			merged, err := explore.MergeRecords(parts)
			if err != nil || len(merged) != 1 {
				t.Fatalf("%s: merging %d parts: %d records, %v", whole.Scenario, n, len(merged), err)
			}
			m := merged[0]
			var counts []string
			for _, p := range parts {
				counts = append(counts, fmt.Sprint(p.Schedules))
			}
			t.Logf("%s (%s, weak %v): whole %d schedules; %d parts: %s, merged %d", whole.Scenario, whole.Mode, c.weak, whole.Schedules, n, strings.Join(counts, " + "), m.Schedules)
			if c.cached {
				if m.Parts != n || m.Bound != whole.Bound || !m.Exhaustive || m.Cut == 0 || len(m.Failures) != 0 {
					t.Errorf("%s with the state cache, %d parts: bound %d, exhaustive %v, %d cut, failures %v; the whole search: bound %d, exhaustive, none",
						whole.Scenario, n, m.Bound, m.Exhaustive, m.Cut, m.Failures, whole.Bound)
				}
				continue
			}
			if m.Parts != n || m.Schedules != whole.Schedules || m.Steps != whole.Steps || m.Bound != whole.Bound ||
				m.Exhaustive != whole.Exhaustive || len(m.Failures) != 0 {
				t.Errorf("%s (weak %v), %d parts: %d schedules, %d steps, bound %d, exhaustive %v, failures %v; the whole search: %d, %d, %d, %v, none",
					whole.Scenario, c.weak, n, m.Schedules, m.Steps, m.Bound, m.Exhaustive, m.Failures, whole.Schedules, whole.Steps, whole.Bound, whole.Exhaustive)
			}
		}
	}
}

// childEnv is this process's environment for a test process that runs one
// search and writes its record to file: none of the settings that would
// change the search (another part, the reduced search, -long's budgets),
// and no claims directory (the child runs what it is told to).
func childEnv(file string) []string {
	drop := []string{explore.ShardEnv, explore.ReduceEnv, explore.ClassesEnv, explore.LongEnv, explore.ClaimsEnv,
		explore.RecordsEnv, explore.ReplayEnv, explore.WeakEnv, explore.CacheEnv}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			keep = keep && k != d
		}
		if keep {
			env = append(env, kv)
		}
	}
	return append(env, explore.RecordsEnv+"="+file)
}

// inPartZeroOnly, in a layer run in parts (explore.ShardEnv), skips t in
// every part but part 0, and runs it whole there: for a test that is not
// one search to split (it compares searches, or runs parts of its own).
func inPartZeroOnly(t *testing.T) {
	v := os.Getenv(explore.ShardEnv)
	if v == "" {
		return
	}
	if !strings.HasPrefix(v, "0/") {
		t.Skipf("run whole by part 0 of the sharded run (%s=%s)", explore.ShardEnv, v)
	}
	t.Setenv(explore.ShardEnv, "")
}

// claimOnce runs a test that is not a Check in one of the processes that
// share a claims directory (explore.ClaimsEnv), as Check runs a scenario,
// and skips it in the others.
func claimOnce(t *testing.T, key string) {
	dir := os.Getenv(explore.ClaimsEnv)
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "test "+key), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	switch {
	case err == nil:
		f.Close()
	case errors.Is(err, fs.ErrExist):
		t.Skipf("%s: run by another process (its claim is in %s=%s)", key, explore.ClaimsEnv, dir)
	default:
		t.Fatalf("%s: claiming it in %s=%s: %v", key, explore.ClaimsEnv, dir, err)
	}
}
