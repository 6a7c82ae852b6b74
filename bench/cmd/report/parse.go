package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// confidence is the level of the intervals around each median, as benchstat reports them.
const confidence = 0.95

// row is one peer's results for one workload, over all the runs of a report.
type row struct {
	Workload string // benchmark name without the "Benchmark" prefix
	Peer     string // the value of the /peer= sub-benchmark key

	NsPerTask     []float64 // one value per run
	AllocsPerTask []float64
	BytesPerTask  []float64
	TasksPerOp    float64

	// filled by summarize
	Ns     benchmath.Summary // median and 95% interval of NsPerTask
	Min    float64
	Max    float64
	Allocs float64 // median of AllocsPerTask
	Bytes  float64 // median of BytesPerTask
}

// group is one workload's rows, in the order the benchmarks ran.
type group struct {
	Workload string
	Rows     []*row
}

// header holds the configuration lines go test prints above the results.
type header struct {
	GOOS, GOARCH, CPU, Pkg string
	Procs                  string // GOMAXPROCS, from the -N suffix of the names
}

// parse reads `go test -bench` output. Benchmarks without a /peer= key are ignored.
func parse(r io.Reader, fileName string) ([]*group, header, error) {
	var hdr header
	var groups []*group
	byWorkload := map[string]*group{}
	byKey := map[string]*row{}
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, hdr, rec
		case *benchfmt.Result:
			hdr.GOOS = rec.GetConfig("goos")
			hdr.GOARCH = rec.GetConfig("goarch")
			hdr.CPU = rec.GetConfig("cpu")
			hdr.Pkg = rec.GetConfig("pkg")
			base, parts := rec.Name.Parts()
			workload := strings.TrimPrefix(string(base), "Benchmark")
			var peer string
			for _, p := range parts {
				switch {
				case bytes.HasPrefix(p, []byte("/peer=")):
					peer = string(p[len("/peer="):])
				case bytes.HasPrefix(p, []byte("-")):
					hdr.Procs = string(p[1:])
				}
			}
			if peer == "" || feelWorkloads[workload] { // feel benchmarks: parseFeel
				continue
			}
			vals := resultValues(rec)
			ns, okNs := vals["ns/task"]
			tasks, okTasks := vals["tasks/op"]
			if !okNs || !okTasks || tasks <= 0 {
				return nil, hdr, fmt.Errorf("%s: %s lacks ns/task or tasks/op", fileName, rec.Name.Full())
			}
			g := byWorkload[workload]
			if g == nil {
				g = &group{Workload: workload}
				byWorkload[workload] = g
				groups = append(groups, g)
			}
			key := workload + "\x00" + peer
			rw := byKey[key]
			if rw == nil {
				rw = &row{Workload: workload, Peer: peer, TasksPerOp: tasks}
				byKey[key] = rw
				g.Rows = append(g.Rows, rw)
			}
			rw.NsPerTask = append(rw.NsPerTask, ns)
			if a, ok := vals["allocs/op"]; ok {
				rw.AllocsPerTask = append(rw.AllocsPerTask, a/tasks)
			}
			if by, ok := vals["B/op"]; ok {
				rw.BytesPerTask = append(rw.BytesPerTask, by/tasks)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, hdr, err
	}
	if len(groups) == 0 {
		return nil, hdr, fmt.Errorf("%s: no benchmark results with a /peer= key", fileName)
	}
	for _, g := range groups {
		for _, r := range g.Rows {
			r.summarize()
		}
	}
	sortGroups(groups)
	return groups, hdr, nil
}

func (r *row) summarize() {
	s := benchmath.NewSample(append([]float64(nil), r.NsPerTask...), &benchmath.DefaultThresholds)
	r.Ns = benchmath.AssumeNothing.Summary(s, confidence)
	r.Min, r.Max = s.Values[0], s.Values[len(s.Values)-1]
	r.Allocs = median(r.AllocsPerTask)
	r.Bytes = median(r.BytesPerTask)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// sortGroups puts the workloads in the order the page describes them; unknown ones keep
// their order of appearance, after the known ones.
func sortGroups(groups []*group) {
	rank := map[string]int{}
	for i, w := range workloadDocs {
		rank[w.Name] = i
	}
	key := func(g *group) int {
		if r, ok := rank[g.Workload]; ok {
			return r
		}
		return len(workloadDocs)
	}
	sort.SliceStable(groups, func(i, j int) bool { return key(groups[i]) < key(groups[j]) })
}
