package main

import (
	"strings"
	"testing"
)

// sweepSample is go test -cpu 1,2 output: no suffix at GOMAXPROCS 1, -2 at 2.
const sweepSample = `goos: linux
goarch: amd64
pkg: github.com/wsched/wsched/bench
BenchmarkChainedSpawn/peer=goroutines  10  300000 ns/op  300.0 ns/task  1000 tasks/op
BenchmarkChainedSpawn/peer=goroutines-2  10  200000 ns/op  200.0 ns/task  1000 tasks/op
BenchmarkChainedSpawn/peer=impl-channel  10  100000 ns/op  100.0 ns/task  1000 tasks/op
BenchmarkChainedSpawn/peer=impl-channel-2  10  150000 ns/op  150.0 ns/task  1000 tasks/op
BenchmarkIdleCPU/load=idle/peer=goroutines-2  5  20000000 ns/op  0.010 cpu-s/s
PASS
`

func TestSweep(t *testing.T) {
	rows, procs, err := parseSweep(strings.NewReader(sweepSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(procs) != 2 || procs[0] != 1 || procs[1] != 2 {
		t.Fatalf("procs = %v, want [1 2]", procs)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 (the feel benchmark has no ns/task)", len(rows))
	}
	md := sweepMarkdown(rows, procs, "go test -cpu 1,2")
	for _, want := range []string{"| goroutines | 300 | 200 | ×0.667 |", "| impl-channel | 100 | 150 | ×1.50 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("sweep lacks %q:\n%s", want, md)
		}
	}
}
