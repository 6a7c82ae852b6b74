package main

import (
	"fmt"
	"math"
	"strings"
)

// raceGoal is the most a wsched row's race/plain ratio may be, as a multiple of the
// baseline peer's on the same workload: the race detector's own cost on Go's scheduling
// counts once, wsched may add at most as much again.
const raceGoal = 2.0

// wschedPeer reports whether a peer is one of wsched's own schedulers (the production
// runtime in either parker, the reference twin, the fork-join pool).
func wschedPeer(peer string) bool {
	return strings.HasPrefix(peer, "impl") || peer == "spec" || peer == "forkjoin"
}

// raceMarkdown is the page's race-build section: per workload and peer, the median ns/task
// of the run under -race, its ratio to the same peer's median in the plain run, and that
// ratio divided by the baseline peer's. Rows only one run has are left out. Empty if race
// is nil.
func raceMarkdown(plain, race []*group, cmdline string) string {
	if race == nil {
		return ""
	}
	plainRows := map[[2]string]*row{}
	for _, g := range plain {
		for _, r := range g.Rows {
			plainRows[[2]string{g.Workload, r.Peer}] = r
		}
	}
	var sb strings.Builder
	sb.WriteString("## Race build\n\n")
	fmt.Fprintf(&sb, "The same benchmarks built with the race detector (`%s`), the build every user's "+
		"tests of their tasks run in. ns/task is the median over that run's runs; *race/plain* "+
		"divides it by the same peer's median above; *÷ baseline* divides that by the baseline "+
		"peer's race/plain on the same workload, so that the race detector's own cost on Go's "+
		"scheduling counts as 1. Goal: no wsched row above %s.\n\n", cmdline, fmtRatio(raceGoal))
	var over []string
	for _, g := range race {
		base := baseline(g)
		pb := plainRows[[2]string{g.Workload, base.Peer}]
		baseRatio := math.NaN()
		if pb != nil {
			baseRatio = base.Ns.Center / pb.Ns.Center
		}
		fmt.Fprintf(&sb, "### %s (race)\n\n", g.Workload)
		fmt.Fprintf(&sb, "| peer | ns/task | race/plain | ÷ %s | runs |\n", base.Peer)
		sb.WriteString("| --- | ---: | ---: | ---: | ---: |\n")
		for _, r := range g.Rows {
			p := plainRows[[2]string{g.Workload, r.Peer}]
			if p == nil {
				continue
			}
			ratio := r.Ns.Center / p.Ns.Center
			rel := ratio / baseRatio
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %d |\n", r.Peer, fmtNum(r.Ns.Center), fmtRatio(ratio), fmtRatio(rel), len(r.NsPerTask))
			if wschedPeer(r.Peer) && rel > raceGoal {
				over = append(over, fmt.Sprintf("%s/%s (%s)", g.Workload, r.Peer, fmtRatio(rel)))
			}
		}
		sb.WriteString("\n")
	}
	if len(over) == 0 {
		fmt.Fprintf(&sb, "Every wsched row is within %s of the baseline's race/plain.\n\n", fmtRatio(raceGoal))
	} else {
		fmt.Fprintf(&sb, "Rows above the goal (%s the baseline's race/plain): %s.\n\n", fmtRatio(raceGoal), strings.Join(over, ", "))
	}
	return sb.String()
}
