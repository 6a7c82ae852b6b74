package main

import (
	"fmt"
	"strings"
)

// The goals section: for each scheduler workload, the production scheduler against the
// best of the other peers, computed from this run's medians. The goal is to beat every
// other peer on every row and, as the aim, to take half the best peer's time.

// goalWorkloads are the scheduler workloads, in the page's order.
var goalWorkloads = []string{
	"SpawnManyLocal", "SpawnManyRemoteIdle", "SpawnManyRemoteBusy",
	"YieldMany", "PingPong", "ChainedSpawn",
}

// goalPeers are the peers the production scheduler is measured against.
var goalPeers = []string{"goroutines", "pond", "ants", "workerpool", "spec"}

// goalSubjects are the production scheduler's rows, one per parker.
var goalSubjects = []string{"impl-channel", "impl-futex"}

func findRow(g *group, peer string) *row {
	for _, r := range g.Rows {
		if r.Peer == peer {
			return r
		}
	}
	return nil
}

// goalsMarkdown is the "Against the goals" section; empty when the run has none of the
// scheduler workloads.
func goalsMarkdown(groups []*group) string {
	byName := map[string]*group{}
	for _, g := range groups {
		byName[g.Workload] = g
	}
	var sb strings.Builder
	wrote := false
	for _, w := range goalWorkloads {
		g := byName[w]
		if g == nil {
			continue
		}
		best := bestOtherPeer(g)
		if best == nil {
			continue
		}
		if !wrote {
			sb.WriteString("## Against the goals\n\n")
			sb.WriteString("Computed from the medians above. The production scheduler (each parker) " +
				"is compared with the fastest of the other peers (" + strings.Join(goalPeers, ", ") +
				") on each workload: it should beat all of them (*beats all*), and the aim is half " +
				"the best peer's time (*half*). *vs best* is the production scheduler's median over the " +
				"best peer's. The interval columns overlap when a difference is within the noise of " +
				"the run: *beats all* then says \"within noise\".\n\n")
			sb.WriteString("| workload | best other peer | its ns/task | scheduler | ns/task | vs best | beats all | half |\n")
			sb.WriteString("| --- | --- | ---: | --- | ---: | ---: | --- | --- |\n")
			wrote = true
		}
		for _, s := range goalSubjects {
			r := findRow(g, s)
			if r == nil {
				continue
			}
			beats := "no"
			switch {
			case r.Ns.Hi < best.Ns.Lo:
				beats = "yes"
			case r.Ns.Center < best.Ns.Center:
				beats = "within noise"
			}
			half := "no"
			if r.Ns.Center <= best.Ns.Center/2 {
				half = "yes"
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
				w, best.Peer, fmtNum(best.Ns.Center), s, fmtNum(r.Ns.Center),
				fmtRatio(r.Ns.Center/best.Ns.Center), beats, half)
		}
	}
	if wrote {
		sb.WriteString("\nAllocations per task of the production scheduler (the goal: at most one per " +
			"spawned task, none per yield or wake; the counts include the workload's own task values, " +
			"see each workload's description):\n\n")
		sb.WriteString("| workload | impl-channel allocs/task | impl-channel B/task |\n| --- | ---: | ---: |\n")
		for _, w := range goalWorkloads {
			if g := byName[w]; g != nil {
				if r := findRow(g, "impl-channel"); r != nil {
					fmt.Fprintf(&sb, "| %s | %s | %s |\n", w, fmtNum(r.Allocs), fmtNum(r.Bytes))
				}
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// bestOtherPeer is the fastest of goalPeers' rows of g (by median), nil if g has none: the
// row the goals are measured against.
func bestOtherPeer(g *group) *row {
	var best *row
	for _, p := range goalPeers {
		if r := findRow(g, p); r != nil && (best == nil || r.Ns.Center < best.Ns.Center) {
			best = r
		}
	}
	return best
}
