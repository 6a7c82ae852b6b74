//go:build tlatrace

package trace

import (
	"fmt"
	"strings"

	"github.com/wsched/wsched/internal/tlatrace"
)

// StrandModel is the configuration of Stranding at the code's grain
// (StrandCode*.cfg) a log of impl/sched is checked against: the shape of
// the hazard, the workers, and the names of the run's tasks.
type StrandModel struct {
	Shape    string // "batch", "lifo" or "spawn"
	N        int    // regular workers (1..3)
	ExtraMax int    // extra worker slots
	// Names are the spec's names of the run's tasks in the order they
	// first appear in its log ("B1".."B4", "P").
	Names []string
}

// The models of the traced scenarios, by shape: stranding/batch-mate (a
// blocker from outside, then P), stranding/lifo-slot (P from outside,
// pending, then a blocker that wakes it into its slot), and
// stranding/extra-worker (one worker; a blocker that spawns P).
var (
	strandBatch = StrandModel{Shape: "batch", N: 2, ExtraMax: 1, Names: []string{"B1", "P"}}
	strandLIFO  = StrandModel{Shape: "lifo", N: 2, ExtraMax: 1, Names: []string{"P", "B1"}}
	strandSpawn = StrandModel{Shape: "spawn", N: 1, ExtraMax: 1, Names: []string{"B1", "P"}}
)

// StrandGrain is the spec's switches for the code's grain, all on.
var StrandGrain = []string{"Arrivals", "NotifyWakes", "WakeApart", "Repolls", "EffectInPoll", "AnyOrder", "PartialBatch", "LooseMonitor", "RestApart"}

// Constants is the CONSTANTS section: the design as implemented (the
// monitor, the slot stealable once flagged, no private buffer) at the
// code's grain.
func (m StrandModel) Constants() string {
	k := 0
	for _, n := range m.Names {
		if strings.HasPrefix(n, "B") {
			k++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CONSTANTS\n    N = %d\n    ExtraMax = %d\n    K = %d\n    Shape = %q\n", m.N, m.ExtraMax, k, m.Shape)
	b.WriteString("    PrivateBuffer = FALSE\n    SlotStealable = TRUE\n    Monitor = TRUE\n    BusyOther = FALSE\n    FairnessSteal = TRUE\n")
	for _, s := range StrandGrain {
		fmt.Fprintf(&b, "    %s = TRUE\n", s)
	}
	return b.String()
}

// StrandInvariants are Stranding's invariants checked along every log.
var StrandInvariants = []string{"TypeOK", "AtMostOnce", "OnePollPerWorker", "PlacesAgree"}

// StrandBatch is a batch of logs for TraceStranding, the spec mutated by
// mutate when set (then with no invariants: a mutant's may fail).
func (m StrandModel) StrandBatch(logs []string, mutate func(string) (string, error)) Batch {
	b := Batch{Spec: "Stranding", Constants: m.Constants(), Logs: logs, Post: "TraceAccepted", Mutate: mutate}
	if mutate == nil {
		b.Invariants = StrandInvariants
	}
	return b
}

// placesTask reports whether e puts its task where a worker takes it
// from: a blocker's wake or spawn, a poll's requeue, a batch's rest.
func placesTask(e tlatrace.Event) bool {
	switch e.Action {
	case "SArrive", "SLifo", "SRing", "SRest":
		return true // SRest: a batch's rest pushed into the ring
	case "SEnd":
		return !e.OK && e.N == 1
	}
	return false
}

// PushesBeforeTakes moves the record of a push into a slot or a ring
// (SLifo, SRing, SRest, a requeue's SEnd) that comes after a take of its
// task to just before that take, and says how many it moved. (The
// taker's own records of the task, its poll's end, may come between.) The take read
// the pushed task, so the push came first; in a plain build its record,
// appended after the push without the trace lock held across it (the
// ring's own records take that lock inside Ring.Push), can fall behind
// the thief's. Moving it later than it happened is sound for the trace:
// the records it passes do not depend on the task's absence (parks, the
// monitor's sight of a task and notifies are free or unguarded by it).
// Under the explorer no record comes between a push and its record, and
// nothing moves.
func PushesBeforeTakes(evs []tlatrace.Event) ([]tlatrace.Event, int) {
	placed := map[any]bool{}
	moved := map[int]bool{}
	out := make([]tlatrace.Event, 0, len(evs))
	n := 0
	for i, e := range evs {
		if moved[i] {
			continue
		}
		if e.Proc == tlatrace.StrandProc && e.Action == "STake" && !placed[e.Task] {
			for j := i + 1; j < len(evs); j++ {
				f := evs[j]
				if f.Proc != tlatrace.StrandProc || f.Task != e.Task || moved[j] {
					continue
				}
				if placesTask(f) && f.Action != "SArrive" {
					out = append(out, f)
					moved[j] = true
					placed[e.Task] = true
					n++
					break
				}
				if f.Action == "STake" {
					break // the task's next take: no push of it before
				}
				// the taker's own records of the task (its poll's end)
				// may come before the push's: go on looking
			}
		}
		if e.Proc == tlatrace.StrandProc && e.Task != nil {
			switch {
			case placesTask(e):
				placed[e.Task] = true
			case e.Action == "STake", e.Action == "SEnd", e.Action == "SHand":
				placed[e.Task] = false
			}
		}
		out = append(out, e)
	}
	return out, n
}

// PushesBeforeHelp moves the record of a ring push (SRing, SRest, a
// requeue's SEnd) before a help of the monitor (its claim, SExtra) that
// comes before it when the pusher recorded nothing between the two: the
// push may have come before the monitor's look at the queues (its record
// follows the push without the trace lock, Ring.Push taking that lock
// inside), and the monitor helps only for a task it saw. The order of the
// two is not observed in a plain build; the trace takes the push first
// (permissive: a help for a task pushed after the look is not caught in
// stress logs; the explorer's logs have no such gap, and nothing moves).
func PushesBeforeHelp(evs []tlatrace.Event) ([]tlatrace.Event, int) {
	out := append([]tlatrace.Event(nil), evs...)
	n := 0
	for h := 0; h < len(out); h++ {
		e := out[h]
		help := e.Proc == tlatrace.StrandProc && e.Action == "SExtra" || e.Action == "NFetchAnd" && e.OK && monitorClaim(out, h)
		if !help {
			continue
		}
		for p := h + 1; p < len(out); p++ {
			f := out[p]
			ring := f.Action == "SRing" || f.Action == "SRest" || (f.Action == "SEnd" && !f.OK && f.N == 1)
			if f.Proc != tlatrace.StrandProc || !ring {
				continue
			}
			quiet := true // the pusher recorded nothing in between
			for q := h + 1; q < p; q++ {
				if out[q].G == f.G {
					quiet = false
					break
				}
			}
			if !quiet {
				continue
			}
			copy(out[h+1:p+1], out[h:p])
			out[h] = f
			h++
			n++
		}
	}
	return out, n
}

// monitorClaim reports whether the claim evs[j] is the monitor's: the
// next Stranding record of its goroutine is an SMonWake.
func monitorClaim(evs []tlatrace.Event, j int) bool {
	for _, e := range evs[j+1:] {
		if e.G == evs[j].G && e.Proc == tlatrace.StrandProc {
			return e.Action == "SMonWake"
		}
	}
	return false
}

// StaleFlags says, by Seq, which of the monitor's flags (SFlag) may be
// stale: the monitor decides on a tick count it read after Mark (the
// record's X) and stores the flag later, and the worker may have moved on
// in between. A flag is marked stale when the log holds a record of its
// worker's between the mark and the flag: a step of the worker's own (a
// take, a poll's end, a wake, a rest; not a task's arrival from outside),
// or a claim of it (NFetchAnd). With none, the log's view of the worker is
// the one the monitor read, and the flag is of the poll it shows (Stranding's
// MonFlag); a stale one is MonFlagStale, of no poll. Conservative: a record
// made after the read of a step taken before it marks the flag stale too.
// evs is a log as Stop returns it, in the order of Seq.
func StaleFlags(evs []tlatrace.Event) map[int64]bool {
	out := map[int64]bool{}
	for i, e := range evs {
		if e.Proc != tlatrace.StrandProc || e.Action != "SFlag" {
			continue
		}
		for k := i - 1; k >= 0 && evs[k].Seq > e.X; k-- {
			f := evs[k]
			if f.Worker == e.Worker && (f.Proc == tlatrace.StrandProc && f.Action != "SArrive" || f.Action == "NFetchAnd" && f.OK) {
				out[e.Seq] = true
				break
			}
		}
	}
	return out
}

// StrandLog is evs as a TLA+ sequence of the records TraceStranding
// reads (internal/tlatrace.Strand's, and impl/idle's claims of a parked
// worker by a notifier: NFetchAnd; the other records are skipped).
// Workers are numbered 1..N+ExtraMax (the code's index + 1), tasks named
// by m.Names in the order they first appear. It fails on what Stranding
// has no step for: more tasks than named, a worker outside the model, a
// steal of more than one task, a displaced slot task, a flush of the slot,
// a yield, an extra worker's hand-off.
func (m StrandModel) StrandLog(evs []tlatrace.Event) (string, error) {
	names := map[any]string{}
	name := func(j int, t any) (string, error) {
		if s, ok := names[t]; ok {
			return s, nil
		}
		if len(names) == len(m.Names) {
			return "", fmt.Errorf("record %d: a task past the model's %d (%v)", j+1, len(m.Names), m.Names)
		}
		s := m.Names[len(names)]
		names[t] = s
		return s, nil
	}
	all := m.N + m.ExtraMax
	place := func(kind string, w int) string { return fmt.Sprintf("[k |-> %q, w |-> %d]", kind, w) }
	stale := StaleFlags(evs)
	evs, _ = PushesBeforeHelp(evs)
	evs, _ = PushesBeforeTakes(evs)
	restOf := map[int]bool{} // SHand records read with their take
	var recs []string
	for j := 0; j < len(evs); j++ {
		e := evs[j]
		if e.Action == "NFetchAnd" && e.OK {
			// impl/idle's claim of a parked worker, recorded under the
			// trace lock: a notifier's (Notify) or the monitor's (MonWake:
			// its SMonWake follows, unlocked, and the claimed worker may
			// run before it, so the claim stands for it).
			a := "Notify"
			if monitorClaim(evs, j) {
				a = "MonWake"
			}
			recs = append(recs, fmt.Sprintf("[a |-> %q, w |-> %d]", a, e.Worker+1))
			continue
		}
		if e.Proc != tlatrace.StrandProc {
			continue
		}
		w := e.Worker + 1
		if e.Action != "SArrive" && (w < 1 || w > all) {
			return "", fmt.Errorf("record %d (%s): worker %d outside the model's %d", j+1, e.Action, e.Worker, all)
		}
		var t string
		if e.Task != nil && e.Action != "SArrive" {
			var err error
			if t, err = name(j, e.Task); err != nil {
				return "", err
			}
		}
		var r string
		switch e.Action {
		case "SArrive":
			if _, seen := names[e.Task]; seen {
				return "", fmt.Errorf("record %d: %s pushed to the global queue again (a remote wake, a timer); Stranding has no step for it", j+1, names[e.Task])
			}
			var err error
			if t, err = name(j, e.Task); err != nil {
				return "", err
			}
			r = fmt.Sprintf("[a |-> \"Arrive\", w |-> 0, t |-> %q]", t)
		case "STake":
			var from string
			var rest []string
			switch {
			case e.OK && e.N == 0:
				from = place("lifo", w)
			case e.OK && e.N == 1:
				from = place("ring", w)
			case e.OK && e.N == 2:
				from = place("global", 0)
				// The batch's rest (to the worker's hands): the SHand
				// records of the same goroutine that follow (in a
				// plain build another goroutine's records may come
				// between).
				for k := j + 1; k < len(evs); k++ {
					f := evs[k]
					if f.G != e.G || f.Proc != tlatrace.StrandProc {
						continue
					}
					if f.Action != "SHand" {
						break
					}
					s, err := name(k, f.Task)
					if err != nil {
						return "", err
					}
					rest = append(rest, fmt.Sprintf("%q", s))
					restOf[k] = true
				}
			case e.N == 0:
				from = place("lifo", int(e.X)+1)
			case e.N == 1:
				from = place("ring", int(e.X)+1)
			default:
				return "", fmt.Errorf("record %d: a steal of %d tasks; Stranding's steal takes one", j+1, e.N)
			}
			r = fmt.Sprintf("[a |-> \"Take\", w |-> %d, t |-> %q, from |-> %s, rest |-> {%s}]", w, t, from, strings.Join(rest, ", "))
		case "SEnd":
			to := place("done", 0)
			switch {
			case e.OK:
			case e.N == 0:
				to = place("nowhere", 0)
			case e.N == 1:
				to = place("ring", w)
			default:
				return "", fmt.Errorf("record %d: a poll of %s yielded; Stranding has no yield", j+1, t)
			}
			r = fmt.Sprintf("[a |-> \"End\", w |-> %d, t |-> %q, ok |-> %s, to |-> %s]", w, t, tlaBool(e.OK), to)
		case "SLifo", "SRing":
			if !e.OK {
				return "", fmt.Errorf("record %d: a wake into worker %d's slot displaced a task; Stranding has no such step", j+1, e.Worker)
			}
			kind := "lifo"
			if e.Action == "SRing" {
				kind = "ring"
			}
			r = fmt.Sprintf("[a |-> \"Wake\", w |-> %d, t |-> %q, to |-> %s]", w, t, place(kind, w))
		case "SMonWake":
			continue // its claim (NFetchAnd) stands for it
		case "SFlag":
			r = fmt.Sprintf("[a |-> \"Flag\", w |-> %d, stale |-> %s]", w, tlaBool(stale[e.Seq]))
		case "SUnflag", "SExtra":
			a := map[string]string{"SUnflag": "Unflag", "SExtra": "Extra"}[e.Action]
			r = fmt.Sprintf("[a |-> %q, w |-> %d]", a, w)
		case "SHand":
			if !restOf[j] {
				return "", fmt.Errorf("record %d: a batch's rest with no take before it", j+1)
			}
			continue
		case "SRest":
			r = fmt.Sprintf("[a |-> \"Rest\", w |-> %d, t |-> %q]", w, t)
		default:
			return "", fmt.Errorf("record %d: %s: Stranding has no step for it", j+1, e.Action)
		}
		recs = append(recs, r)
	}
	return "<<" + strings.Join(recs, ",\n") + ">>", nil
}
