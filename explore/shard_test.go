package explore

import (
	"fmt"
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
			Bound: bound, Schedules: schedules, Cut: schedules / 2, CacheFull: schedules / 10, Steps: int64(10 * schedules), Exhaustive: exhaustive, ElapsedMS: int64(schedules), Failure: f}
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
	if m.Parts != 3 || m.Shard != "" || m.Schedules != 60 || m.Cut != 30 || m.CacheFull != 6 || m.Steps != 600 || m.ElapsedMS != 30 || m.Exhaustive || m.Bound != 1 ||
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

// The parts of a reduced search name the subtrees they ran: the merge
// counts each once, refuses two parts that ran one to its end unlike (a
// stopped part between them too), a stopped part that ran more of one
// than a part that ended it, and a part that names none.
func TestMergeRecordsOfAReducedSearch(t *testing.T) {
	part := func(sh string, exhaustive bool, subs ...RecordSubtree) Record {
		r := Record{Version: 1, Scenario: "s", Test: "T", Package: "./p", Mode: "dpor", Tags: "explore", Shard: sh, Bound: 1, Exhaustive: exhaustive, Subtrees: subs}
		for _, st := range subs {
			r.Schedules += st.Schedules
			r.Steps += st.Steps
		}
		return r
	}
	first := RecordSubtree{Bound: 0, At: -1, Choice: -1, At2: -1, Choice2: -1, Schedules: 1, Steps: 10}
	a := RecordSubtree{Bound: 1, At: 3, Choice: 1, At2: 7, Choice2: 0, Schedules: 5, Steps: 50}
	b := RecordSubtree{Bound: 1, At: 3, Choice: 1, At2: 9, Choice2: 2, Schedules: 7, Steps: 70}
	c := RecordSubtree{Bound: 1, At: 2, Choice: 2, At2: -1, Choice2: -1, Schedules: 2, Steps: 20}
	ms, err := MergeRecords([]Record{part("0/2", true, first, a, c), part("1/2", true, first, b, c)})
	if err != nil || len(ms) != 1 || ms[0].Schedules != 15 || ms[0].Steps != 150 || !ms[0].Exhaustive || ms[0].Subtrees != nil {
		t.Fatalf("merged: %+v, %v; want 15 schedules, 150 steps, each subtree once", ms, err)
	}
	unlike := c
	unlike.Schedules++
	if _, err := MergeRecords([]Record{part("0/2", true, first, a, c), part("1/2", true, first, b, unlike)}); err == nil || !strings.Contains(err.Error(), "subtree") {
		t.Errorf("two parts that ran a subtree unlike: error %v", err)
	}
	// A part stopped by its budget may have run a subtree in part: where a
	// part ran it to its end the merge counts that part's, else the most
	// any stopped part ran there.
	less := c
	less.Schedules--
	if ms, err := MergeRecords([]Record{part("0/2", true, first, a, c), part("1/2", false, first, b, less)}); err != nil || ms[0].Schedules != 15 || ms[0].Exhaustive {
		t.Errorf("a part cut by its budget: %+v, %v; want 15 schedules, not exhaustive", ms, err)
	}
	if ms, err := MergeRecords([]Record{part("0/2", false, first, a, less), part("1/2", false, first, b, c)}); err != nil || ms[0].Schedules != 15 || ms[0].Exhaustive {
		t.Errorf("two parts cut by their budgets: %+v, %v; want 15 schedules, the most of each subtree", ms, err)
	}
	// A stopped part that ran more of a subtree than a part that ran it
	// to its end, and two parts that ended unlike with a stopped part
	// first: each is a search that is not deterministic, refused.
	if _, err := MergeRecords([]Record{part("0/2", true, first, a, c), part("1/2", false, first, b, unlike)}); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("a stopped part that ran more than the whole subtree: error %v", err)
	}
	if _, err := MergeRecords([]Record{part("0/3", false, first, unlike), part("1/3", true, first, a, c), part("2/3", true, first, b, less)}); err == nil || !strings.Contains(err.Error(), "subtree") {
		t.Errorf("two ended parts unlike behind a stopped one: error %v", err)
	}
	if _, err := MergeRecords([]Record{part("0/2", true, first, a), part("1/2", true)}); err == nil || !strings.Contains(err.Error(), "subtree") {
		t.Errorf("a part that names no subtree: error %v", err)
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

// Before a bounded reduced search Check logs the plain search's forecast
// at its bound, and after it ends what the reduced search ran of it; the
// forecast being Knuth's of the plain tree, which holds every class, and
// the toy's steps all conflicting, the reduced search runs about as many.
// None with the forecast off, none unbounded.
func TestCheckLogsThePlainForecastBeforeAReducedSearch(t *testing.T) {
	t.Setenv(LongEnv, "")
	t.Setenv(ReduceEnv, "")
	body := func() {
		var x tloc
		var ts []*Thread
		for _, n := range []string{"A", "B"} {
			ts = append(ts, Go(n, func() { x.store(1, engine.SeqCst); x.store(2, engine.SeqCst) }))
		}
		for _, th := range ts {
			th.Join()
		}
	}
	logged := func(tb *recordingTB, s string) string {
		i := slices.IndexFunc(tb.logs, func(l string) bool { return strings.Contains(l, s) })
		if i < 0 {
			return ""
		}
		return tb.logs[i]
	}
	tb := check("toy/two-reduced", "TestToyTwoReduced", Options{Reduce: true}, body)
	before, after := logged(tb, "forecast of the plain search at this bound: about"), logged(tb, "the reduced search ran")
	if tb.failed || before == "" || after == "" {
		t.Fatalf("a reduced search's log:\n%s", strings.Join(tb.logs, "\n"))
	}
	var ratio float64
	if _, err := fmt.Sscanf(after[strings.Index(after, "the reduced search ran"):], "the reduced search ran %g times it", &ratio); err != nil || ratio < 0.5 || ratio > 2 {
		t.Errorf("the reduced search of a toy whose steps all conflict ran %v times the plain forecast (%v), want about 1: %s", ratio, err, after)
	}
	for _, o := range []Options{{Reduce: true, EstimateProbes: -1}, {Reduce: true, Unbounded: true}} {
		tb = check("toy/two-reduced", "TestToyTwoReduced", o, body)
		if tb.failed || logged(tb, "forecast of the plain search") != "" {
			t.Errorf("%+v: the log:\n%s", o, strings.Join(tb.logs, "\n"))
		}
	}
}
