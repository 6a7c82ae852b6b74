package main

import (
	"strings"
	"testing"
)

// feelSample has two runs of the feel benchmarks next to a scheduler workload with the rescue
// on and off.
const feelSample = `goos: linux
goarch: amd64
pkg: github.com/wsched/wsched/bench
cpu: Test CPU
BenchmarkChainedSpawn/peer=goroutines-2  10  300000 ns/op  300.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkChainedSpawn/peer=impl-channel-2  10  110000 ns/op  110.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkChainedSpawn/peer=impl-norescue-2  10  100000 ns/op  100.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkIdleCPU/load=idle/peer=goroutines-2  5  20000000 ns/op  0.010 cpu-s/s  0 tasks/s
BenchmarkIdleCPU/load=idle/peer=impl-channel-2  5  20000000 ns/op  0.020 cpu-s/s  0 tasks/s
BenchmarkIdleCPU/load=idle/peer=impl-norescue-2  5  20000000 ns/op  0.010 cpu-s/s  0 tasks/s
BenchmarkWakeLatency/from=spawn/peer=goroutines-2  100  1000000 ns/op  4000 p50-ns  30000 p99-ns  100 samples
BenchmarkWakeLatency/from=spawn/peer=impl-channel-2  100  1000000 ns/op  6000 p50-ns  60000 p99-ns  100 samples
BenchmarkChainedSpawn/peer=goroutines-2  10  300000 ns/op  300.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkChainedSpawn/peer=impl-channel-2  10  110000 ns/op  110.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkChainedSpawn/peer=impl-norescue-2  10  100000 ns/op  100.0 ns/task  1000 tasks/op  0 B/op  0 allocs/op
BenchmarkIdleCPU/load=idle/peer=goroutines-2  5  20000000 ns/op  0.030 cpu-s/s  0 tasks/s
BenchmarkIdleCPU/load=idle/peer=impl-channel-2  5  20000000 ns/op  0.040 cpu-s/s  0 tasks/s
BenchmarkIdleCPU/load=idle/peer=impl-norescue-2  5  20000000 ns/op  0.030 cpu-s/s  0 tasks/s
BenchmarkWakeLatency/from=spawn/peer=goroutines-2  100  1000000 ns/op  6000 p50-ns  50000 p99-ns  100 samples
BenchmarkWakeLatency/from=spawn/peer=impl-channel-2  100  1000000 ns/op  8000 p50-ns  80000 p99-ns  100 samples
PASS
`

func TestFeelBenchmarksAreKeptOutOfTheWorkloads(t *testing.T) {
	groups, _, err := parse(strings.NewReader(feelSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 || groups[0].Workload != "ChainedSpawn" {
		t.Fatalf("groups = %v, want ChainedSpawn only", names(groups))
	}
}

func TestParseFeel(t *testing.T) {
	rows, err := parseFeel(strings.NewReader(feelSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want 5", len(rows))
	}
	r := findFeel(rows, "IdleCPU", "load=idle", "impl-channel")
	if r == nil || len(r.Vals["cpu-s/s"]) != 2 || r.median("cpu-s/s") != 0.03 {
		t.Fatalf("IdleCPU idle impl-channel = %+v, want two runs, median 0.03", r)
	}
	w := findFeel(rows, "WakeLatency", "from=spawn", "impl-channel")
	if w == nil || w.median("p50-ns") != 7000 || w.median("p99-ns") != 70000 {
		t.Fatalf("WakeLatency spawn impl-channel = %+v, want p50 7000, p99 70000", w)
	}
	md := feelMarkdown(rows)
	// impl-channel's idle median 0.03 over goroutines' 0.02; spawn p50 7 µs over 5 µs, p99 70 over 40.
	for _, want := range []string{"| impl-channel | 0.03 (×1.50) |", "| impl-channel | 7.00 (×1.40) | 70.0 (×1.75) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("feel section lacks %q:\n%s", want, md)
		}
	}
}

func TestRescueMarkdown(t *testing.T) {
	groups, _, err := parse(strings.NewReader(feelSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parseFeel(strings.NewReader(feelSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	md := rescueMarkdown(groups, rows)
	for _, want := range []string{"| ChainedSpawn | 110 | 100 | ×1.10 |", "| IdleCPU idle (cpu-s/s) | 0.03 | 0.02 | ×1.50 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("rescue section lacks %q:\n%s", want, md)
		}
	}
	if rescueMarkdown(groups[:0], nil) != "" {
		t.Error("rescue section written without an impl-norescue row")
	}
}
