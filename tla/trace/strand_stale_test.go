//go:build tlatrace && !explore

package trace

import (
	"strings"
	"testing"
)

// staleFlagLogs are logs of impl/sched that have a stale flag: the monitor
// flags worker 1 and takes the flag down while worker 1 is still inside
// the poll the flag came after. Made by the stranding stress runs
// (TestTraceStrandingStress) with a claimed worker's wake delayed 300 µs
// and the monitor's flag store 200 µs (by hand, in a scratch copy); CI met
// the lifo one's pattern undelayed (1 of 8 logs of one run). The monitor
// read worker 1's tick count while worker 1 was claimed but not yet
// running, and stored the flag after worker 1 had begun its tick: the next
// look saw the count moved.
var staleFlagLogs = []struct {
	model StrandModel
	log   string
}{
	{strandLIFO, `<<[a |-> "Arrive", w |-> 0, t |-> "P"],
[a |-> "Take", w |-> 2, t |-> "P", from |-> [k |-> "global", w |-> 0], rest |-> {}],
[a |-> "End", w |-> 2, t |-> "P", ok |-> FALSE, to |-> [k |-> "nowhere", w |-> 0]],
[a |-> "Arrive", w |-> 0, t |-> "B1"],
[a |-> "Notify", w |-> 2],
[a |-> "Take", w |-> 1, t |-> "B1", from |-> [k |-> "global", w |-> 0], rest |-> {}],
[a |-> "Wake", w |-> 1, t |-> "P", to |-> [k |-> "lifo", w |-> 1]],
[a |-> "Flag", w |-> 1],
[a |-> "MonWake", w |-> 2],
[a |-> "Unflag", w |-> 1],
[a |-> "Flag", w |-> 1],
[a |-> "MonWake", w |-> 2],
[a |-> "Take", w |-> 2, t |-> "P", from |-> [k |-> "lifo", w |-> 1], rest |-> {}],
[a |-> "End", w |-> 2, t |-> "P", ok |-> TRUE, to |-> [k |-> "done", w |-> 0]],
[a |-> "End", w |-> 1, t |-> "B1", ok |-> TRUE, to |-> [k |-> "done", w |-> 0]],
[a |-> "Unflag", w |-> 1]>>`},
	{strandSpawn, `<<[a |-> "Arrive", w |-> 0, t |-> "B1"],
[a |-> "Take", w |-> 1, t |-> "B1", from |-> [k |-> "global", w |-> 0], rest |-> {}],
[a |-> "Wake", w |-> 1, t |-> "P", to |-> [k |-> "ring", w |-> 1]],
[a |-> "Flag", w |-> 1],
[a |-> "Extra", w |-> 2],
[a |-> "Take", w |-> 2, t |-> "P", from |-> [k |-> "ring", w |-> 1], rest |-> {}],
[a |-> "End", w |-> 2, t |-> "P", ok |-> TRUE, to |-> [k |-> "done", w |-> 0]],
[a |-> "Unflag", w |-> 1],
[a |-> "End", w |-> 1, t |-> "B1", ok |-> TRUE, to |-> [k |-> "done", w |-> 0]]>>`},
}

// TestTraceStrandingStaleFlag checks that Stranding accepts the logs with
// a stale flag, and that the spec without the stale case (a flag always of
// the poll the worker is in, as the spec had it) rejects each of them.
func TestTraceStrandingStaleFlag(t *testing.T) {
	jar := Jar()
	fresh := `    /\ ws[v] \in {"looking", "polling"} /\ flagPoll' = [flagPoll EXCEPT ![v] = ws[v] = "polling"]`
	noStale := func(spec string) (string, error) {
		if strings.Count(spec, monFlagCases) != 1 {
			t.Fatalf("MonFlag's cases are not in Stranding.tla as this test has them:\n%s", monFlagCases)
		}
		return strings.Replace(spec, monFlagCases, fresh, 1), nil
	}
	for _, c := range staleFlagLogs {
		t.Run(c.model.Shape, func(t *testing.T) {
			Validate(t, jar, "..", "stranding/stale flag (Shape "+c.model.Shape+")", c.model.StrandBatch([]string{c.log}, nil), true)
			r := Validate(t, jar, "..", "stranding/stale flag, no stale case (Shape "+c.model.Shape+")", c.model.StrandBatch([]string{c.log}, noStale), false)
			if r.OK() {
				t.Errorf("Stranding without its stale flag accepted the log: the log does not need the case")
				return
			}
			t.Logf("without the stale case: %s", firstLines(r.Mismatch, 12))
		})
	}
}
