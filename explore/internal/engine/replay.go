package engine

import (
	"fmt"
	"sort"
)

// Replaying a token, and the failure that says a replay did not follow it.
//
// A replay reproduces its schedule or fails saying why not. It runs the
// scenario once, with a trace, taking at each decision the token's choice
// or the default; it diverges, and fails with kind "diverged" and a
// message "replay diverged at step N: ...", when
//
//   - the token was recorded in another memory mode or with other
//     parameters (step 0: nothing ran);
//   - a listed decision is of another kind in this run (a store choice
//     where the run chooses a goroutine);
//   - a listed choice is not one the run offers there (a goroutine that
//     cannot run, a store past the read's candidates);
//   - the run ended, or failed, before reaching every listed decision.
//
// N is the number of the step the trace was about to print, so the
// trace printed with the failure ends where the replay left the token.

// kindDiverged is the failure of a replay that left its token.
const kindDiverged failureKind = "diverged"

// replayGuide follows a token: the listed decisions take the listed
// choice, every other decision the default.
type replayGuide struct {
	tok  Token
	used int // listed decisions reached
}

func (g *replayGuide) goroutine(r *run, s schedule) int {
	return g.follow(r, kindGoroutine, s.defaultChoice())
}

func (g *replayGuide) store(r *run, l load) int { return g.follow(r, kindStore, 0) }

// follow is the token's choice at the next decision, of kind kind, or
// def if the token lists none; -1 if the token lists another kind there.
func (g *replayGuide) follow(r *run, kind byte, def int) int {
	i := len(r.decisions)
	c, ok := g.tok.Choices[i]
	if !ok {
		return def
	}
	g.used++
	if c.Kind != kind {
		r.diverged = fmt.Sprintf("decision %d is %s here, but the token lists %s (%c%d) for it", i, kindName(kind), kindName(c.Kind), c.Kind, c.Choice)
		return -1
	}
	return c.Choice
}

// diverge fails the schedule as a replay that left its token.
func (r *run) diverge(t *thread, why string) {
	if r.diverged != "" {
		why = r.diverged
	}
	r.failNow(t, kindDiverged, fmt.Sprintf("replay diverged at step %d: %s", r.numbered+1, why))
}

// fail finishes a failed exploration: it replays the failing schedule with
// a trace, which must fail the same way (the code is deterministic under
// the explorer, or the report says it is not).
func (e *explorer) fail(r *run) Result {
	f := r.failure
	f.Token = encodeToken(e.opt, r.decisions)
	f.Schedule = e.res.Schedules
	f.Preemptions = r.preempts
	tr := e.runOnce(&replayGuide{tok: mustParseToken(f.Token)}, true)
	e.res.Schedules-- // the traced replay is not a new schedule
	f.Trace = tr.formatTrace()
	f.trace = tr.exportTrace()
	if e.opt.Play {
		f.trace.Play = e.playTree(tr)
	}
	// The traced run's messages name source lines; its kind and the
	// goroutine that failed must match.
	if tr.failure != nil && tr.failure.Kind == kindRace && f.Kind == kindRace && tr.failure.Thread == f.Thread {
		// A search's runs name no plain cell's accesses (WeakCell): the
		// traced replay's message names their lines.
		f.Message = tr.failure.Message
	}
	if tr.failure == nil || tr.failure.Kind != f.Kind || tr.failure.Thread != f.Thread {
		got := "passed"
		if tr.failure != nil {
			got = "failed with: " + tr.failure.Message
		}
		f.Trace += fmt.Sprintf("\nWARNING: the traced replay %s; the scenario is not deterministic under the explorer.\n", got)
	}
	e.res.Failure = f
	return e.res
}

// replay runs the schedule of tok, checking that the run follows it.
func (e *explorer) replay(tok string) Result {
	e.res.Mode = "replay"
	t, err := ParseToken(tok)
	if err != nil {
		e.res.Failure = &Failure{Kind: kindDiverged, Message: "replay diverged at step 0: " + err.Error(), Token: tok, Schedule: 1}
		return e.res
	}
	if want := ModeOf(e.opt); t.header() != want.header() {
		e.res.Failure = &Failure{Kind: kindDiverged, Token: tok, Schedule: 1, Message: fmt.Sprintf(
			"replay diverged at step 0: the token was recorded %s, and this run is %s; its choices mean nothing here (replay with the command the failure printed)",
			t.describe(), want.describe())}
		return e.res
	}
	g := &replayGuide{tok: t}
	r := e.runOnce(g, true)
	if g.used < len(t.Choices) && (r.failure == nil || r.failure.Kind != kindDiverged) {
		var left []int
		for k := range t.Choices {
			if k >= len(r.decisions) {
				left = append(left, k)
			}
		}
		sort.Ints(left)
		why := fmt.Sprintf("the run ended after %d decision(s), but the token lists decision %d", len(r.decisions), left[0])
		if r.failure != nil {
			why = fmt.Sprintf("the run failed after %d decision(s), before the token's decision %d (it failed with %s: %s)", len(r.decisions), left[0], r.failure.Kind, firstLine(r.failure.Message))
		}
		r.failure = &Failure{Kind: kindDiverged, Thread: "main", Message: fmt.Sprintf("replay diverged at step %d: %s", r.numbered, why)}
	}
	if r.failure != nil {
		f := r.failure
		f.Token, f.Schedule, f.Preemptions = tok, 1, r.preempts
		f.Trace = r.formatTrace()
		f.trace = r.exportTrace()
		if e.opt.Play && f.Kind != kindDiverged {
			f.trace.Play = e.playTree(r)
		}
		e.res.Failure = f
		return e.res
	}
	e.res.Failure = nil
	e.res.Trace = r.formatTrace()
	return e.res
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
