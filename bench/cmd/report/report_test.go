package main

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

// sample is go test output in the shape the bench package prints: two runs of two peers of
// one workload, one row of a second workload, and a benchmark without a peer key (ignored).
const sample = `goos: linux
goarch: amd64
pkg: github.com/wsched/wsched/bench
cpu: Test CPU
BenchmarkYieldMany/peer=goroutines-2  10  2000000 ns/op  10.00 ns/task  200000 tasks/op  0 B/op  0 allocs/op
BenchmarkYieldMany/peer=impl-channel-2  10  1000000 ns/op  5.000 ns/task  200000 tasks/op  400000 B/op  200 allocs/op
BenchmarkSpawnManyLocal/peer=goroutines-2  10  3000000 ns/op  300.0 ns/task  10000 tasks/op  640000 B/op  10000 allocs/op
BenchmarkYieldMany/peer=goroutines-2  10  2400000 ns/op  12.00 ns/task  200000 tasks/op  0 B/op  0 allocs/op
BenchmarkYieldMany/peer=impl-channel-2  10  1200000 ns/op  6.000 ns/task  200000 tasks/op  400000 B/op  400 allocs/op
BenchmarkOther-2  10  5 ns/op
PASS
`

func TestParse(t *testing.T) {
	groups, hdr, err := parse(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if hdr.CPU != "Test CPU" || hdr.Procs != "2" {
		t.Errorf("header = %+v", hdr)
	}
	// Sorted into the documented order: SpawnManyLocal before YieldMany.
	if len(groups) != 2 || groups[0].Workload != "SpawnManyLocal" || groups[1].Workload != "YieldMany" {
		t.Fatalf("groups = %v", names(groups))
	}
	y := groups[1]
	if len(y.Rows) != 2 || y.Rows[0].Peer != "goroutines" || y.Rows[1].Peer != "impl-channel" {
		t.Fatalf("YieldMany rows = %+v", y.Rows)
	}
	impl := y.Rows[1]
	if len(impl.NsPerTask) != 2 || impl.Ns.Center != 5.5 || impl.Min != 5 || impl.Max != 6 {
		t.Errorf("impl-channel ns/task: samples %v, median %v, min %v, max %v", impl.NsPerTask, impl.Ns.Center, impl.Min, impl.Max)
	}
	if want := 300.0 / 200000; math.Abs(impl.Allocs-want) > 1e-12 {
		t.Errorf("impl-channel allocs/task = %v, want %v", impl.Allocs, want)
	}
	if impl.Bytes != 2 {
		t.Errorf("impl-channel B/task = %v, want 2", impl.Bytes)
	}
	if baseline(y).Peer != "goroutines" {
		t.Errorf("baseline = %s", baseline(y).Peer)
	}
}

func TestParseRejectsMissingMetrics(t *testing.T) {
	in := "BenchmarkYieldMany/peer=x-2  10  100 ns/op\n"
	if _, _, err := parse(strings.NewReader(in), "in"); err == nil {
		t.Fatal("parse accepted a row without ns/task")
	}
	if _, _, err := parse(strings.NewReader("PASS\n"), "in"); err == nil {
		t.Fatal("parse accepted output without results")
	}
}

func TestOutputs(t *testing.T) {
	groups, hdr, err := parse(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	svg := svgChart(groups, 2)
	// Well-formed XML with one bar per row.
	dec := xml.NewDecoder(strings.NewReader(svg))
	bars := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			bars++
		}
	}
	if bars != 3 {
		t.Errorf("SVG has %d bars, want 3", bars)
	}
	md := resultsMarkdown(groups, hdr, machine{CPU: "Test CPU", NumCPU: 2, LoadStart: "3.10 2.00 1.50", LoadEnd: "4.00 3.00 2.00"}, "go test", 2, "performance.svg", "", breakdownMarkdown(nil, "2s"))
	for _, want := range []string{"### YieldMany", "| impl-channel | 5.50 |", "| ×0.5 |", "Test CPU", "](performance.svg)",
		"| load average (1, 5, 15 min) | 3.10 2.00 1.50 at the start, 4.00 3.00 2.00 at the end |",
		// Two runs give no confidence interval, so a faster median is only "within noise".
		"| YieldMany | goroutines | 11.0 | impl-channel | 5.50 | ×0.5 | within noise | yes |",
		"| YieldMany | 0.0015 | 2.00 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if sk := skeletonMarkdown(machine{}); !strings.Contains(sk, "No measurement has been recorded yet") || strings.Contains(sk, "ns/task |") {
		t.Error("skeleton page claims results")
	}
}

// raceSample is sample's YieldMany rerun under -race: goroutines ten times slower (11 to 110
// ns/task at the median), impl-channel thirty times (5.5 to 165): three times the baseline's
// race/plain, above the goal.
const raceSample = `goos: linux
goarch: amd64
pkg: github.com/wsched/wsched/bench
BenchmarkYieldMany/peer=goroutines-2  10  2000000 ns/op  100.0 ns/task  200000 tasks/op  0 B/op  0 allocs/op
BenchmarkYieldMany/peer=impl-channel-2  10  1000000 ns/op  150.0 ns/task  200000 tasks/op  0 B/op  0 allocs/op
BenchmarkYieldMany/peer=goroutines-2  10  2000000 ns/op  120.0 ns/task  200000 tasks/op  0 B/op  0 allocs/op
BenchmarkYieldMany/peer=impl-channel-2  10  1000000 ns/op  180.0 ns/task  200000 tasks/op  0 B/op  0 allocs/op
PASS
`

func TestRaceSection(t *testing.T) {
	plain, _, err := parse(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	race, _, err := parse(strings.NewReader(raceSample), "race sample")
	if err != nil {
		t.Fatal(err)
	}
	md := raceMarkdown(plain, race, "go test -race")
	for _, want := range []string{"## Race build", "### YieldMany (race)",
		"| goroutines | 110 | ×10.0 | ×1.00 | 2 |",
		"| impl-channel | 165 | ×30.0 | ×3.00 | 2 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("race section lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "SpawnManyLocal") {
		t.Error("a workload the race run lacks has a race table")
	}
	if strings.Contains(md, "against pond and ants") {
		t.Error("a race goal summary without pond or ants rows")
	}
	if raceMarkdown(plain, nil, "") != "" {
		t.Error("a race section without a race run")
	}
	recipe := raceRecipeMarkdown(plain, race, "go test -race -gcflags=...")
	for _, want := range []string{"## Race build, wsched outside the detector", "### YieldMany (race, wsched outside)",
		"| impl-channel | 165 | ×30.0 | ×3.00 | 2 |"} {
		if !strings.Contains(recipe, want) {
			t.Errorf("the fast race build's section lacks %q:\n%s", want, recipe)
		}
	}
	if !strings.HasSuffix(recipe, raceFloorText) || !strings.Contains(raceFloorText, "### Race build, wsched outside the detector: the floor") {
		t.Errorf("the fast race build's section does not end with racefloor.md's subsection:\n%s", recipe)
	}
	if raceRecipeMarkdown(plain, nil, "") != "" {
		t.Error("a fast race build's section without its run")
	}
}

func TestSplitName(t *testing.T) {
	for in, want := range map[string]string{
		"SpawnManyRemoteBusy": "SpawnMany|RemoteBusy",
		"PingPong":            "PingPong",
		"QueuePushPop":        "Queue|PushPop",
	} {
		if got := strings.Join(splitName(in), "|"); got != want {
			t.Errorf("splitName(%q) = %q, want %q", in, got, want)
		}
	}
}

func names(gs []*group) []string {
	var s []string
	for _, g := range gs {
		s = append(s, g.Workload)
	}
	return s
}

func TestRaceGoalAgainstPondAndAnts(t *testing.T) {
	ratios := map[[2]string]float64{
		{"YieldMany", "impl-channel"}: 30, {"YieldMany", "pond"}: 40, {"YieldMany", "ants"}: 20,
		{"PingPong", "impl-channel"}: 10, {"PingPong", "pond"}: 40, {"PingPong", "ants"}: 10,
	}
	md := raceGoalMarkdown("Race build", []string{"YieldMany", "PingPong"}, ratios)
	for _, want := range []string{
		"| YieldMany | ×30.0 | – | ×40.0 | ×20.0 | no |",
		"| PingPong | ×10.0 | – | ×40.0 | ×10.0 | yes |",
		"Rows above pond or ants's race/plain: YieldMany/impl-channel (×30.0).",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("race goal lacks %q:\n%s", want, md)
		}
	}
}

func TestRaceTimeAgainstPondAndAnts(t *testing.T) {
	ns := map[[2]string]float64{
		{"YieldMany", "impl-channel"}: 1800, {"YieldMany", "pond"}: 4100, {"YieldMany", "ants"}: 3800,
		{"ChainedSpawn", "impl-channel"}: 5300, {"ChainedSpawn", "pond"}: 7200, {"ChainedSpawn", "ants"}: 3000,
	}
	md := raceTimeMarkdown("Race build", []string{"YieldMany", "ChainedSpawn"}, ns)
	for _, want := range []string{
		"| YieldMany | 1800 | – | 4100 | 3800 | yes |",
		"| ChainedSpawn | 5300 | – | 7200 | 3000 | no |",
		"Rows at or above pond or ants's race-build time: ChainedSpawn/impl-channel (5300 ns).",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("race time table lacks %q:\n%s", want, md)
		}
	}
	if raceTimeMarkdown("Race build", []string{"YieldMany"}, map[[2]string]float64{{"YieldMany", "impl-channel"}: 1}) != "" {
		t.Error("a race time table without pond or ants rows")
	}
}

func TestRaceCostAgainstPondAndAnts(t *testing.T) {
	// What the detector adds: race minus plain, per row. wsched at 40 ns plain and 400 ns
	// race costs 360 ns; ants at 600 and 3000 costs 2400, though its race/plain (×5.00) is
	// under wsched's (×10.0).
	plain := []*group{{Workload: "ChainedSpawn", Rows: []*row{
		{Peer: "goroutines", Ns: benchmath.Summary{Center: 200}}, {Peer: "impl-channel", Ns: benchmath.Summary{Center: 40}},
		{Peer: "pond", Ns: benchmath.Summary{Center: 300}}, {Peer: "ants", Ns: benchmath.Summary{Center: 600}}}}}
	race := []*group{{Workload: "ChainedSpawn", Rows: []*row{
		{Peer: "goroutines", Ns: benchmath.Summary{Center: 1000}}, {Peer: "impl-channel", Ns: benchmath.Summary{Center: 400}},
		{Peer: "pond", Ns: benchmath.Summary{Center: 700}}, {Peer: "ants", Ns: benchmath.Summary{Center: 3000}}}}}
	md := raceSection(plain, race, "Race build", "race", "")
	for _, want := range []string{
		"| ChainedSpawn | ×10.0 | – | ×2.33 | ×5.00 | no |",
		"### Race build: the detector's cost per task",
		"| ChainedSpawn | 360 | – | 400 | 2400 | yes |",
		"The detector costs wsched less per task than pond and ants on every row.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("race section lacks %q:\n%s", want, md)
		}
	}
}
