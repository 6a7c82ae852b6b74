package explore

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/internal/engine"
)

// The run record: one JSON object per scenario that Check explored or
// replayed, for the programs that read test logs (cmd/verify,
// cmd/orderaudit, cmd/explain). Check writes it as one log line,
//
//	EXPLORE_RECORD {"v":1,"scenario":"ring/basic",...}
//
// beside the METRIC line, so that go test -json readers find it in the
// output events, and, when RecordsEnv names a file, appends it there as
// one line (one write with O_APPEND, so several test processes may share
// the file). docs/explore.md, "The run record", lists the fields.

// RecordPrefix starts the log line of a record.
const RecordPrefix = "EXPLORE_RECORD "

// Record is what one Check did. Readers ignore fields they do not know;
// a writer bumps Version only when a field changes meaning.
type Record struct {
	Version      int            `json:"v"`
	Scenario     string         `json:"scenario"`
	Test         string         `json:"test"`
	Package      string         `json:"package"`
	Mode         string         `json:"mode"` // "dfs", "dpor", "pct", "replay"
	Weak         bool           `json:"weak"`
	Tags         string         `json:"tags"`   // the build tags a replay needs
	Mutant       string         `json:"mutant"` // "" for none
	Shard        string         `json:"shard"`  // "k/n" for part k of n of a sharded search (MergeRecords); "" for the whole
	Bound        int            `json:"bound"`
	MaxStale     int            `json:"max_stale"`
	History      int            `json:"history"`
	Schedules    int            `json:"schedules"`
	Cut          int            `json:"cut,omitempty"`        // of Schedules, the runs the state cache cut (Options.StateCache)
	CacheFull    int            `json:"cache_full,omitempty"` // the states the cache's table met while full (Result.CacheFull)
	Steps        int64          `json:"steps"`
	Exhaustive   bool           `json:"exhaustive"`
	EstimateLeft float64        `json:"estimate_left"`
	Forecast     float64        `json:"forecast"` // the schedules estimated before the search (ForecastSearch); 0: none
	ElapsedMS    int64          `json:"elapsed_ms"`
	Failure      *RecordFailure `json:"failure"`
	// Subtrees is, in a part of a sharded reduced search, what the part
	// ran in each subtree it ran: parts may both run one, and the merge
	// counts it once (MergeRecords).
	Subtrees []RecordSubtree `json:"subtrees,omitempty"`
}

// RecordSubtree is a Record's count of one subtree of a sharded reduced
// search (the engine's Subtree): the runs of round Bound that leave the
// round's first run at its decision At for choice Choice, and that
// subtree's first run at At2 for Choice2 (At2 -1: that first run, or the
// whole subtree where the parts' probes did not know of it; At -1: the
// round's first run).
type RecordSubtree struct {
	Bound     int   `json:"b"`
	At        int   `json:"at"`
	Choice    int   `json:"c"`
	At2       int   `json:"at2"`
	Choice2   int   `json:"c2"`
	Schedules int   `json:"schedules"`
	Steps     int64 `json:"steps"`
}

// RecordFailure is a Record's failed schedule.
type RecordFailure struct {
	Kind        string   `json:"kind"`    // "panic", "assertion", "deadlock", "step budget", "data race", "diverged"
	Message     string   `json:"message"` // its first line
	Schedule    int      `json:"schedule"`
	Preemptions int      `json:"preemptions"`
	Token       string   `json:"token"`
	Replay      string   `json:"replay"` // the shell command that reproduces it, from the test's module root
	Evidence    Evidence `json:"evidence"`
}

// Evidence names the files written for a failure.
type Evidence struct {
	Page  string `json:"page,omitempty"`  // the counterexample page (page.go)
	Trace string `json:"trace,omitempty"` // the trace as JSON
}

// RecordVersion is the version Check writes.
const RecordVersion = 1

// newRecord is the record of an exploration of scenario name by t.
func newRecord(t testing.TB, name string, opt Options, res Result) Record {
	rec := Record{
		Version: RecordVersion, Scenario: name, Test: testName(t), Package: packageDir(),
		Mode: res.Mode, Weak: opt.Weak, Tags: buildTags(opt), Mutant: opt.Mutant, Shard: opt.Shard.String(),
		Bound: res.Bound, Schedules: res.Schedules, Cut: res.Cut, CacheFull: res.CacheFull, Steps: res.Steps, Exhaustive: res.Exhaustive,
		ElapsedMS: res.Elapsed.Milliseconds(),
	}
	for _, st := range res.Subtrees {
		rec.Subtrees = append(rec.Subtrees, RecordSubtree{st.Bound, st.At, st.Choice, st.At2, st.Choice2, st.Schedules, st.Steps})
	}
	if opt.Weak {
		m := engine.ModeOf(opt)
		rec.MaxStale, rec.History = m.MaxStale, m.History
	}
	if !res.Exhaustive && res.Estimate > float64(res.RoundSchedules) {
		rec.EstimateLeft = res.Estimate - float64(res.RoundSchedules)
	}
	if res.Mode == "dpor" && !res.Exhaustive && res.RoundForecast > float64(res.RoundSchedules) {
		rec.EstimateLeft = res.RoundForecast - float64(res.RoundSchedules) // the reduced search's, from its rounds
	}
	return rec
}

// buildTags is the build tags a replay needs: every tag the test binary
// was built with (a module's own tags too, such as the examples' buggy),
// with explore added if it is missing and weak if opt.Weak is set by
// WSCHED_EXPLORE_WEAK rather than by the tag.
func buildTags(opt Options) string {
	var tags []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" && s.Value != "" {
				tags = strings.Split(s.Value, ",")
			}
		}
	}
	return joinTags(tags, opt.Weak)
}

// joinTags is tags with explore first if it is missing and, for a weak
// run, weak after it.
func joinTags(tags []string, weak bool) string {
	if !slices.Contains(tags, "explore") {
		tags = append([]string{"explore"}, tags...)
	}
	if weak && !slices.Contains(tags, "weak") {
		i := slices.Index(tags, "explore")
		tags = slices.Insert(tags, i+1, "weak")
	}
	return strings.Join(tags, ",")
}

// replayCommand is the shell command, run from the root of the test's
// module (the nearest directory above the package that holds go.mod:
// wsched's or another module's), that replays token tok of the scenario:
// the build tags the run had, and the mutant it carried applied by
// cmd/mutant.
func replayCommand(rec Record, tok string) string {
	cmd := fmt.Sprintf("%s='%s=%s' go test -count=1 -tags %s -run '^%s$' %s", ReplayEnv, rec.Scenario, tok, rec.Tags, rec.Test, rec.Package)
	if rec.Mutant != "" {
		cmd = fmt.Sprintf("go run ./cmd/mutant %s -- env %s", rec.Mutant, cmd)
	}
	return cmd
}

// write logs rec and appends it to the records file at path, if one is
// named (Options.Records).
func (rec Record) write(t testing.TB, path string) {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Errorf("explore: run record: %v", err)
		return
	}
	t.Logf("%s%s", RecordPrefix, b)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Errorf("explore: %s: %v", RecordsEnv, err)
		return
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		t.Errorf("explore: %s: %v", RecordsEnv, err)
	}
}

// ReadRecords reads the records of a records file (Options.Records), one
// per line; lines that hold none are passed over.
func ReadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for n := 1; sc.Scan(); n++ {
		r, ok, err := ParseRecord(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if ok && r.Version > 0 {
			recs = append(recs, r)
		}
	}
	return recs, sc.Err()
}

// ParseRecord reads a record from a log line (or a line of the records
// file); ok is false if the line holds none.
func ParseRecord(line string) (rec Record, ok bool, err error) {
	i := strings.Index(line, RecordPrefix)
	if i >= 0 {
		line = line[i+len(RecordPrefix):]
	} else if len(line) == 0 || line[0] != '{' {
		return Record{}, false, nil
	}
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		return Record{}, false, fmt.Errorf("explore: run record: %v", err)
	}
	return rec, true, nil
}
