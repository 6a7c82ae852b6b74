package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Parts of -long: n jobs, each on a machine of its own, run -long between
// them. -part k/n (or WSCHED_VERIFY_PART=k/n) runs part k of n: the build
// layer, which every part needs and which takes seconds, and the layers
// dealt to k. A layer is never split: each keeps its own lanes and
// processes on its machine, its searches whole (with the state cache where
// a scenario chose it), and its result means what it means in one run. So
// the n parts together run every layer once, and the whole run passes
// when every part passes.
//
// The layers are dealt longest first, each to the part with the least so
// far (ties to the lowest part), by longMinutes, each layer's wall time in
// a whole -long run: the parts end about together (the longest part runs
// past the shortest by at most the last layer dealt to it). Every job
// computes the same deal from the same table, so no job need know of
// another; a part whose machine is faster or slower only ends sooner or
// later.
//
// Why whole layers and not -shard's split of each search: a layer is the
// unit a reader checks (its table row, its gate), a search with the
// explorer's state cache runs more schedules in parts than whole (each
// part caches only its own subtrees' states), and the layers are many and
// long enough that dealing them balances two or three parts within a few
// minutes.

// partEnv is the environment's way to ask for a part, for job runners
// that give each job its index in a variable (a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX: WSCHED_VERIFY_PART=$JOB_COMPLETION_INDEX/3).
const partEnv = "WSCHED_VERIFY_PART"

// longMinutes is each layer's wall time under -long on two cores, in
// minutes, measured: the two parts of a whole -long run on 201c632, one
// after the other on one quiet machine (docs/auditing.md, "-long in
// parts"), but the weak layer's, measured alone on 28677d4 (`go run
// ./cmd/verify -long -only weak`) after stranding/lifo-slot and
// lifo-slot-after-idle joined it at 1 (26 and 16.5 minutes of one
// process); dealLayers balances the parts by it. A layer missing here counts as one
// minute (TestLongMinutesNamesEveryLayer keeps it whole). Measure again
// when a layer's time moves by minutes.
var longMinutes = map[string]float64{
	"build":     0.3,
	"unit":      13.9,
	"explore":   16.7,
	"weak":      32.2,
	"model":     1.1,
	"learn":     1.1,
	"porcupine": 1.7,
	"stress":    6.7,
	"chaos":     11.2,
	"tlc":       10.3,
	"trace":     5.1,
}

// everyPart are the layers each part runs.
var everyPart = []string{"build"}

// part is k of n; n 0 is the whole run.
type part struct{ k, n int }

func (p part) String() string { return fmt.Sprintf("%d/%d", p.k, p.n) }

// parsePart reads -part's value (or partEnv's, named by from) and checks
// that it goes with the run's other flags.
func parsePart(v, from string, long bool, only, shard string, mutants bool) (part, error) {
	k, n, ok := parseKOfN(v)
	if !ok {
		return part{}, fmt.Errorf("%s %q: want k/n with 0 <= k < n", from, v)
	}
	p := part{k, n}
	switch {
	case !long:
		return part{}, fmt.Errorf("%s %s: parts are of -long (the default run is short enough for one machine)", from, v)
	case only != "" || shard != "" || mutants:
		return part{}, fmt.Errorf("%s %s: parts deal whole layers to jobs; it does not go with -only, -shard or -mutants (-only LAYER -shard k/n splits one explorer layer's searches)", from, v)
	}
	return p, nil
}

// parseKOfN reads "k/n" with 0 <= k < n, written as %d/%d writes it:
// -part's value and -shard's.
func parseKOfN(v string) (k, n int, ok bool) {
	if _, err := fmt.Sscanf(v, "%d/%d", &k, &n); err != nil || fmt.Sprintf("%d/%d", k, n) != v || n < 1 || k < 0 || k >= n {
		return 0, 0, false
	}
	return k, n, true
}

// layerMinutes is a layer's weight in the deal: longMinutes, or one
// minute for a layer the table does not name.
func layerMinutes(name string) float64 {
	if m, ok := longMinutes[name]; ok {
		return m
	}
	return 1
}

// dealLayers deals the layers named to n parts, longest first (by
// longMinutes) to the part with the least so far; the layers of
// everyPart go to every part. It returns each part's layers in the
// order given, and each part's minutes.
func dealLayers(names []string, n int) (parts [][]string, minutes []float64) {
	owner := map[string]int{}
	var dealt []string
	for _, name := range names {
		if !slices.Contains(everyPart, name) {
			dealt = append(dealt, name)
		}
	}
	slices.SortStableFunc(dealt, func(a, b string) int { return cmp.Compare(layerMinutes(b), layerMinutes(a)) })
	minutes = make([]float64, n)
	for _, name := range dealt {
		k := 0
		for j := range minutes {
			if minutes[j] < minutes[k] {
				k = j
			}
		}
		owner[name] = k
		minutes[k] += layerMinutes(name)
	}
	parts = make([][]string, n)
	for _, name := range names {
		if slices.Contains(everyPart, name) {
			for k := range parts {
				parts[k] = append(parts[k], name)
				minutes[k] += layerMinutes(name)
			}
			continue
		}
		parts[owner[name]] = append(parts[owner[name]], name)
	}
	return parts, minutes
}

// partOf is the layers part p runs, and the lines that say what it runs
// and what the others do, printed before the run starts and again under
// the closing table, so that a part's table, all PASS, is never read as
// the whole run's.
func partOf(p part, names []string) (mine, lines []string) {
	parts, minutes := dealLayers(names, p.n)
	var total float64
	for _, name := range names {
		total += layerMinutes(name)
	}
	lines = []string{fmt.Sprintf("part %s of -long: layers %s (about %.0f of the whole run's %.0f minutes on two cores, by longMinutes); the whole run passes when every part passes",
		p, strings.Join(parts[p.k], ", "), minutes[p.k], total)}
	for j, ls := range parts {
		if j != p.k {
			lines = append(lines, fmt.Sprintf("  not run here: part %d/%d runs %s", j, p.n, strings.Join(ls, ", ")))
		}
	}
	return parts[p.k], lines
}
