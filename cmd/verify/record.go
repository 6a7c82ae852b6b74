package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// runRecord is the part of the explorer's run record (explore.Record;
// docs/explore.md, "The run record") that verify reads. explore.Check
// logs one per scenario as a line "EXPLORE_RECORD {json}"; verify takes a
// scenario's outcome, its failure's page and its replay command from it,
// never from Check's wording. Verify does not import the explorer, so
// that it still builds, and reports the build layer's failure, when the
// explorer does not; TestRunRecordReadsTheExplorers checks that these
// fields read what explore.Record writes.
type runRecord struct {
	Version      int     `json:"v"`
	Scenario     string  `json:"scenario"`
	Mode         string  `json:"mode"`
	Bound        int     `json:"bound"`
	Schedules    int     `json:"schedules"`
	Steps        int64   `json:"steps"`
	Exhaustive   bool    `json:"exhaustive"`
	EstimateLeft float64 `json:"estimate_left"`
	ElapsedMS    int64   `json:"elapsed_ms"`
	Failure      *struct {
		Kind        string `json:"kind"`
		Message     string `json:"message"`
		Schedule    int    `json:"schedule"`
		Preemptions int    `json:"preemptions"`
		Replay      string `json:"replay"`
		Evidence    struct {
			Page  string `json:"page"`
			Trace string `json:"trace"`
		} `json:"evidence"`
	} `json:"failure"`
}

// recordPrefix is explore.RecordPrefix.
const recordPrefix = "EXPLORE_RECORD "

// recordIn returns the run record an output line holds, if it holds one
// (a line of a test's own that merely mentions the prefix does not).
func recordIn(line string) (runRecord, bool) {
	i := strings.Index(line, recordPrefix)
	if i < 0 {
		return runRecord{}, false
	}
	var rec runRecord
	if json.Unmarshal([]byte(line[i+len(recordPrefix):]), &rec) != nil || rec.Version == 0 || rec.Scenario == "" {
		return runRecord{}, false
	}
	return rec, true
}

// outcome is the line verify shows for a scenario that passed: its
// search, schedules, steps and time, and how far the search went.
func (rec runRecord) outcome() string {
	s := fmt.Sprintf("explore %s: %s, %d schedules, %d steps, %v", rec.Scenario, rec.Mode, rec.Schedules, rec.Steps, time.Duration(rec.ElapsedMS)*time.Millisecond)
	if rec.Mode != "dfs" && rec.Mode != "dpor" {
		return s // a replay, or a pct run: no bound to reach
	}
	switch {
	case rec.Bound < 0 && rec.Exhaustive:
		s += ", exhaustive: every execution, whatever its preemptions"
	case rec.Bound < 0:
		s += ", NOT exhaustive: the budget ran out before every execution ran"
	case rec.Exhaustive:
		s += fmt.Sprintf(", exhaustive up to %d preemptions", rec.Bound)
	case rec.Bound > 0:
		s += fmt.Sprintf(", exhaustive up to %d preemption(s); NOT exhaustive at %d: the budget ran out", rec.Bound-1, rec.Bound)
	default:
		s += ", NOT exhaustive even without preemptions: the budget ran out"
	}
	if !rec.Exhaustive && rec.EstimateLeft > 0 {
		s += fmt.Sprintf(" (about %s schedules left)", humanInt(int64(rec.EstimateLeft+0.5)))
	}
	return s
}

// evidence is what a failed scenario's record points at: the
// counterexample page and the command that replays the failure.
func (rec runRecord) evidence() []string {
	f := rec.Failure
	if f == nil {
		return nil
	}
	var out []string
	if f.Evidence.Page != "" {
		out = append(out, fmt.Sprintf("explorer counterexample page of %s (open in a browser): %s", rec.Scenario, f.Evidence.Page))
	}
	if f.Replay != "" {
		out = append(out, fmt.Sprintf("explorer replay of %s (%s at schedule %d, %d preemptions): %s", rec.Scenario, f.Kind, f.Schedule, f.Preemptions, f.Replay))
	}
	return out
}
