package engine

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func firstField(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// The play tree (play.go): its first run is the recorded one, step for
// step; every other run leaves its parent at one decision by a choice the
// parent did not take, repeats the parent's choices before it and its
// steps before it, and is a run the engine traced.
func TestPlayTreeBranchesAtEveryDecision(t *testing.T) {
	for _, weak := range []bool{false, true} {
		body := messagePassing(Relaxed, Relaxed)
		if !weak {
			// Under sequential consistency the relaxed message passing
			// cannot fail: a reader that checks its data fails when it
			// runs first.
			body = func() {
				var data, flag tloc
				w := Go("writer", func() { data.store(1, Relaxed); flag.store(1, Relaxed) })
				r := Go("reader", func() { Assert(flag.load(Relaxed) == 1, "the reader ran before the writer") })
				w.Join()
				r.Join()
			}
		}
		res := Explore(Options{Weak: weak, Play: true}, body)
		f := res.Failure
		if f == nil || f.trace == nil || f.trace.Play == nil {
			t.Fatalf("weak=%v: no failure with a play tree: %+v", weak, f)
		}
		p := f.trace.Play
		root := p.Runs[0]
		if root.Parent != -1 || !root.Fails || len(root.Steps) != len(f.trace.Steps) {
			t.Fatalf("weak=%v: the first run is not the recorded one: %+v", weak, root)
		}
		for i, s := range root.Steps {
			if s.N != i+1 || s.G != f.trace.Steps[i].G {
				t.Fatalf("weak=%v: recorded step %d differs from the trace's: %+v", weak, i+1, s)
			}
		}
		children, stores, passes := 0, 0, 0
		for k, r := range p.Runs {
			for i, d := range r.Decisions {
				for o, c := range d.Children {
					children++
					ch := p.Runs[c]
					oi, _ := strconv.Atoi(o)
					if ch.Parent != k || ch.Fork != i || ch.From != d.Step+1 || ch.Decisions[i].Chosen != oi || oi == d.Chosen {
						t.Fatalf("weak=%v: run %d (child %s of run %d's decision %d %+v) is not that branch: %+v", weak, c, o, k, i, d, ch)
					}
					for j := range i {
						if ch.Decisions[j].Chosen != r.Decisions[j].Chosen {
							t.Fatalf("weak=%v: run %d does not repeat its parent's decision %d", weak, c, j)
						}
					}
					if d.Kind == "s" {
						stores++
					}
				}
			}
			if !r.Fails {
				passes++
			}
		}
		if children != len(p.Runs)-1 || children == 0 || passes == 0 || weak && stores == 0 {
			t.Fatalf("weak=%v: %d runs, %d children, %d store choices, %d passing", weak, len(p.Runs), children, stores, passes)
		}
		if p.Cut != "" {
			t.Fatalf("weak=%v: a tree of a tiny scenario was cut: %s", weak, p.Cut)
		}
		t.Logf("weak=%v: %d runs, %d passing, %d store branches", weak, len(p.Runs), passes, stores)
		// Every run of the tree is what a replay of its choices does:
		// replayed by a token that lists each of its decisions, it
		// prints the same steps and ends the same way.
		for k, r := range p.Runs {
			var b strings.Builder
			b.WriteString(ModeOf(Options{Weak: weak}).header() + "/")
			for i, d := range r.Decisions {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%d:%s%d", i, d.Kind, d.Chosen)
			}
			if len(r.Decisions) == 0 {
				b.WriteByte('-')
			}
			rep := Explore(Options{Weak: weak, Replay: b.String()}, body)
			trace, outcome := rep.Trace, "passes"
			if rep.Failure != nil {
				trace, outcome = rep.Failure.Trace, string(rep.Failure.Kind)+": "+firstLine(rep.Failure.Message)
			}
			if outcome != r.Outcome {
				t.Fatalf("weak=%v: run %d ends %q, its replay %q (token %s)", weak, k, r.Outcome, outcome, b.String())
			}
			lines := map[int]string{}
			for _, l := range strings.Split(trace, "\n") {
				f := strings.Fields(l)
				if n, err := strconv.Atoi(firstField(f)); err == nil && len(f) > 1 {
					lines[n] = strings.Join(f, " ")
				}
			}
			last := r.From - 1 + len(r.Steps)
			if _, ok := lines[last]; !ok || len(lines) != last {
				t.Fatalf("weak=%v: run %d has %d steps, its replay %d", weak, k, last, len(lines))
			}
			for _, s := range r.Steps {
				// (The text trace says "not the latest" on a line of
				// its own.)
				want := strings.Join(strings.Fields(strings.TrimSuffix(p.Strings[s.T], ", not the latest")), " ")
				if !strings.Contains(lines[s.N], want) {
					t.Fatalf("weak=%v: run %d's step %d is %q, its replay's %q", weak, k, s.N, want, lines[s.N])
				}
			}
		}
		if res.Schedules != (Explore(Options{Weak: weak}, body)).Schedules {
			t.Fatalf("weak=%v: the tree's runs were counted as schedules of the search", weak)
		}
	}
}
