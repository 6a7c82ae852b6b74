//go:build tlatrace

package trace

import (
	"fmt"
	"math/bits"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/tlatrace"
)

// MonitorModel is the configuration of MonitorIdle a log of impl/sched's
// monitor is checked against: the workers of the run, and optionally a
// mutant of the spec.
type MonitorModel struct {
	N int // regular workers (1..3)
	// Order and Recheck, when set, replace the design as implemented
	// (a worker clears its bit, then loads idle; the monitor re-checks):
	// a mutant of the spec through its switches.
	Order   string
	Recheck string
	// Pair: the logs are of impl/sched's monitor pairs, whose monitor
	// starts at its idle store (TraceMonitorIdle's PairStart).
	Pair bool
}

// monitorOnly are the records of MonitorIdle that IdleProtocol has no
// action for (IdleLog skips them).
var monitorOnly = map[string]bool{"Look": true, "StoreIdle": true, "MonRecheck": true, "ClearIdle": true, "LoadIdle": true}

// Constants is the CONSTANTS section: MonitorIdle as implemented, with
// the code's separate store that clears idle (ClearApart, as
// MonitorIdleApart.cfg).
func (m MonitorModel) Constants() string {
	order, recheck := "clear-then-load", "TRUE"
	if m.Order != "" {
		order = m.Order
	}
	if m.Recheck != "" {
		recheck = m.Recheck
	}
	c := fmt.Sprintf("CONSTANTS\n    N = %d\n    Order = %q\n    MonitorRecheck = %s\n    ClearApart = TRUE\n", m.N, order, recheck)
	if m.Pair {
		c += "    PairStart = TRUE\n"
	}
	return c
}

// MonitorInvariants are MonitorIdle's invariants checked along every log.
var MonitorInvariants = []string{"TypeOK", "MonitorWatches", "IdleWhileAsleep"}

// MonitorLog is evs as a TLA+ sequence of the records TraceMonitorIdle
// reads: the monitor's and leftParked's records, and those of impl/idle
// that write or load the bitmap. Workers are numbered 1..N (the code's
// index + 1). It fails on what MonitorIdle does not have: an extra worker
// (AddSearcher: the spec's monitor starts none), a worker outside 1..N.
func (m MonitorModel) MonitorLog(evs []tlatrace.Event) (string, error) {
	var b strings.Builder
	b.WriteString("<<")
	n := 0
	for j, e := range evs {
		if _, ok := e.Proc.(int); !ok {
			continue // a record of another protocol (the ring's)
		}
		w := 0
		switch e.Action {
		case "AddSearcher":
			return "", fmt.Errorf("record %d: an extra worker started; MonitorIdle has none", j+1)
		case "PkBit", "WkReason", "PkCancel", "LoadIdle", "NFetchAnd":
			w = e.Worker + 1
			if w < 1 || w > m.N {
				return "", fmt.Errorf("record %d (%s): worker %d outside the model's %d workers", j+1, e.Action, e.Worker, m.N)
			}
		case "NLoadBm", "Look", "StoreIdle", "MonRecheck", "ClearIdle":
		default:
			continue // no step of MonitorIdle
		}
		if e.Bits>>uint(m.N) != 0 {
			return "", fmt.Errorf("record %d (%s): bitmap %b has bits past the model's %d workers", j+1, e.Action, e.Bits, m.N)
		}
		var ids []string
		for bm := e.Bits; bm != 0; bm &= bm - 1 {
			ids = append(ids, fmt.Sprint(bits.TrailingZeros64(bm)+1))
		}
		if n > 0 {
			b.WriteString(",\n")
		}
		n++
		fmt.Fprintf(&b, "[a |-> %q, w |-> %d, bm |-> {%s}, ok |-> %s]", e.Action, w, strings.Join(ids, ", "), tlaBool(e.OK))
	}
	b.WriteString(">>")
	return b.String(), nil
}

// MonitorBatch is a batch of logs for TraceMonitorIdle, the spec mutated by
// mutate when set. A mutant of the spec is checked for whether it matches
// the logs only (no invariants: its own may fail along them).
func (m MonitorModel) MonitorBatch(logs []string, mutate func(string) (string, error)) Batch {
	b := Batch{Spec: "MonitorIdle", Constants: m.Constants(), Logs: logs, Post: "TraceAccepted", Mutate: mutate}
	if mutate == nil && m.Order == "" && m.Recheck == "" {
		b.Invariants = MonitorInvariants
	}
	return b
}

// Validate has TLC check b (tla/ at tlaDir) and reports it in t's log as
// the other batches are (verify's metrics). A rejected log fails t when
// want is set (the unchanged spec); for a mutant it only returns the
// result. Without a jar it skips t, loudly.
func Validate(t testing.TB, jar, tlaDir, name string, b Batch, want bool) Result {
	t.Helper()
	if len(b.Logs) == 0 {
		t.Fatalf("%s: no logs: nothing would be validated", name)
	}
	if jar == "" {
		t.Skip("\n!!! TLA2TOOLS_JAR is not set and ../shared/tools/tla2tools.jar is absent:\n" +
			"!!! the logs were made but NOT validated against the spec by TLC.")
	}
	// The directory stays when TLC fails, with the logs and the models.
	dir, err := os.MkdirTemp("", "tlc-trace-")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if !t.Failed() {
			os.RemoveAll(dir)
		} else {
			t.Logf("TLC's directory (logs, models): %s", dir)
		}
	}()
	res, err := Check(jar, tlaDir, dir, b, 30*time.Minute)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("%s: TLC checked %d logs: exit %d, %d distinct states, %s",
		name, len(b.Logs), res.Exit, res.Distinct, res.Elapsed.Round(100*time.Millisecond))
	if want {
		t.Logf("METRIC trace_logs=%d trace_states=%d", len(b.Logs), res.Distinct)
		if !res.OK() {
			t.Errorf("%s: %s", name, res.Mismatch)
		}
	}
	return res
}
