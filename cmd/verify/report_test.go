package main

import (
	"strings"
	"testing"
	"time"
)

// The closing table: each layer's result, wall time, CPU with the cores
// it kept busy, and what was checked; the total with the CPU of them all.
// A layer whose CPU is not known (here a command without a count) shows
// none, and the total then shows none either: never a made-up figure.
func TestReportShowsEachLayersCPU(t *testing.T) {
	unit := result{layer: layer{name: "unit", title: "package tests and rapid"}, status: statusPass, took: 40 * time.Second,
		packages: 28, passed: 300, cpu: cpuTime{total: 76 * time.Second, counted: 2}}
	explore := result{layer: layer{name: "explore", title: "the explorer"}, status: statusFail, took: 100 * time.Second,
		packages: 2, passed: 3, failed: []string{"explore/scenarios.TestExploreX"}, cpu: cpuTime{total: 150 * time.Second, counted: 2},
		evidence: []string{"explorer replay of x: go test ..."}, logs: []string{"/l/explore-0-0.log"}}
	tlc := result{layer: layer{name: "tlc"}, status: statusSkip, why: "TLA2TOOLS_JAR is not set"}
	var b strings.Builder
	report(&b, []result{unit, explore, tlc}, 150*time.Second)
	want := `
FAILED: the explorer
  failing test: explore/scenarios.TestExploreX
  evidence: explorer replay of x: go test ...
  log: /l/explore-0-0.log

layer    result   time   cpu               what was checked
-----    ------   ----   ---               ----------------
unit     PASS     40s    1m16s, 1.9 cores  28 packages, 300 tests passed
explore  FAIL     1m40s  2m30s, 1.5 cores  2 packages, 3 tests passed; 1 FAILED
tlc      SKIPPED  0s                       TLA2TOOLS_JAR is not set
total 2m30s, cpu 3m46s, 1.5 cores
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := doneLine(unit); got != "      -> PASS in 40s (cpu 1m16s, 1.9 cores)" {
		t.Errorf("done line %q", got)
	}

	unit.cpu.unknown = 1
	b.Reset()
	report(&b, []result{unit, tlc}, 40*time.Second)
	if !strings.Contains(b.String(), "\nunit   PASS     40s        28 packages") || !strings.HasSuffix(b.String(), "\ntotal 40s\n") {
		t.Errorf("a layer of unknown CPU shows a CPU:\n%s", b.String())
	}
	if got := doneLine(unit); got != "      -> PASS in 40s" {
		t.Errorf("done line of unknown CPU %q", got)
	}
}
