package litmus

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	graphNodeRE = regexp.MustCompile(`<g class="node[^"]*" data-step="(\d+)" data-thread="(\d+)"`)
	graphEdgeRE = regexp.MustCompile(`<path class="edge ([\w ]+)" data-from="(\d+)" data-to="(\d+)" d="M`)
)

// edges counts the graph's edges by kind, as "from>to" lists.
func graphEdges(svg string) map[string][]string {
	out := map[string][]string{}
	for _, m := range graphEdgeRE.FindAllStringSubmatch(svg, -1) {
		out[m[1]] = append(out[m[1]], m[2]+">"+m[3])
	}
	return out
}

// The graph of an explanation has an event per step in its thread's
// column and exactly the edges the execution has: program order,
// reads-from (stale in red), modification order, a race, the seq_cst
// order.
func TestExplainGraph(t *testing.T) {
	for _, c := range []struct {
		test    Test
		outcome string
		want    map[string][]string
	}{
		{Test{Name: "MP+rlx", Threads: [][]Op{
			{Store("data", 1, Relaxed), Store("flag", 1, Relaxed)},
			{Load("a", "flag", Relaxed), Load("b", "data", Relaxed)},
		}}, "a=1 b=0", map[string][]string{"po": {"1>2", "3>4"}, "rf": {"2>3"}, "rf stale": {"0>4"}}},
		// Two stores to x, the second placed first in modification
		// order (2+2W): mo goes from step 2 to step 1.
		{Test{Name: "2W", Threads: [][]Op{{Store("x", 1, Relaxed)}, {Store("x", 2, Relaxed)}}, Final: []string{"x"}},
			"x=1", map[string][]string{"mo": {"2>1"}}},
		// Store buffering, seq_cst: a seq_cst order of all four.
		{Test{Name: "SB+sc", Threads: [][]Op{
			{Store("x", 1, SeqCst), Load("a", "y", SeqCst)},
			{Store("y", 1, SeqCst), Load("b", "x", SeqCst)},
		}}, "a=0 b=1", map[string][]string{"po": {"1>2", "3>4"}, "rf": {"0>2", "1>4"}, "sc": {"1>2", "2>3", "3>4"}}},
		{Test{Name: "race", Threads: [][]Op{{Write("c")}, {Read("c")}}}, "race",
			map[string][]string{"race": {"1>2"}}},
	} {
		ex, ok := c.test.Explain(c.outcome)
		if !ok {
			t.Fatalf("%s: %s not produced", c.test.Name, c.outcome)
		}
		svg := ex.Graph()
		nodes := graphNodeRE.FindAllStringSubmatch(svg, -1)
		if len(nodes) != len(ex.Steps)+1 { // and the initial values
			t.Fatalf("%s: %d nodes for %d steps:\n%s", c.test.Name, len(nodes), len(ex.Steps), svg)
		}
		for _, m := range nodes[1:] {
			k, _ := strconv.Atoi(m[1])
			if want := ex.Steps[k-1].Thread; m[2] != strconv.Itoa(want) {
				t.Fatalf("%s: step %d in column T%s, ran on T%d", c.test.Name, k, m[2], want)
			}
		}
		got := graphEdges(svg)
		for kind, want := range c.want {
			if strings.Join(got[kind], " ") != strings.Join(want, " ") {
				t.Errorf("%s (%s): %s edges %v, want %v\n%v", c.test.Name, c.outcome, kind, got[kind], want, ex)
			}
		}
		if !strings.HasPrefix(ex.Page(), "<!DOCTYPE html>") || !strings.Contains(ex.Page(), svg) {
			t.Errorf("%s: the page does not hold the graph", c.test.Name)
		}
	}
}
