package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/internal/mutant"
)

// somePackages is a set of n made-up package paths.
func somePackages(n int) map[string]bool {
	m := map[string]bool{}
	for i := range n {
		m[fmt.Sprintf("example.com/p%d", i)] = true
	}
	return m
}

// The closing table: each layer's result, wall time, CPU with the cores
// it kept busy, and what was checked; the total with the CPU of them all.
// A layer whose CPU is not known (here a command without a count) shows
// none, and the total then shows none either: never a made-up figure.
func TestReportShowsEachLayersCPU(t *testing.T) {
	unit := result{layer: layer{name: "unit", title: "package tests and rapid"}, status: statusPass, took: 40 * time.Second,
		packages: somePackages(28), passed: 300, cpu: cpuTime{total: 76 * time.Second, counted: 2}}
	explore := result{layer: layer{name: "explore", title: "the explorer"}, status: statusFail, took: 100 * time.Second,
		packages: somePackages(2), passed: 3, failed: []string{"explore/scenarios.TestExploreX"}, cpu: cpuTime{total: 150 * time.Second, counted: 2},
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

// The -mutants report: each cell's line with its CPU, each mutant's line
// and row of the kill matrix with its cells' CPU and the cores it kept
// busy, and the total with the CPU of them all. A cell whose command has
// no count (killed at the cell's limit) shows no CPU, nor does its
// mutant's row or the total: never a sum too small.
func TestMutantReportShowsCPU(t *testing.T) {
	killed := cellResult{status: cellKilled, took: 1500 * time.Millisecond, cpu: cpuTime{total: 2300 * time.Millisecond, counted: 1}}
	timedOut := cellResult{status: cellTimeout, took: 180 * time.Second, cpu: cpuTime{unknown: 1}}
	if got, want := cellLine("unit", killed, "unit:./impl/deque:^TestX$"),
		"      unit      KILLED           1.5s  cpu    2.3s  unit:./impl/deque:^TestX$\n"; got != want {
		t.Errorf("cell line\n%q, want\n%q", got, want)
	}
	if got, want := cellLine("unit", timedOut, "unit:./impl/deque:^TestX$"),
		"      unit      TIMEOUT        180.0s               unit:./impl/deque:^TestX$\n"; got != want {
		t.Errorf("cell line of unknown CPU\n%q, want\n%q", got, want)
	}

	a := &mutantRow{m: &mutant.Mutant{ID: "deque-no-last-cas", Scope: "impl"}, cells: map[string]cellStatus{"explore": cellKilled},
		took: 4 * time.Second, cpu: cpuTime{total: 6 * time.Second, counted: 1}}
	stale := &mutantRow{m: &mutant.Mutant{ID: "stale", Scope: "impl"}, err: errors.New("mutant stale: original text not found")}
	var b strings.Builder
	printMatrix(&b, []*mutantRow{a, stale}, mutantOptions{fast: true}, 5*time.Second)
	want := `
Kill matrix (K killed, . survived, T timed out without a watchdog firing, B does not compile, ? no test ran, - not run)

mutant             scope  unit  explore  weak  model  porcupine  stress  chaos  killed by  time  cpu
deque-no-last-cas  impl   -     K        -     -      -          -       -      1          4s    6s, 1.5 cores
stale              impl   !     !        !     !      !          !       !      ERROR      0s

2 mutants in 5s, cpu 6s, 1.2 cores
fast mode stops at the first entry that kills a mutant: the matrix shows at least one killer, not all of them
FAIL: mutant stale: original text not found
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := a.doneLine(); got != "      -> killed by [explore] in 4s (cpu 6s, 1.5 cores)" {
		t.Errorf("done line %q", got)
	}

	hang := &mutantRow{m: &mutant.Mutant{ID: "idle-no-final-check", Scope: "impl"}, cells: map[string]cellStatus{"unit": cellTimeout, "stress": cellKilled},
		took: 200 * time.Second, cpu: cpuTime{total: 30 * time.Second, counted: 1, unknown: 1}}
	b.Reset()
	printMatrix(&b, []*mutantRow{a, hang}, mutantOptions{fast: true}, 205*time.Second)
	if !strings.Contains(b.String(), "\nidle-no-final-check  impl   T     -        -     -      -          K       -      1          3m20s\n") ||
		!strings.Contains(b.String(), "\n2 mutants in 3m25s\n") {
		t.Errorf("a mutant of unknown CPU shows a CPU, or the total does:\n%s", b.String())
	}
	if got := hang.doneLine(); got != "      -> killed by [stress] in 3m20s" {
		t.Errorf("done line of unknown CPU %q", got)
	}
}
