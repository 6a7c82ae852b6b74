//go:build tlatrace

package trace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wsched/wsched/internal/tlcjar"
)

// Jar is the TLC jar: TLA2TOOLS_JAR, else ../shared/tools/tla2tools.jar
// beside the repository's root, else "" (internal/tlcjar).
func Jar() string { return tlcjar.Find() }

// Batch is a set of logs that TLC checks in one run.
type Batch struct {
	Spec      string   // the protocol's module, e.g. "ThreePhaseSteal"
	Constants string   // the CONSTANTS section of the configuration
	Logs      []string // each a TLA+ sequence of records
	// Invariants of the spec to check along every log.
	Invariants []string
	// Post, when set, is the trace module's POSTCONDITION that says
	// whether every log matched (a trace module that leaves variables
	// free, where a log is accepted if SOME behaviour matches it all:
	// TraceIdleProtocol). Without it, a log is rejected by a deadlock
	// (a trace module that observes every variable: TraceThreePhaseSteal).
	Post string
	// Mutate, when set, rewrites the spec's text before TLC reads it
	// (a mutant of the spec).
	Mutate func(spec string) (string, error)
}

// Result is what TLC said about a batch.
type Result struct {
	Exit     int           // 0: every log is a behaviour; 11 (10 with Post): one is not
	Distinct int           // distinct states
	Elapsed  time.Duration // TLC's run, JVM start included
	Output   string        // TLC's output
	Mismatch string        // on exit 11: the log, the record not allowed, the state there
}

// OK reports whether every log of the batch was accepted.
func (r Result) OK() bool { return r.Exit == 0 }

var distinctRE = regexp.MustCompile(`([0-9,]+) states generated, ([0-9,]+) distinct states found`)

// Check runs TLC (-workers 1) on the batch, in a temporary directory dir
// that gets the spec, its trace module Trace<Spec>.tla (read from tlaDir)
// and a generated MC module holding the logs.
func Check(jar, tlaDir, dir string, b Batch, limit time.Duration) (Result, error) {
	for _, f := range []string{b.Spec + ".tla", "Trace" + b.Spec + ".tla"} {
		src, err := os.ReadFile(filepath.Join(tlaDir, f))
		if err != nil {
			return Result{}, err
		}
		if f == b.Spec+".tla" && b.Mutate != nil {
			s, err := b.Mutate(string(src))
			if err != nil {
				return Result{}, err
			}
			src = []byte(s)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			return Result{}, err
		}
	}
	mc := "MC" + b.Spec
	var m strings.Builder
	fmt.Fprintf(&m, "---- MODULE %s ----\nEXTENDS Trace%s\n\nMCLogs == <<\n", mc, b.Spec)
	for j, l := range b.Logs {
		if j > 0 {
			m.WriteString(",\n")
		}
		m.WriteString(l)
	}
	m.WriteString("\n>>\n====\n")
	if err := os.WriteFile(filepath.Join(dir, mc+".tla"), []byte(m.String()), 0o644); err != nil {
		return Result{}, err
	}
	cfg := b.Constants + "    Logs <- MCLogs\nINIT TraceInit\nNEXT TraceNext\n"
	if len(b.Invariants) > 0 {
		cfg += "INVARIANTS " + strings.Join(b.Invariants, " ") + "\n"
	}
	if b.Post != "" {
		cfg += "POSTCONDITION " + b.Post + "\nCHECK_DEADLOCK FALSE\n"
	} else {
		cfg += "CHECK_DEADLOCK TRUE\n"
	}
	if err := os.WriteFile(filepath.Join(dir, mc+".cfg"), []byte(cfg), 0o644); err != nil {
		return Result{}, err
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return Result{}, fmt.Errorf("java is not on PATH: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-XX:+UseParallelGC", "-Xss64m", "-cp", jar, "tlc2.TLC",
		"-workers", "1", "-metadir", filepath.Join(dir, "states"), "-noGenerateSpecTE",
		"-config", mc+".cfg", mc+".tla")
	cmd.Dir = dir
	began := time.Now()
	out, err := cmd.CombinedOutput()
	res := Result{Elapsed: time.Since(began), Output: string(out), Distinct: -1}
	if ctx.Err() != nil {
		return res, fmt.Errorf("TLC did not finish within %s", limit)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return res, fmt.Errorf("running TLC: %v", err)
		}
		res.Exit = ee.ExitCode()
	}
	if ms := distinctRE.FindAllStringSubmatch(res.Output, -1); len(ms) > 0 {
		res.Distinct, _ = strconv.Atoi(strings.ReplaceAll(ms[len(ms)-1][2], ",", ""))
	}
	switch res.Exit {
	case 0:
		if res.Distinct < 0 {
			return res, errors.New("TLC passed but printed no state count")
		}
	case 11:
		if b.Post != "" {
			return res, fmt.Errorf("TLC found a deadlock in a trace module that leaves variables free; full output %s", save(res.Output))
		}
		res.Mismatch = mismatch(res.Output, b.Logs)
	case 10:
		if b.Post == "" || !strings.Contains(res.Output, "TRACE-REJECTED") {
			return res, fmt.Errorf("TLC exit 10 (an invariant or a postcondition violated); full output %s; from its first error:\n%s",
				save(res.Output), fromError(res.Output, 6000))
		}
		res.Mismatch = rejected(res.Output, b.Logs)
	default:
		return res, fmt.Errorf("TLC exit %d (not 0, every log accepted, nor 11, a log rejected); full output %s; from its first error:\n%s",
			res.Exit, save(res.Output), fromError(res.Output, 6000))
	}
	if res.Exit != 0 {
		res.Mismatch += "\nfull TLC output: " + save(res.Output)
	}
	return res, nil
}

var (
	lgRE = regexp.MustCompile(`(?m)^/\\ lg = (\d+)`)
	iRE  = regexp.MustCompile(`(?m)^/\\ i = (\d+)`)
)

// mismatch reads TLC's deadlock trace: the last state shows the log (lg)
// and how many of its records matched (i); the record after them is the
// one the spec does not allow.
func mismatch(out string, logs []string) string {
	lgs, is := lgRE.FindAllStringSubmatch(out, -1), iRE.FindAllStringSubmatch(out, -1)
	if len(lgs) == 0 || len(is) == 0 {
		return "TLC reports a deadlock, but its trace shows no lg and i:\n" + tail(out, 6000)
	}
	lg, _ := strconv.Atoi(lgs[len(lgs)-1][1])
	i, _ := strconv.Atoi(is[len(is)-1][1])
	var rec string
	if lg >= 1 && lg <= len(logs) {
		recs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(logs[lg-1], "<<"), ">>"), ",\n")
		if i < len(recs) {
			rec = recs[i]
		}
		lo := max(0, i-6)
		rec = fmt.Sprintf("records %d..%d of log %d (record %d is not allowed):\n  %s", lo+1, i+1, lg, i+1,
			strings.Join(recs[lo:min(i+1, len(recs))], "\n  "))
	}
	st := out
	if k := strings.LastIndex(out, "State "); k >= 0 {
		st = out[k:]
	}
	return fmt.Sprintf("log %d is not a behaviour of the spec: after %d records, %s\nthe state there (TLC):\n%s", lg, i, rec, tail(st, 4000))
}

var (
	rejectedRE = regexp.MustCompile(`(?s)<<\s*"TRACE-REJECTED",\s*(.*?)\s*>>`)
	farRE      = regexp.MustCompile(`(\d+) :> (\d+)`)
)

// rejected reads TraceAccepted's print: for each log not matched to its
// end, how many of its records some behaviour matched. It names the first
// such log's record that no behaviour allows, with the records before it.
func rejected(out string, logs []string) string {
	m := rejectedRE.FindStringSubmatch(out)
	if m == nil {
		return "TLC's postcondition failed, but printed no TRACE-REJECTED:\n" + tail(out, 4000)
	}
	far := map[int]int{}
	if strings.HasPrefix(m[1], "<<") { // the function's domain is 1..n: TLC prints a tuple
		for k, f := range strings.Split(strings.Trim(m[1], "<>"), ",") {
			far[k+1], _ = strconv.Atoi(strings.TrimSpace(f))
		}
	} else {
		for _, f := range farRE.FindAllStringSubmatch(m[1], -1) {
			l, _ := strconv.Atoi(f[1])
			far[l], _ = strconv.Atoi(f[2])
		}
	}
	lgs := make([]int, 0, len(far))
	for l := range far {
		lgs = append(lgs, l)
	}
	sort.Ints(lgs)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d logs are not behaviours of the spec (log: records matched): %v\n", len(far), len(logs), m[1])
	if len(lgs) > 0 && lgs[0] <= len(logs) {
		l, i := lgs[0], far[lgs[0]]
		recs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(logs[l-1], "<<"), ">>"), ",\n")
		lo := max(0, i-8)
		fmt.Fprintf(&b, "log %d: no behaviour of the spec matches record %d; records %d..%d:\n  %s", l, i+1, lo+1, min(i+1, len(recs)),
			strings.Join(recs[lo:min(i+1, len(recs))], "\n  "))
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "...\n" + s[len(s)-n:]
	}
	return s
}

// save keeps TLC's output past the test's temporary directory.
func save(out string) string {
	f, err := os.CreateTemp("", "tlc-trace-*.out")
	if err != nil {
		return "(not saved: " + err.Error() + ")"
	}
	defer f.Close()
	f.WriteString(out)
	return f.Name()
}

// fromError is out from its first "Error:" on, at most n bytes.
func fromError(out string, n int) string {
	if k := strings.Index(out, "Error:"); k >= 0 {
		out = out[k:]
	}
	if len(out) > n {
		out = out[:n] + "\n..."
	}
	return out
}
