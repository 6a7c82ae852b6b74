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
	// Extra lines of the configuration (e.g. a VIEW is not wanted here).
}

// Result is what TLC said about a batch.
type Result struct {
	Exit     int           // 0: every log is a behaviour; 11: one is not
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
	cfg += "CHECK_DEADLOCK TRUE\n"
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
		res.Mismatch = mismatch(res.Output, b.Logs)
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
