package explore

import (
	"slices"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// MergeRecords adds up the parts' counts, keeps every failure and the one
// with the fewest preemptions, and refuses a search with a part missing
// or twice.
func TestMergeRecords(t *testing.T) {
	part := func(sh string, schedules int, exhaustive bool, bound int, f *RecordFailure) Record {
		return Record{Version: 1, Scenario: "s", Test: "T", Package: "./p", Mode: "dfs", Tags: "explore", Shard: sh,
			Bound: bound, Schedules: schedules, Steps: int64(10 * schedules), Exhaustive: exhaustive, ElapsedMS: int64(schedules), Failure: f}
	}
	f1 := &RecordFailure{Kind: "assertion", Preemptions: 2, Token: "a"}
	f2 := &RecordFailure{Kind: "assertion", Preemptions: 1, Token: "b"}
	other := part("", 7, true, 2, nil)
	other.Scenario = "t"
	ms, err := MergeRecords([]Record{part("1/3", 20, true, 2, f1), other, part("0/3", 10, true, 2, nil), part("2/3", 30, false, 1, f2)})
	if err != nil || len(ms) != 2 {
		t.Fatalf("MergeRecords: %d, %v", len(ms), err)
	}
	if m := ms[0]; m.Scenario != "t" || m.Parts != 1 || m.Schedules != 7 || !m.Exhaustive {
		t.Errorf("a record of a whole search: %+v", m)
	}
	m := ms[1]
	if m.Parts != 3 || m.Shard != "" || m.Schedules != 60 || m.Steps != 600 || m.ElapsedMS != 30 || m.Exhaustive || m.Bound != 1 ||
		len(m.Failures) != 2 || m.Failure == nil || m.Failure.Token != "b" {
		t.Errorf("merged: %+v", m)
	}
	for _, recs := range [][]Record{
		{part("0/2", 1, true, 2, nil)},
		{part("0/2", 1, true, 2, nil), part("0/2", 1, true, 2, nil), part("1/2", 1, true, 2, nil)},
	} {
		if _, err := MergeRecords(recs); err == nil || !strings.Contains(err.Error(), "part") {
			t.Errorf("MergeRecords of %d records: error %v", len(recs), err)
		}
	}
}

// Check logs the forecast before a depth-first search, its error after a
// search that ended, and the share a budget-cut search covered; none with
// the forecast off. At the default bound: under WSCHED_LONG (verify -long)
// Check would raise it and log its -long budget first.
func TestCheckLogsTheForecast(t *testing.T) {
	t.Setenv(LongEnv, "")
	body := func() {
		var x tloc
		var ts []*Thread
		for _, n := range []string{"A", "B"} {
			ts = append(ts, Go(n, func() { x.store(1, engine.SeqCst); x.load(engine.SeqCst); x.store(2, engine.SeqCst) }))
		}
		for _, th := range ts {
			th.Join()
		}
	}
	logged := func(tb *recordingTB, s string) bool {
		return slices.ContainsFunc(tb.logs, func(l string) bool { return strings.Contains(l, s) })
	}
	tb := check("toy/two", "TestToyTwo", Options{}, body)
	if tb.failed || !logged(tb, "forecast: about") || !logged(tb, "exhaustive up to 2 preemptions; forecast about") || !logged(tb, "off by") {
		t.Errorf("an ended search's log:\n%s", strings.Join(tb.logs, "\n"))
	}
	tb = check("toy/two", "TestToyTwo", Options{MaxSchedules: 5}, body)
	if tb.failed || !logged(tb, "% of the whole search, by the forecast") {
		t.Errorf("a budget-cut search's log:\n%s", strings.Join(tb.logs, "\n"))
	}
	tb = check("toy/two", "TestToyTwo", Options{EstimateProbes: -1}, body)
	if tb.failed || logged(tb, "forecast: about") || logged(tb, "off by") {
		t.Errorf("the log with the forecast off:\n%s", strings.Join(tb.logs, "\n"))
	}
}
