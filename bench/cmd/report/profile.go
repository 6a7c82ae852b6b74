package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The time breakdown: for each scheduler workload, one CPU-profiled run of the production
// scheduler (channel parker), every profile sample attributed to one category by the frames
// on its stack, and the category's share turned into CPU nanoseconds per task.

// profiledWorkloads are the benchmarks -profile runs, in the page's order.
var profiledWorkloads = []string{
	"SpawnManyLocal", "SpawnManyRemoteIdle", "SpawnManyRemoteBusy",
	"YieldMany", "PingPong", "ChainedSpawn",
}

// profiledPeer is the row the breakdown is taken from.
const profiledPeer = "impl-channel"

// A category is one part of a task's cost. A sample belongs to the category with the
// smallest index among those that match any frame of its stack: a malloc called from a
// ring push is allocation, a ring push called from a task body is the ring, and a channel
// receive inside the parker is parking, not the Go scheduler.
type category struct {
	name   string
	frames []string // prefixes of function names
}

var categories = []category{
	{"allocation and garbage collection", []string{
		"runtime.mallocgc", "runtime.newobject", "runtime.makeslice", "runtime.growslice",
		"runtime.makechan", "runtime.gcBgMarkWorker", "runtime.gcDrain", "runtime.gcAssist",
		"runtime.gcStart", "runtime.gcMark", "runtime.markroot", "runtime.wbBufFlush",
		"gcWriteBarrier", "runtime.bgsweep", "runtime.bgscavenge", "runtime.sweepone",
		"runtime.(*mheap)", "runtime.(*mcentral)", "runtime.(*sweepLocked)",
	}},
	{"idle protocol and parking (impl/idle, impl/park)", []string{
		"github.com/wsched/wsched/impl/idle.", "github.com/wsched/wsched/impl/park.",
		"github.com/wsched/wsched/impl/sched.(*worker).park",
		"github.com/wsched/wsched/impl/sched.(*Runtime).notify",
		"github.com/wsched/wsched/impl/sched.(*Runtime).workAvailable",
	}},
	{"global queue (queue.Global)", []string{"github.com/wsched/wsched/impl/queue.(*Global"}},
	{"ring: push, pop, steal (queue.Ring)", []string{"github.com/wsched/wsched/impl/queue.(*Ring"}},
	{"task state machine and join", []string{
		"github.com/wsched/wsched/impl/sched.(*task).", "github.com/wsched/wsched/impl/sched.(*JoinHandle)",
	}},
	{"Go scheduler: goroutine switches, Gosched, channels", []string{
		"runtime.mcall", "runtime.schedule", "runtime.findRunnable", "runtime.gosched",
		"runtime.Gosched", "runtime.park_m", "runtime.chansend", "runtime.chanrecv",
		"runtime.closechan", "runtime.selectgo", "runtime.goready", "runtime.ready",
		"runtime.wakep", "runtime.startm", "runtime.stopm", "runtime.sysmon", "runtime.mstart",
		"runtime.morestack", "runtime.newstack", "runtime.newproc", "runtime.goexit0",
	}},
	{"the workload's own code (task bodies, counters, signals)", []string{"github.com/wsched/wsched/bench."}},
	{"worker loop: findWork, execute, tick, spawn", []string{"github.com/wsched/wsched/impl/sched."}},
}

// otherCategory collects samples that match no category.
const otherCategory = "other"

// breakdown is one profiled workload.
type breakdown struct {
	Workload   string
	Tasks      float64                  // tasks run while the profile was on
	WallPerOp  float64                  // ns/task of that run (wall clock)
	CPU        time.Duration            // total sampled CPU time
	ByCategory map[string]time.Duration // sampled CPU time per category
}

// cpuPerTask is the sampled CPU time per task of category c, in ns.
func (b *breakdown) cpuPerTask(c string) float64 {
	if b.Tasks == 0 {
		return 0
	}
	return float64(b.ByCategory[c]) / b.Tasks
}

// profileAll runs every profiled workload with -cpuprofile in dir and returns the
// breakdowns.
func profileAll(dir, benchtime string) ([]*breakdown, error) {
	bin := filepath.Join(dir, "bench.test")
	var out []*breakdown
	for _, w := range profiledWorkloads {
		prof := filepath.Join(dir, w+".cpu")
		args := []string{"test", "-run", "^$", "-bench", "^Benchmark" + w + "$/^peer=" + profiledPeer + "$",
			"-benchtime", benchtime, "-count", "1", "-cpuprofile", prof, "-o", bin, "."}
		fmt.Fprintf(os.Stderr, "report: profiling %s: go %s\n", w, shellJoin(args))
		res, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("go %s: %v\n%s", shellJoin(args), err, res)
		}
		b, err := benchLine(res)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", w, err)
		}
		b.Workload = w
		traces, err := exec.Command("go", "tool", "pprof", "-traces", bin, prof).Output()
		if err != nil {
			return nil, fmt.Errorf("go tool pprof -traces %s: %v", prof, err)
		}
		if err := b.addTraces(bytes.NewReader(traces)); err != nil {
			return nil, fmt.Errorf("%s: %v", w, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// benchLineRE matches a benchmark result line with its iteration count, ns/task and
// tasks/op metrics.
var benchLineRE = regexp.MustCompile(`^Benchmark\S+\s+(\d+)\s+.*?([\d.]+) ns/task\s+([\d.]+) tasks/op`)

// benchLine reads the single benchmark result of a profiling run.
func benchLine(out []byte) (*breakdown, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		ns, _ := strconv.ParseFloat(m[2], 64)
		perOp, _ := strconv.ParseFloat(m[3], 64)
		return &breakdown{Tasks: n * perOp, WallPerOp: ns, ByCategory: map[string]time.Duration{}}, nil
	}
	return nil, fmt.Errorf("no benchmark result with ns/task and tasks/op in:\n%s", out)
}

// addTraces attributes every sample of `go tool pprof -traces` output. A sample is a block
// between separator lines: its first line is the value and the leaf function, each further
// line one caller.
func (b *breakdown) addTraces(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var value time.Duration
	var stack []string
	flush := func() {
		if len(stack) > 0 {
			c := categorize(stack)
			b.ByCategory[c] += value
			b.CPU += value
		}
		stack, value = stack[:0], 0
	}
	inSamples := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-----------+") {
			flush()
			inSamples = true
			continue
		}
		if !inSamples || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(stack) == 0 && value == 0 {
			if len(fields) < 2 {
				return fmt.Errorf("sample line %q: want a value and a function", line)
			}
			d, err := time.ParseDuration(fields[0])
			if err != nil {
				return fmt.Errorf("sample line %q: %v", line, err)
			}
			value = d
			stack = append(stack, fields[1])
			continue
		}
		stack = append(stack, fields[0])
	}
	flush()
	if err := sc.Err(); err != nil {
		return err
	}
	if b.CPU == 0 {
		return fmt.Errorf("the profile has no samples")
	}
	return nil
}

// categorize returns the category of a sample whose stack is frames, leaf first.
func categorize(frames []string) string {
	best := len(categories)
	for _, f := range frames {
		for i := 0; i < best; i++ {
			for _, p := range categories[i].frames {
				if strings.HasPrefix(f, p) {
					best = i
					break
				}
			}
		}
	}
	if best == len(categories) {
		return otherCategory
	}
	return categories[best].name
}

// breakdownMarkdown is the "Where the time goes" section.
func breakdownMarkdown(bs []*breakdown, benchtime string) string {
	var sb strings.Builder
	sb.WriteString("## Where the time goes\n\n")
	if len(bs) == 0 {
		sb.WriteString("No profile was taken in this run: `go run ./cmd/report -profile` adds a CPU " +
			"profile of each scheduler workload and this breakdown.\n\n")
		return sb.String()
	}
	fmt.Fprintf(&sb, "One CPU-profiled run per workload of the production scheduler with the channel "+
		"parker (`-bench '^BenchmarkW$/^peer=%s$' -benchtime %s -cpuprofile`), taken right after "+
		"the runs above. Every sample is attributed to the first category in this list that "+
		"matches a function on its stack (so a malloc made by a ring push counts as allocation, a "+
		"channel receive inside the parker as parking), and the category's share of the samples "+
		"is turned into **CPU ns per task** (sampled CPU time over the tasks of that run). CPU "+
		"time adds up over both cores, so with two busy workers it is up to twice the wall-clock "+
		"ns/task of the same run, shown in the last row.\n\n", profiledPeer, benchtime)
	sb.WriteString("| category |")
	for _, b := range bs {
		fmt.Fprintf(&sb, " %s |", b.Workload)
	}
	sb.WriteString("\n| --- |")
	for range bs {
		sb.WriteString(" ---: |")
	}
	sb.WriteString("\n")
	names := make([]string, 0, len(categories)+1)
	for _, c := range categories {
		names = append(names, c.name)
	}
	names = append(names, otherCategory)
	for _, c := range names {
		fmt.Fprintf(&sb, "| %s |", c)
		for _, b := range bs {
			share := 0.0
			if b.CPU > 0 {
				share = 100 * float64(b.ByCategory[c]) / float64(b.CPU)
			}
			fmt.Fprintf(&sb, " %s (%.0f%%) |", fmtNum(b.cpuPerTask(c)), share)
		}
		sb.WriteString("\n")
	}
	sb.WriteString("| **CPU ns per task, total** |")
	for _, b := range bs {
		fmt.Fprintf(&sb, " **%s** |", fmtNum(float64(b.CPU)/b.Tasks))
	}
	sb.WriteString("\n| wall-clock ns/task of the profiled run |")
	for _, b := range bs {
		fmt.Fprintf(&sb, " %s |", fmtNum(b.WallPerOp))
	}
	sb.WriteString("\n\n")
	return sb.String()
}
