package main

import (
	_ "embed"
	"fmt"
	"math"
	"strings"
)

// racePeers are the Go libraries the race build's goal compares wsched with: pools that pay
// the same detector on their own synchronization. The goal: wsched's race/plain at or under
// each of theirs, per workload. (Plain goroutines are not a fair bar: their scheduling is the
// runtime's own, which the detector does not instrument.)
var racePeers = []string{"pond", "ants"}

// raceSubjects are wsched's rows the goal applies to.
var raceSubjects = []string{"impl-channel", "impl-futex"}

// raceMarkdown is the page's race-build section: per workload and peer, the median ns/task
// of the run under -race, its ratio to the same peer's median in the plain run, and that
// ratio divided by the baseline peer's. Rows only one run has are left out. Empty if race
// is nil.
func raceMarkdown(plain, race []*group, cmdline string) string {
	if race == nil {
		return ""
	}
	intro := fmt.Sprintf("The same benchmarks built with the race detector (`%s`), the build every user's "+
		"tests of their tasks run in. ns/task is the median over that run's runs; *race/plain* "+
		"divides it by the same peer's median above; *÷ baseline* divides that by the baseline "+
		"peer's race/plain on the same workload. Goal: wsched's race/plain at or under that of "+
		"each of %s, the Go libraries that pay the same detector (the summary after the tables).\n\n",
		cmdline, strings.Join(racePeers, " and "))
	return raceSection(plain, race, "Race build", "race", intro)
}

// RecipeFlags are the go test flags of the fast race build (docs/performance.md): the
// scheduler's packages (impl/) compiled outside the detector.
var RecipeFlags = []string{"-gcflags=github.com/wsched/wsched/impl/...=-race=false"}

// raceRecipeMarkdown is the section of the fast race build: the same tables as
// raceMarkdown's, for the run with RecipeFlags. Empty if recipe is nil.
func raceRecipeMarkdown(plain, recipe []*group, cmdline string) string {
	if recipe == nil {
		return ""
	}
	intro := fmt.Sprintf("The same benchmarks in the fast race build a user of wsched can choose "+
		"(`%s`): the scheduler's packages compiled outside the detector, as Go's runtime "+
		"scheduler is. Only impl/: explore/atomic and explore/sync are public packages a user "+
		"may build their own structures on, and compiled outside the detector they would hide "+
		"that user's synchronization from it (examples/mpmc is then reported; with impl/ "+
		"alone it is not). The edges tasks rely on (spawn, poll to poll, wake, finish to Wait "+
		"and Shutdown, fork and join) are annotated for the detector (impl/internal/raceedge), "+
		"so data handed through them is not reported, and a race between tasks still is "+
		"(stress/racerecipe checks both in that build). What it gives up: the scheduler's own "+
		"code is not checked in that build (the repository's `go test -race ./...` checks it). "+
		"The scheduler's generic queues (the rings, LIFO slots, global queue, fork-join deque) "+
		"are outside the detector too: Go compiles an instantiated generic type's methods into "+
		"every package that reads the type and the linker keeps the largest copy, the one the "+
		"user's package compiled with the detector, so a race build of impl/sched and "+
		"impl/forkjoin names its queues by types of its own that no importer sees through "+
		"(stress/racerecipe checks the linked copies with objdump). What stays under the "+
		"detector: the annotations themselves (a synchronization of the detector's each, most "+
		"of what is left), sync/atomic's pointer stores and swaps (the LIFO slot's, the "+
		"deque's: calls in every build, which reach the detector in any race binary), impl/'s "+
		"other mutexes (a sync.Mutex tells the detector of each Lock and Unlock whoever calls "+
		"it: the global queue's lock is impl/queue's own in race builds for that reason, "+
		"globallock_race.go), and what of impl/ Go inlines into the user's package. The "+
		"peers are built as above. Columns as above; goal: wsched's race/plain at or under "+
		"that of each of %s.\n\n",
		cmdline, strings.Join(racePeers, " and "))
	return raceSection(plain, recipe, "Race build, wsched outside the detector", "race, wsched outside", intro) + raceFloorText
}

// raceFloorText closes the fast race build's section: what the detector
// costs when wsched does nothing it sees, measured once with a build that is
// never committed (racefloor.md says how). It is written by hand, with the
// commit and load of its run, and kept as it is when the page is generated.
//
//go:embed racefloor.md
var raceFloorText string

// raceSection is a race section's tables: per workload and peer, the median ns/task of
// the race run, its ratio to the same peer's median in the plain run, and that ratio
// divided by the baseline peer's; then the goal's summary and the race build's own time.
// Rows only one run has are left out.
func raceSection(plain, race []*group, title, tag, intro string) string {
	plainRows := map[[2]string]*row{}
	for _, g := range plain {
		for _, r := range g.Rows {
			plainRows[[2]string{g.Workload, r.Peer}] = r
		}
	}
	var sb strings.Builder
	sb.WriteString("## " + title + "\n\n")
	sb.WriteString(intro)
	ratios := map[[2]string]float64{} // workload, peer -> race/plain
	raceNs := map[[2]string]float64{} // workload, peer -> race ns/task
	cost := map[[2]string]float64{}   // workload, peer -> race ns/task minus plain ns/task
	var workloads []string
	for _, g := range race {
		base := baseline(g)
		pb := plainRows[[2]string{g.Workload, base.Peer}]
		baseRatio := math.NaN()
		if pb != nil {
			baseRatio = base.Ns.Center / pb.Ns.Center
		}
		workloads = append(workloads, g.Workload)
		fmt.Fprintf(&sb, "### %s (%s)\n\n", g.Workload, tag)
		fmt.Fprintf(&sb, "| peer | ns/task | race/plain | ÷ %s | runs |\n", base.Peer)
		sb.WriteString("| --- | ---: | ---: | ---: | ---: |\n")
		for _, r := range g.Rows {
			p := plainRows[[2]string{g.Workload, r.Peer}]
			if p == nil {
				continue
			}
			ratio := r.Ns.Center / p.Ns.Center
			ratios[[2]string{g.Workload, r.Peer}] = ratio
			raceNs[[2]string{g.Workload, r.Peer}] = r.Ns.Center
			cost[[2]string{g.Workload, r.Peer}] = r.Ns.Center - p.Ns.Center
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %d |\n", r.Peer, fmtNum(r.Ns.Center), fmtRatio(ratio), fmtRatio(ratio/baseRatio), len(r.NsPerTask))
		}
		sb.WriteString("\n")
	}
	sb.WriteString(raceGoalMarkdown(title, workloads, ratios))
	sb.WriteString(raceTimeMarkdown(title, workloads, raceNs))
	sb.WriteString(raceCostMarkdown(title, workloads, cost))
	return sb.String()
}

// raceCostMarkdown compares the same rows by what the detector adds per task: the race
// build's ns/task minus the plain build's (medians). race/plain divides this by the plain
// time, so a scheduler whose plain build is fast needs a smaller cost to meet the same ratio;
// this table is the cost itself. *cheaper* says whether each wsched row's is under every one
// of racePeers.
func raceCostMarkdown(title string, workloads []string, cost map[[2]string]float64) string {
	return nsComparison(title+": the detector's cost per task",
		"What the detector adds per task: the race build's ns/task minus the plain build's "+
			"(medians of this run). race/plain is this cost over the plain time, so it asks less of a "+
			"scheduler that is slow without the detector: meeting a peer's race/plain takes a cost "+
			"at most (the peer's race/plain − 1) × wsched's plain ns/task. *cheaper* says whether each "+
			"wsched row's cost is under every one of "+strings.Join(racePeers, " and ")+"'s.",
		"cheaper",
		"The detector costs wsched less per task than "+strings.Join(racePeers, " and ")+" on every row.",
		"Rows where the detector costs wsched as much as "+strings.Join(racePeers, " or ")+" or more: ",
	).markdown(workloads, cost)
}

// raceTimeMarkdown compares the same rows by the race build's own ns/task: what a user's
// tests under -race wait for, whatever the plain build costs. *faster* says whether each
// wsched row is under every one of racePeers.
func raceTimeMarkdown(title string, workloads []string, ns map[[2]string]float64) string {
	return nsComparison(title+": its own time",
		"The same run's race-build ns/task (medians), side by side: race/plain above "+
			"charges a scheduler for being fast in the plain build, so it is shown with the time "+
			"a test under -race actually waits. *faster* says whether each wsched row is under "+
			"every one of "+strings.Join(racePeers, " and ")+".",
		"faster",
		"Every wsched row is faster than "+strings.Join(racePeers, " and ")+" in the race build.",
		"Rows at or above "+strings.Join(racePeers, " or ")+"'s race-build time: ",
	).markdown(workloads, ns)
}

// nsComparison is a raceComparison of nanoseconds, where a wsched row passes if it is under
// every peer's.
func nsComparison(heading, intro, verdict, allPass, failing string) raceComparison {
	return raceComparison{
		heading: heading, intro: intro, verdict: verdict,
		format:  fmtNum,
		unit:    " ns",
		fails:   func(v, bar float64) bool { return v >= bar },
		allPass: allPass, failing: failing,
	}
}

// raceGoalMarkdown is the race build's summary: per workload, the race/plain of wsched's rows
// and of racePeers, and whether each wsched row is at or under every one of theirs.
func raceGoalMarkdown(title string, workloads []string, ratios map[[2]string]float64) string {
	return raceComparison{
		heading: title + ", against " + strings.Join(racePeers, " and "),
		intro: "race/plain per workload. *meets* says whether each wsched row is at or under every one of " +
			strings.Join(racePeers, " and ") + ".",
		verdict: "meets",
		format:  fmtRatio,
		fails:   func(v, bar float64) bool { return v > bar },
		allPass: "Every wsched row is at or under " + strings.Join(racePeers, " and ") + "'s race/plain.",
		failing: "Rows above " + strings.Join(racePeers, " or ") + "'s race/plain: ",
	}.markdown(workloads, ratios)
}

// raceComparison is a table of wsched's rows (raceSubjects) against racePeers, one value per
// workload and peer, with a verdict per workload and a summary line naming the rows that
// fail it.
type raceComparison struct {
	heading, intro   string
	verdict          string                    // the verdict column's name
	format           func(float64) string      // a value as the table shows it
	unit             string                    // after a value in the summary line
	fails            func(v, bar float64) bool // a wsched value v fails against a peer's bar
	allPass, failing string                    // the summary line, all passing or before the failing rows
}

func (c raceComparison) markdown(workloads []string, vals map[[2]string]float64) string {
	var sb strings.Builder
	var failed []string
	cols := append(append([]string(nil), raceSubjects...), racePeers...)
	for _, w := range workloads {
		var bar []float64
		for _, p := range racePeers {
			if v, ok := vals[[2]string{w, p}]; ok {
				bar = append(bar, v)
			}
		}
		if len(bar) == 0 {
			continue
		}
		if sb.Len() == 0 {
			sb.WriteString("### " + c.heading + "\n\n" + c.intro + "\n\n")
			sb.WriteString("| workload | " + strings.Join(cols, " | ") + " | " + c.verdict + " |\n| --- |" + strings.Repeat(" ---: |", len(cols)) + " --- |\n")
		}
		fmt.Fprintf(&sb, "| %s |", w)
		for _, col := range cols {
			if v, ok := vals[[2]string{w, col}]; ok {
				fmt.Fprintf(&sb, " %s |", c.format(v))
			} else {
				sb.WriteString(" – |")
			}
		}
		verdict := "yes"
		for _, s := range raceSubjects {
			v, ok := vals[[2]string{w, s}]
			if !ok {
				continue
			}
			for _, b := range bar {
				if c.fails(v, b) {
					verdict = "no"
					failed = append(failed, fmt.Sprintf("%s/%s (%s%s)", w, s, c.format(v), c.unit))
					break
				}
			}
		}
		fmt.Fprintf(&sb, " %s |\n", verdict)
	}
	if sb.Len() == 0 {
		return ""
	}
	sb.WriteString("\n")
	if len(failed) == 0 {
		sb.WriteString(c.allPass + "\n\n")
	} else {
		sb.WriteString(c.failing + strings.Join(failed, ", ") + ".\n\n")
	}
	return sb.String()
}
