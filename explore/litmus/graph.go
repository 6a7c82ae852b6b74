package litmus

import (
	"fmt"
	"html"
	"strings"
)

// Graph draws the execution as an SVG execution graph, as CppMem draws
// one: the steps as events in one column per thread, top to bottom in
// the order they ran, with program order (po), reads-from (rf; from the
// row "initial values" for a read of a location's 0, and of class stale
// when the read did not read the latest store), modification order (mo:
// each location's stores in the order the model placed them), data races
// (race) and the seq_cst order (sc: the execution's SC events in an order
// that extends psc) as edges. Each event is a <g class="node"> with
// data-step (1 for the first step) and data-thread; each edge a <path
// class="edge KIND"> with data-from and data-to (0: the initial values).
// A step whose guard was false is not an event.
func (e Execution) Graph() string {
	const colW, rowH, top, left = 260, 30, 56, 20
	threads := 0
	for _, s := range e.Steps {
		threads = max(threads, s.Thread)
	}
	type pt struct{ x, y int }
	pos := map[int]pt{0: {left, top - 26}}
	var nodes, edges strings.Builder
	fmt.Fprintf(&nodes, `<g class="node init" data-step="0" data-thread="0"><rect x="%d" y="%d" width="%d" height="18" rx="3"/><text x="%d" y="%d">initial values: every location 0</text></g>`,
		left-4, top-26-12, threads*colW-30, left, top-26+1)
	row := 0
	for i, s := range e.Steps {
		if s.Skipped {
			continue
		}
		x, y := left+(s.Thread-1)*colW, top+row*rowH
		row++
		pos[i+1] = pt{x, y}
		label := fmt.Sprintf("%d: %s", i+1, s.Op)
		if s.Op.reads() {
			label += fmt.Sprintf(" -> %d", s.Value)
		}
		cls := "node"
		if s.Stale {
			cls += " stale"
		}
		if s.RaceWith >= 0 {
			cls += " race"
		}
		fmt.Fprintf(&nodes, `<g class="%s" data-step="%d" data-thread="%d"><rect x="%d" y="%d" width="%d" height="18" rx="3"/><text x="%d" y="%d">%s</text><title>step %d (T%d): %s</title></g>`,
			cls, i+1, s.Thread, x-4, y-12, colW-30, x, y+1, html.EscapeString(label), i+1, s.Thread, html.EscapeString(s.Op.String()))
	}
	edge := func(kind string, a, b int) {
		p, q := pos[a], pos[b]
		var d string
		switch {
		case kind == "po":
			d = fmt.Sprintf("M%d,%d L%d,%d", p.x+8, p.y+6, q.x+8, q.y-12)
		case p.x == q.x:
			bend := 40 + min(120, (q.y-p.y)/4)
			d = fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", p.x+colW-40, p.y-3, p.x+colW-20+bend, p.y-3, q.x+colW-20+bend, q.y-3, q.x+colW-40, q.y-3)
		default:
			x1, x2 := p.x+colW-40, q.x-4
			if q.x < p.x {
				x1, x2 = p.x-4, q.x+colW-40
			}
			d = fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", x1, p.y-3, (x1+x2)/2, p.y-3, (x1+x2)/2, q.y-3, x2, q.y-3)
		}
		head, _, _ := strings.Cut(kind, " ")
		fmt.Fprintf(&edges, `<path class="edge %s" data-from="%d" data-to="%d" d="%s" marker-end="url(#lg-%s)"/>`, kind, a, b, d, head)
	}
	last := map[int]int{}
	mo := map[string][]int{}
	for i, s := range e.Steps {
		n := i + 1
		if s.Skipped {
			continue
		}
		if last[s.Thread] > 0 {
			edge("po", last[s.Thread], n)
		}
		last[s.Thread] = n
		if s.Op.reads() {
			kind := "rf"
			if s.Stale {
				kind = "rf stale"
			}
			edge(kind, s.From+1, n)
		}
		if s.RaceWith >= 0 && s.RaceWith < i {
			edge("race", s.RaceWith+1, n)
		}
		switch {
		case s.Op.kind == opStore:
			l := mo[s.Op.loc]
			at := len(l) - s.Before
			mo[s.Op.loc] = append(l[:at], append([]int{n}, l[at:]...)...)
		case s.Op.kind == opAdd || s.Op.kind == opCAS && s.Value == s.Op.val:
			// A read-modify-write goes right after the store it read.
			l, at := mo[s.Op.loc], 0
			for j, k := range l {
				if k == s.From+1 {
					at = j + 1
				}
			}
			mo[s.Op.loc] = append(l[:at], append([]int{n}, l[at:]...)...)
		}
	}
	for _, l := range mo {
		for j := 1; j < len(l); j++ {
			edge("mo", l[j-1], l[j])
		}
	}
	for j := 1; j < len(e.SC); j++ {
		edge("sc", e.SC[j-1]+1, e.SC[j]+1)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">`, left+threads*colW, top+row*rowH+10)
	b.WriteString(`<defs>`)
	for _, kind := range graphKinds {
		color := graphColors[kind]
		fmt.Fprintf(&b, `<marker id="lg-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`, kind, color)
	}
	b.WriteString(`</defs><style>.node rect{fill:#fff;stroke:#888}.node.stale text{fill:#b00020}.node.race rect{stroke:#d0021b;stroke-width:2}.edge{fill:none;stroke-width:1.4}`)
	for _, kind := range graphKinds {
		fmt.Fprintf(&b, `.edge.%s{stroke:%s}`, kind, graphColors[kind])
	}
	b.WriteString(`.edge.mo{stroke-dasharray:2 2}.edge.sc{stroke-dasharray:1 3;stroke-width:2}.edge.rf.stale{stroke:#d0021b;stroke-width:2}</style>`)
	for t := 1; t <= threads; t++ {
		fmt.Fprintf(&b, `<text x="%d" y="12" font-weight="bold">T%d</text>`, left+(t-1)*colW, t)
	}
	b.WriteString(edges.String())
	b.WriteString(nodes.String())
	b.WriteString(`</svg>`)
	return b.String()
}

var graphKinds = []string{"po", "rf", "mo", "race", "sc"}

var graphColors = map[string]string{"po": "#999", "rf": "#2a6fdb", "mo": "#6a1b9a", "race": "#d0021b", "sc": "#00838f"}

// Page is the execution as a self-contained HTML page: the test, the
// outcome, the steps as Execution's String prints them, and the graph.
func (e Execution) Page() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s: %s</title></head><body style="font:13px monospace">`, html.EscapeString(e.Test), html.EscapeString(e.Outcome))
	fmt.Fprintf(&b, `<h1 style="font-size:15px">%s: an execution with outcome %s</h1><pre id="steps">%s</pre>`, html.EscapeString(e.Test), html.EscapeString(e.Outcome), html.EscapeString(e.String()))
	b.WriteString(`<div class="legend">`)
	for _, k := range []struct{ kind, text string }{{"po", "program order"}, {"rf", "reads from (red: a stale read)"}, {"mo", "modification order"}, {"race", "data race"}, {"sc", "seq_cst order (one the execution is consistent with)"}} {
		fmt.Fprintf(&b, `<span style="color:%s;margin-right:10px">&#8594; %s</span>`, graphColors[k.kind], k.text)
	}
	b.WriteString(`</div>`)
	b.WriteString(e.Graph())
	b.WriteString(`</body></html>`)
	return b.String()
}
