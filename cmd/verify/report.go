package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// report prints the closing table, failing layers first with their evidence.
func report(w io.Writer, rs []result, total time.Duration) {
	for _, r := range rs {
		if r.status != statusFail {
			continue
		}
		fmt.Fprintf(w, "\nFAILED: %s\n", r.layer.title)
		if r.why != "" {
			fmt.Fprintf(w, "  %s\n", r.why)
		}
		for _, f := range r.failed {
			fmt.Fprintf(w, "  failing test: %s\n", f)
		}
		for _, e := range r.evidence {
			fmt.Fprintf(w, "  evidence: %s\n", e)
		}
		for _, l := range r.logs {
			fmt.Fprintf(w, "  log: %s\n", l)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "layer\tresult\ttime\tcpu\twhat was checked")
	fmt.Fprintln(tw, "-----\t------\t----\t---\t----------------")
	var cpu cpuTime
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.layer.name, r.status, r.took.Round(100*time.Millisecond), cpuAndCores(r.cpu, r.took), r.summary())
		cpu.add(r.cpu)
	}
	tw.Flush()
	fmt.Fprintf(w, "total %s", total.Round(time.Second))
	if s := cpuAndCores(cpu, total); s != "" {
		fmt.Fprintf(w, ", cpu %s", s)
	}
	fmt.Fprintln(w)
}

// doneLine is the line printed when a layer ends: its result, wall time
// and, when known, CPU.
func doneLine(r result) string {
	s := fmt.Sprintf("      -> %s in %s", r.status, r.took.Round(100*time.Millisecond))
	if c := cpuAndCores(r.cpu, r.took); c != "" {
		s += " (cpu " + c + ")"
	}
	return s
}

func (r result) summary() string {
	if r.status == statusSkip {
		return r.why
	}
	var parts []string
	if len(r.packages) > 0 {
		parts = append(parts, fmt.Sprintf("%d packages, %d tests passed", len(r.packages), r.passed))
	}
	if n := len(r.failed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d FAILED", n))
	}
	if n := len(r.skipped); n > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped (%s)", n, strings.Join(r.skipped, ", ")))
	}
	if len(r.metrics) > 0 {
		parts = append(parts, r.metrics.String())
	}
	if len(parts) == 0 && r.status == statusFail {
		return r.why
	}
	if len(parts) == 0 && r.status == statusPass {
		return fmt.Sprintf("%d commands passed", len(r.logs))
	}
	return strings.Join(parts, "; ")
}
