package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// floorWorkload is the benchmark that prices the hardware operations a scheduler's hot
// path is made of (bench/floor_test.go); each of its cases is one operation.
const floorWorkload = "Floor"

// floorOps are BenchmarkFloor's cases, in the page's order, with the unit each reports its
// cost in and what the page calls it.
var floorOps = []struct{ Case, Unit, Name string }{
	{"op=locked-rmw", "ns/op", "locked read-modify-write (uncontended)"},
	{"op=alloc-16B", "ns/op", "heap allocation of 16 bytes, with its share of GC"},
	{"op=cacheline-transfer", "ns/transfer", "cache line moved between two cores"},
}

// floorCosts are the medians of BenchmarkFloor's cases, by case.
type floorCosts map[string]float64

// parseFloor reads BenchmarkFloor's results from go test -bench output: per case, the
// median of the unit floorOps names. Empty if the output has none.
func parseFloor(r io.Reader, fileName string) (floorCosts, error) {
	vals := map[string][]float64{}
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		workload, _, kase, _, err := nameKeys(res)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fileName, err)
		}
		if workload != floorWorkload {
			continue
		}
		for _, op := range floorOps {
			if op.Case != kase {
				continue
			}
			if v, ok := resultValues(res)[op.Unit]; ok {
				vals[kase] = append(vals[kase], v)
			}
		}
	}
	costs := floorCosts{}
	for k, v := range vals {
		costs[k] = median(v)
	}
	return costs, rd.Err()
}

// floorMarkdown is the page's "How far from the floor": the operations' costs in this run,
// then each scheduler workload's time, and the goal's (half the best other peer's), in
// units of them. Empty without BenchmarkFloor's results.
func floorMarkdown(groups []*group, costs floorCosts) string {
	if len(costs) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("## How far from the floor\n\n")
	sb.WriteString("What the hardware charges for the operations a scheduler's hot path is made of, " +
		"measured in the same run (BenchmarkFloor, medians). A cache-line transfer is half a round " +
		"trip of two goroutines taking turns writing one word: it needs both to run at once, so on a " +
		"loaded machine it measures the operating system's time slices instead.\n\n")
	sb.WriteString("| operation | ns |\n| --- | ---: |\n")
	for _, op := range floorOps {
		if v, ok := costs[op.Case]; ok {
			fmt.Fprintf(&sb, "| %s | %s |\n", op.Name, fmtNum(v))
		}
	}
	rmw, okR := costs["op=locked-rmw"]
	xfer, okX := costs["op=cacheline-transfer"]
	if !okR || !okX || rmw <= 0 || xfer <= 0 {
		sb.WriteString("\n")
		return sb.String()
	}
	sb.WriteString("\nEach scheduler workload's median ns/task (impl-channel) and its goal (half the best " +
		"other peer's, as in \"Against the goals\"), in locked read-modify-writes and in cache-line " +
		"transfers: a task that moves between cores costs at least a few transfers (its record, " +
		"the queue's indices), one that stays on its worker at least its locked operations.\n\n")
	sb.WriteString("| workload | ns/task | = locked RMWs | = transfers | goal ns/task | goal in transfers | over the goal |\n")
	sb.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	byName := map[string]*group{}
	for _, g := range groups {
		byName[g.Workload] = g
	}
	for _, w := range goalWorkloads {
		g := byName[w]
		if g == nil {
			continue
		}
		r := findRow(g, "impl-channel")
		best := bestOtherPeer(g)
		if r == nil || best == nil {
			continue
		}
		goal := best.Ns.Center / 2
		over := "–"
		if r.Ns.Center > goal {
			over = fmt.Sprintf("%s ns", fmtNum(r.Ns.Center-goal))
		}
		fmt.Fprintf(&sb, "| %s | %s | %.1f | %.1f | %s | %.1f | %s |\n", w, fmtNum(r.Ns.Center),
			r.Ns.Center/rmw, r.Ns.Center/xfer, fmtNum(goal), goal/xfer, over)
	}
	sb.WriteString("\n")
	return sb.String()
}
