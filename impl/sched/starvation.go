package sched

import (
	"runtime/metrics"

	"github.com/wsched/wsched/impl/internal/debugcheck"
)

// Telling a blocked poll from a starved one.
//
// The monitor calls a worker stuck when its tick count has not moved for
// LongPoll. A poll blocked on a channel, a lock or a system call, and a
// poll that is merely waiting for a processor (on a machine whose
// processors are all busy), look the same by that count. For the first
// an extra worker is the help: it runs the tasks waiting behind the
// blocked poll. For the second it is harm: one more goroutine competing
// for the same processors makes every poll wait longer, more workers
// look stuck, and the monitor would spend the whole extra budget in a
// burst (64 workers and 256 extra workers all flagged stuck, each merely
// waiting for one of two processors, and a Shutdown that then waited
// for all of them).
//
// The runtime counts the process's goroutines by state
// (runtime/metrics): running (on a processor), runnable (ready, waiting
// for one), waiting (on a channel, a lock, I/O) and in a system call. A
// stuck worker that runs or waits for a processor is counted in the
// first two. So if more workers are stuck than goroutines run (the
// monitor, which is reading, aside) or wait to run, at least one stuck
// worker is in neither state: it is blocked, and an extra worker is
// started at once, as always. So it is too when no extra worker runs:
// the first is the help a blocked poll needs, and one goroutine more
// cannot make a storm. Otherwise every stuck worker may be one that only
// waits for a processor, extra workers already compete for them, and
// the next ones are paced: each after twice the previous gap (from
// LongPoll up to maxPaceLongPolls LongPolls), the pacing starting over
// when a start comes at once (extra workers retire when they find
// nothing, so a new episode of stuck workers begins with none running).
// The gap does not shrink while the monitor itself waits for a
// processor between looks: a starved monitor looks seldom, and each look
// must not count as a new episode. Pacing, not refusing: the counts are the process's,
// and goroutines that are not the runtime's may keep every processor
// busy while a worker is truly blocked with tasks behind it; those tasks
// still get a worker, later.
//
// The counts are approximate (the runtime reads them without stopping
// anything), which is why they only choose between at once and paced,
// never between help and none. Under the explore build tag the monitor
// starts an extra worker whenever its rule says so (allowExtra): the
// counts are the real runtime's, which an explored schedule does not
// control; a scenario that sets exploreCounts chooses them instead, and
// the rule runs whole (TestExplorePacingPair).

// maxPaceLongPolls bounds the pacing gap, in LongPolls: a blocked poll
// hidden by a busy process waits at most about that long for a worker.
const maxPaceLongPolls = 1024

// extraPacing is the monitor's record for the pacing (monitor only, kept
// by runMonitor).
type extraPacing struct {
	samples [2]metrics.Sample // running, runnable
	gap     int64             // the last gap; 0: the next start comes at once
	next    int64             // when a paced start may come
}

// allowExtra reports whether the monitor may start an extra worker now,
// stuck workers being flagged in this look and none healthy.
func (p *extraPacing) allowExtra(m *monitor, now int64, stuck int) bool {
	if debugcheck.Explore && exploreCounts == nil {
		return true
	}
	// Observes whether an extra worker runs; relaxed: a count, and a
	// stale one only moves a start by one look.
	if m.rt.extras.running.LoadRelaxed() == 0 || m.blockedAmong(p, stuck) {
		p.gap, p.next = 0, 0
		return true
	}
	if now < p.next {
		return false
	}
	p.gap = min(max(2*p.gap, m.longPoll), maxPaceLongPolls*m.longPoll)
	p.next = now + p.gap
	return true
}

// blockedAmong reports whether the goroutine counts prove that some of
// the stuck workers are blocked: more of them than goroutines running
// (but the monitor) and runnable. Without the counts (a runtime that
// lacks them), it says yes: the monitor then helps as it always did.
func (m *monitor) blockedAmong(p *extraPacing, stuck int) bool {
	if p.samples[0].Name == "" {
		p.samples[0].Name = "/sched/goroutines/running:goroutines"
		p.samples[1].Name = "/sched/goroutines/runnable:goroutines"
	}
	if debugcheck.Explore && exploreCounts != nil {
		running, runnable := exploreCounts()
		return blockedBy(stuck, running, runnable)
	}
	metrics.Read(p.samples[:])
	if p.samples[0].Value.Kind() != metrics.KindUint64 || p.samples[1].Value.Kind() != metrics.KindUint64 {
		return true
	}
	return blockedBy(stuck, p.samples[0].Value.Uint64(), p.samples[1].Value.Uint64())
}

// blockedBy is blockedAmong's rule on the counts read: more workers stuck
// than goroutines running (but the monitor, which runs, reading) and
// runnable.
func blockedBy(stuck int, running, runnable uint64) bool {
	running = max(running, 1) - 1 // the monitor runs, reading
	return uint64(stuck) > running+runnable
}

// exploreCounts, when a scenario of the explore build sets it, gives the
// goroutine counts (running, runnable) the monitor reads instead of the
// runtime's, so that the pacing rule runs under the explorer with counts
// the scenario chooses. Never set in other builds (the branches that read
// it are compiled only under the explore tag).
var exploreCounts func() (running, runnable uint64)
