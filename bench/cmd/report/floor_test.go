package main

import (
	"strings"
	"testing"
)

const floorSample = `goos: linux
goarch: amd64
pkg: github.com/wsched/wsched/bench
BenchmarkChainedSpawn/peer=goroutines-2     	    4000	    300000 ns/op	       300.0 ns/task	      1000 tasks/op
BenchmarkChainedSpawn/peer=impl-channel-2   	    4000	    200000 ns/op	       200.0 ns/task	      1000 tasks/op
BenchmarkFloor/op=locked-rmw-2              	37518470	         8.000 ns/op
BenchmarkFloor/op=locked-rmw-2              	37518470	         6.000 ns/op
BenchmarkFloor/op=locked-rmw-2              	37518470	         7.000 ns/op
BenchmarkFloor/op=alloc-16B-2               	 8429871	        40.00 ns/op
BenchmarkFloor/op=cacheline-transfer-2      	 1000000	       100.0 ns/op	        50.00 ns/transfer
`

func TestFloorIsKeptOutOfTheWorkloads(t *testing.T) {
	groups, _, err := parse(strings.NewReader(floorSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 || groups[0].Workload != "ChainedSpawn" {
		t.Fatalf("groups = %v, want ChainedSpawn only", names(groups))
	}
}

func TestFloorSection(t *testing.T) {
	groups, _, err := parse(strings.NewReader(floorSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := parseFloor(strings.NewReader(floorSample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if costs["op=locked-rmw"] != 7 || costs["op=alloc-16B"] != 40 || costs["op=cacheline-transfer"] != 50 {
		t.Fatalf("costs = %v, want the medians 7, 40 and 50 (the transfer's ns/transfer, not its ns/op)", costs)
	}
	md := floorMarkdown(groups, costs)
	// impl-channel 200 ns = 28.6 RMWs of 7 ns = 4 transfers of 50 ns; the goal is half of
	// goroutines' 300 = 150 ns = 3 transfers, and the row is 50 ns over it.
	for _, want := range []string{
		"| locked read-modify-write (uncontended) | 7.00 |",
		"| ChainedSpawn | 200 | 28.6 | 4.0 | 150 | 3.0 | 50.0 ns |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("floor section lacks %q:\n%s", want, md)
		}
	}
	if floorMarkdown(groups, floorCosts{}) != "" {
		t.Error("a floor section without BenchmarkFloor's results")
	}
}
