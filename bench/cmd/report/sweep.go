package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// The sweep: the scheduler workloads at several GOMAXPROCS values (go test -cpu), ns/task
// against processors per workload and peer.

// sweepBench selects the scheduler workloads for the sweep's run.
const sweepBench = "^Benchmark(SpawnManyLocal|SpawnManyRemoteIdle|SpawnManyRemoteBusy|YieldMany|PingPong|ChainedSpawn)$"

// sweepRow is one peer's ns/task on one workload, per GOMAXPROCS, over the runs.
type sweepRow struct {
	Workload, Peer string
	Ns             map[int][]float64 // GOMAXPROCS -> one value per run
}

// parseSweep reads `go test -cpu LIST -bench` output. A name without a -N suffix ran with
// GOMAXPROCS 1 (go test leaves the suffix out then).
func parseSweep(r io.Reader, fileName string) ([]*sweepRow, []int, error) {
	var rows []*sweepRow
	byKey := map[string]*sweepRow{}
	procsSeen := map[int]bool{}
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		workload, peer, _, procs, err := nameKeys(res)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", fileName, err)
		}
		ns, ok := resultValues(res)["ns/task"]
		if peer == "" || !ok {
			continue
		}
		key := workload + "\x00" + peer
		row := byKey[key]
		if row == nil {
			row = &sweepRow{Workload: workload, Peer: peer, Ns: map[int][]float64{}}
			byKey[key] = row
			rows = append(rows, row)
		}
		row.Ns[procs] = append(row.Ns[procs], ns)
		procsSeen[procs] = true
	}
	var procs []int
	for p := range procsSeen {
		procs = append(procs, p)
	}
	sort.Ints(procs)
	return rows, procs, rd.Err()
}

// sweepMarkdown is the "Scale in cores" section; empty without a sweep.
func sweepMarkdown(rows []*sweepRow, procs []int, cmdline string) string {
	if len(rows) == 0 || len(procs) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("## Scale in cores\n\n")
	fmt.Fprintf(&sb, "The scheduler workloads at each GOMAXPROCS (`%s`): median ns/task per "+
		"processor count, from one run, and the last column's over the first's (below ×1: "+
		"faster with more processors). Every peer keeps its 4 workers. On a larger machine, "+
		"`go run ./cmd/report -sweep 1,2,4,8` (up to its nproc) adds the columns.\n\n", cmdline)
	var workloads []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Workload] {
			seen[r.Workload] = true
			workloads = append(workloads, r.Workload)
		}
	}
	for _, w := range workloads {
		fmt.Fprintf(&sb, "### %s (sweep)\n\n| peer |", w)
		for _, p := range procs {
			fmt.Fprintf(&sb, " P=%d |", p)
		}
		fmt.Fprintf(&sb, " P=%d ÷ P=%d |\n| --- |%s ---: |\n", procs[len(procs)-1], procs[0], strings.Repeat(" ---: |", len(procs)))
		for _, r := range rows {
			if r.Workload != w {
				continue
			}
			fmt.Fprintf(&sb, "| %s |", r.Peer)
			for _, p := range procs {
				fmt.Fprintf(&sb, " %s |", fmtNum(median(r.Ns[p])))
			}
			fmt.Fprintf(&sb, " %s |\n", fmtRatio(median(r.Ns[procs[len(procs)-1]])/median(r.Ns[procs[0]])))
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
