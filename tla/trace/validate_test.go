//go:build tlatrace

package trace

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/wsched/wsched/impl/queue"
)

// stride is how many logs of a set go to TLC per one kept: def unless
// WSCHED_TRACE_STRIDE says otherwise (1: all).
func stride(t *testing.T, def int) int {
	if s := os.Getenv("WSCHED_TRACE_STRIDE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("WSCHED_TRACE_STRIDE=%q: want a positive integer", s)
		}
		return n
	}
	return def
}

// validate has TLC check logs (every stride-th) against ThreePhaseSteal
// with model's constants, in one run.
func validate(t *testing.T, jar, name string, model RingModel, logs []string, def int) {
	t.Helper()
	if model.CAP == 0 {
		model.CAP, model.M = queue.Capacity, 1024
	}
	checkBatch(t, jar, name, logs, def, Batch{
		Spec:       "ThreePhaseSteal",
		Constants:  model.Constants(),
		Invariants: []string{"TypeOK", "ExactlyOnce", "HeadOrder", "DstBound", "NoClobber"},
	}, true)
}

// validateIdle has TLC check logs (every stride-th) against IdleProtocol
// (mutated by mutate, when set) with model's constants, in one run, and
// returns TLC's result.
func validateIdle(t *testing.T, jar, name string, model IdleModel, logs []string, def int, mutate func(string) (string, error)) Result {
	t.Helper()
	// A mutant of the spec is checked for whether it matches the logs
	// only: its own invariants may fail along them (NoFinalCheck's do).
	inv, mutant := IdleInvariants, mutate != nil || model.Switch != ""
	if mutant {
		inv = nil
	}
	return checkBatch(t, jar, name, logs, def, Batch{
		Spec:       "IdleProtocol",
		Constants:  model.Constants(),
		Invariants: inv,
		Post:       "TraceAccepted",
		Mutate:     mutate,
	}, !mutant)
}

// checkBatch has TLC check every stride-th of logs as b's logs, in one
// run. For the unchanged spec (want) it reports the batch's size in
// verify's metrics and fails the test on a rejected log; for a mutant of
// the spec it only returns the result.
func checkBatch(t *testing.T, jar, name string, logs []string, def int, b Batch, want bool) Result {
	t.Helper()
	st := stride(t, def)
	for j := 0; j < len(logs); j += st {
		b.Logs = append(b.Logs, logs[j])
	}
	if st > 1 {
		t.Logf("%s: every %d of %d logs to TLC", name, st, len(logs))
	}
	return Validate(t, jar, "..", name, b, want)
}

// distinct keeps the logs of explored schedules, each once, in the order
// first seen.
type distinct struct {
	seen map[string]bool
	logs []string
}

func (d *distinct) add(s string) {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if !d.seen[s] {
		d.seen[s] = true
		d.logs = append(d.logs, s)
	}
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}
