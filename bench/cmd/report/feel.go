package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// What users feel besides throughput (bench/feel_test.go): idle CPU and wake latency, in units
// of their own, and the price of the rescue of stranded tasks (the impl-norescue peer).

// feelWorkloads are the benchmarks that report their own units instead of ns/task; parse
// leaves them to parseFeel.
var feelWorkloads = map[string]bool{"IdleCPU": true, "WakeLatency": true}

// feelRow is one peer's results for one case (load=idle, from=spawn, ...) of a feel
// benchmark, over the runs: per unit, one value per run.
type feelRow struct {
	Workload, Case, Peer string
	Vals                 map[string][]float64
}

func (r *feelRow) median(unit string) float64 { return median(r.Vals[unit]) }

// parseFeel reads the feel benchmarks' results out of `go test -bench` output.
func parseFeel(r io.Reader, fileName string) ([]*feelRow, error) {
	var rows []*feelRow
	byKey := map[string]*feelRow{}
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		workload, peer, kase, _, err := nameKeys(res)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fileName, err)
		}
		if !feelWorkloads[workload] {
			continue
		}
		key := workload + "\x00" + kase + "\x00" + peer
		row := byKey[key]
		if row == nil {
			row = &feelRow{Workload: workload, Case: kase, Peer: peer, Vals: map[string][]float64{}}
			byKey[key] = row
			rows = append(rows, row)
		}
		for unit, val := range resultValues(res) {
			row.Vals[unit] = append(row.Vals[unit], val)
		}
	}
	return rows, rd.Err()
}

// nameKeys splits a result's name: the workload (without "Benchmark"), the /peer= value, the
// other /key=value parts, and GOMAXPROCS (1 when the name has no -N suffix: go test leaves it
// out then).
func nameKeys(res *benchfmt.Result) (workload, peer, kase string, procs int, err error) {
	base, parts := res.Name.Parts()
	workload, procs = strings.TrimPrefix(string(base), "Benchmark"), 1
	var cases []string
	for _, p := range parts {
		switch {
		case bytes.HasPrefix(p, []byte("/peer=")):
			peer = string(p[len("/peer="):])
		case bytes.HasPrefix(p, []byte("/")):
			cases = append(cases, string(p[1:]))
		case bytes.HasPrefix(p, []byte("-")):
			if procs, err = strconv.Atoi(string(p[1:])); err != nil {
				return "", "", "", 0, fmt.Errorf("%s: GOMAXPROCS suffix %q", res.Name.Full(), p)
			}
		}
	}
	return workload, peer, strings.Join(cases, "/"), procs, nil
}

// resultValues are a result's values in the units the benchmark printed them in.
func resultValues(res *benchfmt.Result) map[string]float64 {
	vals := map[string]float64{}
	for _, v := range res.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		vals[unit] = val
	}
	return vals
}

// feelPeerOrder lists the peers in the order they first appear.
func feelPeerOrder(rows []*feelRow, workload string) []string {
	var ps []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Workload == workload && !seen[r.Peer] {
			seen[r.Peer] = true
			ps = append(ps, r.Peer)
		}
	}
	return ps
}

func findFeel(rows []*feelRow, workload, kase, peer string) *feelRow {
	for _, r := range rows {
		if r.Workload == workload && r.Case == kase && r.Peer == peer {
			return r
		}
	}
	return nil
}

// feelCell is a median with its ratio to the goroutines row's in the same column.
func feelCell(rows []*feelRow, workload, kase, peer, unit string, scale float64) string {
	r := findFeel(rows, workload, kase, peer)
	if r == nil || len(r.Vals[unit]) == 0 {
		return "–"
	}
	v := r.median(unit)
	s := fmtNum(v * scale)
	if b := findFeel(rows, workload, kase, "goroutines"); b != nil && peer != "goroutines" && len(b.Vals[unit]) > 0 {
		s += " (" + fmtRatio(v/b.median(unit)) + ")"
	}
	return s
}

// feelMarkdown is the section on idle CPU and wake latency; empty when the run has neither.
func feelMarkdown(rows []*feelRow) string {
	if len(rows) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("## What users feel\n\n")
	sb.WriteString("Medians over the runs; in parentheses, the ratio to the goroutines row of the " +
		"same column, measured in the same run. Lower is better.\n\n")
	if ps := feelPeerOrder(rows, "IdleCPU"); len(ps) > 0 {
		sb.WriteString("### Idle CPU\n\n")
		sb.WriteString("CPU seconds the whole test process uses per wall second (user and system, " +
			"from getrusage), while the peer has nothing to do and while the benchmark goroutine " +
			"spawns one empty task into it from outside every 1 ms and every 100 µs " +
			"(BenchmarkIdleCPU). The benchmark goroutine's own sleeps and wakes are in every row; " +
			"the goroutines row is that floor. *tasks/s* is the rate the trickle reached.\n\n")
		sb.WriteString("| peer | idle | 1 ms trickle | 100 µs trickle | tasks/s at 100 µs |\n| --- | ---: | ---: | ---: | ---: |\n")
		for _, p := range ps {
			rate := "–"
			if r := findFeel(rows, "IdleCPU", "load=100us", p); r != nil {
				rate = fmtNum(r.median("tasks/s"))
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s |\n", p,
				feelCell(rows, "IdleCPU", "load=idle", p, "cpu-s/s", 1),
				feelCell(rows, "IdleCPU", "load=1ms", p, "cpu-s/s", 1),
				feelCell(rows, "IdleCPU", "load=100us", p, "cpu-s/s", 1), rate)
		}
		sb.WriteString("\n")
	}
	if ps := feelPeerOrder(rows, "WakeLatency"); len(ps) > 0 {
		sb.WriteString("### Wake latency\n\n")
		sb.WriteString("Microseconds from the call that makes a task runnable to the start of its " +
			"run, the peer having been left idle for 200 µs before each sample (BenchmarkWakeLatency): " +
			"a spawn from outside, and a Wake from outside of a task waiting on its waker (the " +
			"goroutines row sends on the channel a goroutine waits on; the pools, which have no " +
			"waiting task, submit the continuation). p50 and p99 are over one run's samples, " +
			"then the median over the runs; *samples* is one run's count.\n\n")
		sb.WriteString("| peer | spawn p50 µs | spawn p99 µs | wake p50 µs | wake p99 µs | samples |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, p := range ps {
			n := "–"
			if r := findFeel(rows, "WakeLatency", "from=spawn", p); r != nil {
				n = fmtNum(r.median("samples"))
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s |\n", p,
				feelCell(rows, "WakeLatency", "from=spawn", p, "p50-ns", 1e-3),
				feelCell(rows, "WakeLatency", "from=spawn", p, "p99-ns", 1e-3),
				feelCell(rows, "WakeLatency", "from=wake", p, "p50-ns", 1e-3),
				feelCell(rows, "WakeLatency", "from=wake", p, "p99-ns", 1e-3), n)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// rescueOn and rescueOff are the production runtime with the rescue of stranded tasks on (the
// default, LongPoll 1 ms) and off (LongPoll < 0), both with the channel parker.
const (
	rescueOn  = "impl-channel"
	rescueOff = "impl-norescue"
)

// rescueMarkdown is the section on what the rescue of stranded tasks costs: every workload
// with it on and off, in the same run. Empty when the run has no impl-norescue row.
func rescueMarkdown(groups []*group, feel []*feelRow) string {
	var sb strings.Builder
	for _, g := range groups {
		on, off := findRow(g, rescueOn), findRow(g, rescueOff)
		if on == nil || off == nil {
			continue
		}
		if sb.Len() == 0 {
			sb.WriteString("## The rescue's price\n\n")
			sb.WriteString("The monitor's rescue of tasks stranded behind a poll that does not return " +
				"(docs/scheduler.md, \"Stranding\") is on by default; `LongPoll < 0` switches it off " +
				"(" + rescueOff + "). *on/off* is " + rescueOn + "'s median over " + rescueOff + "'s, " +
				"from the same run: above ×1 the rescue costs that much. With it off the explorer's " +
				"stranding scenarios strand (explore/scenarios, TestExploreStrandingWithRescueOff); with it " +
				"on they pass.\n\n")
			sb.WriteString("| workload | rescue on ns/task | rescue off ns/task | on/off | intervals overlap |\n| --- | ---: | ---: | ---: | --- |\n")
		}
		overlap := "no"
		if on.Ns.Lo <= off.Ns.Hi && off.Ns.Lo <= on.Ns.Hi {
			overlap = "yes (within noise)"
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s |\n", g.Workload, fmtNum(on.Ns.Center), fmtNum(off.Ns.Center),
			fmtRatio(on.Ns.Center/off.Ns.Center), overlap)
	}
	for _, c := range []struct{ kase, unit, label string }{
		{"load=idle", "cpu-s/s", "IdleCPU idle (cpu-s/s)"},
		{"load=1ms", "cpu-s/s", "IdleCPU 1 ms trickle (cpu-s/s)"},
		{"load=100us", "cpu-s/s", "IdleCPU 100 µs trickle (cpu-s/s)"},
	} {
		on, off := findFeel(feel, "IdleCPU", c.kase, rescueOn), findFeel(feel, "IdleCPU", c.kase, rescueOff)
		if on == nil || off == nil || sb.Len() == 0 {
			continue
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | – |\n", c.label, fmtNum(on.median(c.unit)), fmtNum(off.median(c.unit)),
			fmtRatio(on.median(c.unit)/off.median(c.unit)))
	}
	if sb.Len() > 0 {
		sb.WriteString("\n")
	}
	return sb.String()
}
