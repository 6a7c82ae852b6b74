package engine

import (
	"fmt"
	"runtime"
	"strings"
)

// NearestRun explains a trace the reduced search missed, for whoever must
// find out why: it replays the plain schedule tok, runs the reduced search
// again, and finds the run that follows the trace longest (the longest
// prefix of its steps that some schedule of the trace begins with). There
// the run and the trace part: the report gives the decision, what the run
// chose, which goroutines the trace goes on with, and what each step
// touched. The race that should have asked for one of them at that
// decision is the place to look.
func NearestRun(opt Options, body func(), tok string) string {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	e := &explorer{opt: opt, body: body, record: true}
	tr := e.runOnce(&replayGuide{tok: mustParseToken(tok)}, false)
	want := append([]porEvent(nil), tr.por.events...)
	for i := range want {
		want[i].acc = append([]access(nil), want[i].acc...)
		want[i].clock = append([]uint32(nil), want[i].clock...)
	}
	steps := map[int][]int{} // per goroutine, its steps in want
	for i, ev := range want {
		steps[ev.tid] = append(steps[ev.tid], i)
	}
	// ready reports whether goroutine q's next step in the trace has
	// every step it depends on done.
	ready := func(q int, done map[int]int) bool {
		if done[q] >= len(steps[q]) {
			return false
		}
		for o, k := range want[steps[q][done[q]]].clock {
			if o != q && uint32(done[o]) < k {
				return false
			}
		}
		return true
	}
	best, runs := -1, 0
	var bestEvents []porEvent
	var bestDecs []decision
	var bestDone map[int]int
	e2 := &explorer{opt: opt, body: body}
	e2.onRun = func(r *run) {
		runs++
		if r.por.stopped {
			return
		}
		done := map[int]int{}
		l := 0
		for ; l < len(r.por.events); l++ {
			q := r.por.events[l].tid
			if !ready(q, done) {
				break
			}
			done[q]++
		}
		if l > best {
			best, bestDone = l, done
			bestEvents = append(bestEvents[:0], r.por.events...)
			for i := range bestEvents {
				bestEvents[i].acc = append([]access(nil), bestEvents[i].acc...)
			}
			bestDecs = append(bestDecs[:0], r.decisions...)
		}
	}
	if opt.Unbounded {
		e2.porRound(unboundedSearch(opt.Weak))
	} else {
		for b := 0; b <= opt.Preemptions; b++ {
			e2.porRound(&porSearch{bound: b})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the missed trace has %d steps; of %d reduced runs, the nearest (%s) follows it for %d steps",
		len(want), runs, encodeToken(opt, bestDecs), best)
	if best < 0 || best >= len(bestEvents) {
		return b.String()
	}
	ev := &bestEvents[best]
	fmt.Fprintf(&b, "\nthere it runs goroutine %d (its step %d, touching %v)", ev.tid, ev.local, ev.acc)
	if ev.dec >= 0 {
		d := &bestDecs[ev.dec]
		pre := 0
		for _, x := range bestDecs[:ev.dec] {
			if x.preempt {
				pre++
			}
		}
		fmt.Fprintf(&b, " at decision %d (could go: %s; running: %d; timeout: %d; %d preemptions before)",
			ev.dec, tr.names(d.enabled), d.cur, d.timer, pre)
	}
	b.WriteString("; the trace goes on with:")
	for q := range steps {
		if ready(q, bestDone) {
			w := &want[steps[q][bestDone[q]]]
			fmt.Fprintf(&b, "\n  goroutine %d's step %d (touching %v, everything: %v)", q, bestDone[q], w.acc, w.all)
		}
	}
	return b.String()
}
