package engine

import (
	"fmt"
	"strconv"
	"time"
)

// The play tree: what the counterexample page's play mode (#play) walks.
// A learner replays the failing schedule choice by choice: at each
// decision the recorded run took (which goroutine goes next; in the weak
// mode which store a read reads, or where a store goes) they may take
// the recorded choice or another. The page cannot run the program, so
// every choice it offers is one the engine ran when it wrote the page:
// the recorded run, and for each of its decisions and each other choice
// there, a traced run that takes that choice and the default after it
// (the current goroutine goes on, reads read the latest store), then the
// same for those runs' decisions, breadth first, while the budget lasts.
// A choice no run took is shown and disabled. Each run's steps are the
// engine's own trace of it; the page shows nothing the code did not do.

// PlayData is the play tree of a failure's page.
type PlayData struct {
	Runs []PlayRun `json:"runs"` // Runs[0]: the recorded run
	// Cut says why the tree stops where it does, when it is not every
	// choice of every run: the budget of runs, steps or time.
	Cut string `json:"cut,omitempty"`
	// Strings holds each text and source line of the steps once (the
	// runs repeat them): PlayStep.T and A index it.
	Strings []string `json:"strings"`
	index   map[string]int
}

// str is s's index in Strings.
func (d *PlayData) str(s string) int {
	i, ok := d.index[s]
	if !ok {
		i = len(d.Strings)
		d.Strings = append(d.Strings, s)
		d.index[s] = i
	}
	return i
}

// PlayRun is one run of the tree. Its steps up to From-1 are its
// parent's; it leaves the parent at the parent's decision Fork.
type PlayRun struct {
	Parent     int            `json:"parent"` // -1: the recorded run
	Fork       int            `json:"fork"`
	From       int            `json:"from"`
	Goroutines []string       `json:"goroutines"`
	Steps      []PlayStep     `json:"steps"`
	Decisions  []PlayDecision `json:"decisions"`
	Fails      bool           `json:"fails"`
	Outcome    string         `json:"outcome"` // "data race: ...", or "passes"
}

// PlayStep is a step of a run as the page's play pane shows it: its
// text (the location's name, the operation, the store a read read) and
// its source line, as indexes into PlayData.Strings.
type PlayStep struct {
	N int `json:"n"`
	G int `json:"g"`
	T int `json:"t"`
	A int `json:"a"`
}

// PlayDecision is a decision of a run: taken after Step steps, of kind
// "g" (a goroutine among Options) or "s" (a store among Options: 0 the
// latest). Children maps a choice other than Chosen to the run that took
// it, if the tree has one.
type PlayDecision struct {
	Step    int    `json:"step"`
	Kind    string `json:"kind"`
	Options []int  `json:"options"`
	Chosen  int    `json:"chosen"`
	Timer   int    `json:"timer"` // a goroutine whose timeout fires early if chosen; -1
	// Place marks a store choice that is where a store goes in its
	// location's modification order (0: last), not which store a read
	// reads.
	Place    bool           `json:"place,omitempty"`
	Children map[string]int `json:"children,omitempty"`
}

// The play tree's budget: a lesson's scenario fits; a long schedule gets
// the recorded run and what fits of the first level.
const (
	playMaxRuns  = 150
	playMaxSteps = 30000
	playMaxTime  = 10 * time.Second
)

// playGuide takes the listed choices, then the default at every later
// decision; a listed choice of the wrong kind stops the run's use (a
// nondeterministic scenario).
type playGuide struct {
	path []decision
	bad  bool
}

func (g *playGuide) goroutine(r *run, s schedule) int {
	if i := len(r.decisions); i < len(g.path) {
		if g.path[i].kind != kindGoroutine || s.enabled&(1<<g.path[i].chosen) == 0 {
			g.bad = true
			return s.defaultChoice()
		}
		return g.path[i].chosen
	}
	return s.defaultChoice()
}

func (g *playGuide) store(r *run, l load) int {
	if i := len(r.decisions); i < len(g.path) {
		if g.path[i].kind != kindStore || g.path[i].chosen >= l.n {
			g.bad = true
			return 0
		}
		return g.path[i].chosen
	}
	return 0
}

// playTree builds the play tree of the recorded run rec (a traced run,
// whose decisions it copies: the next run reuses their array).
func (e *explorer) playTree(rec *run) (d *PlayData) {
	start := time.Now()
	// The tree's runs are not schedules of the search: its counts and
	// its observer (onRun) do not see them.
	saved, onRun := e.res, e.onRun
	e.onRun = nil
	d = &PlayData{index: map[string]int{}}
	defer func() {
		e.res, e.onRun = saved, onRun
		if x := recover(); x != nil {
			if _, stuck := x.(StuckError); !stuck {
				panic(x)
			}
			d.Cut = "a run of the tree got stuck outside the explorer's control: the tree stops there"
		}
	}()
	type node struct {
		path []decision
	}
	var nodes []node
	add := func(r *run, parent, fork, from int) {
		tr := r.exportTrace()
		pr := PlayRun{Parent: parent, Fork: fork, From: from, Goroutines: tr.Goroutines, Outcome: "passes"}
		if r.failure != nil {
			pr.Fails, pr.Outcome = true, string(r.failure.Kind)+": "+firstLine(r.failure.Message)
		}
		for _, s := range tr.Steps {
			if s.N < from {
				continue
			}
			text := s.Text
			if s.Loc > 0 {
				text = tr.Locations[s.Loc-1] + " " + text
			}
			if s.ReadsFrom >= 0 {
				text += "  from " + tr.shortName(s.ReadsFrom)
				if s.Stale {
					text += ", not the latest"
				}
			}
			pr.Steps = append(pr.Steps, PlayStep{N: s.N, G: s.G, T: d.str(text), A: d.str(s.At)})
		}
		path := append([]decision(nil), r.decisions...)
		for _, x := range path {
			pd := PlayDecision{Step: x.step, Kind: "g", Chosen: x.chosen, Timer: -1}
			if x.kind == kindStore {
				pd.Kind = "s"
				pd.Options = x.load.alternatives()
				// The step it is about: a read names the store it
				// read; a store's choice is its place.
				pd.Place = x.step < len(tr.Steps) && tr.Steps[x.step].ReadsFrom < 0
			} else {
				pd.Options = x.schedule.alternatives()
				pd.Timer = x.timer
			}
			pr.Decisions = append(pr.Decisions, pd)
		}
		d.Runs = append(d.Runs, pr)
		nodes = append(nodes, node{path})
	}
	add(rec, -1, -1, 1)
	steps := len(d.Runs[0].Steps)
	// Breadth first: every other choice at every decision of run k
	// after the one it forked at.
	for k := 0; k < len(d.Runs); k++ {
		for i := d.Runs[k].Fork + 1; i < len(d.Runs[k].Decisions); i++ {
			pd := &d.Runs[k].Decisions[i]
			for _, o := range pd.Options {
				if o == pd.Chosen {
					continue
				}
				switch {
				case len(d.Runs) >= playMaxRuns:
					d.Cut = fmt.Sprintf("the page holds %d runs (its budget): the choices of the later ones are not explored", playMaxRuns)
					return d
				case steps >= playMaxSteps:
					d.Cut = fmt.Sprintf("the page holds %d steps (its budget): the choices of the later runs are not explored", steps)
					return d
				case time.Since(start) > playMaxTime:
					d.Cut = fmt.Sprintf("the runs took more than %v (the budget): the choices of the later runs are not explored", playMaxTime)
					return d
				}
				path := append(append([]decision(nil), nodes[k].path[:i]...), nodes[k].path[i])
				path[i].chosen = o
				g := &playGuide{path: path}
				r := e.runOnce(g, true)
				if g.bad || r.abandoned.Load() || len(r.decisions) <= i || r.decisions[i].chosen != o {
					continue // the scenario did not repeat itself: no honest branch
				}
				if pd.Children == nil {
					pd.Children = map[string]int{}
				}
				pd.Children[strconv.Itoa(o)] = len(d.Runs)
				add(r, k, i, pd.Step+1)
				steps += len(d.Runs[len(d.Runs)-1].Steps)
			}
		}
	}
	return d
}
