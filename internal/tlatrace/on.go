//go:build tlatrace

package tlatrace

import (
	"sync"

	"github.com/wsched/wsched/internal/goid"
)

// On reports whether the actions are recorded (the tlatrace build tag).
const On = true

// Event is one recorded action: the spec's action name, the process that
// takes it (for the ring, the ring whose owner acts: Push and Pop on it,
// StealInto into it) and the ring it acts on, with the values it read or
// wrote. Positions are the code's uint32; tasks are the code's pointers
// (nil for none); the test that reads the log names both for the spec.
type Event struct {
	Seq               int64  // 1, 2, ... in the order of the actions
	Action            string // the spec's action, e.g. "PushLoad"
	Proc, Ring        any    // the acting process's ring; the ring acted on
	Steal, Real, Tail uint32 // a head read (steal, real); a tail read or written
	N                 uint32 // a claim's batch size; the room of StRoom
	OK                bool   // a CAS succeeded
	Task              any    // the task read or written
	// The idle protocol's records (Idle): Proc is the acting worker's
	// index (Bind), -1 for a goroutine that is no worker.
	Worker int    // the worker an action is about (a claim's, a park's)
	X      int64  // a counter read, or its value after an update
	Bits   uint64 // a bitmap read, or its old value at a fetch-and
	G      int64  // the acting goroutine (goid.Current)
}

// steal is what a goroutine's StealInto in progress has recorded: its
// destination (the spec's process).
type steal struct {
	dst any
}

var (
	rec       bool
	events    []Event
	inSteal   = map[int64]steal{}
	last      = map[int64]int{}  // each goroutine's last record, for SetTask
	workers   = map[int64]int{}  // goroutine -> worker index (Bind)
	cancel    = map[int64]bool{} // goroutine -> inside CancelPark (Cancelling)
	recording sync.Mutex         // guards Start and Stop against each other
)

// Start begins a log, discarding any earlier one.
func Start() {
	recording.Lock()
	lock()
	resetLocked(true)
	unlock()
	recording.Unlock()
}

// resetLocked empties the log and the per-goroutine state, and sets
// whether actions are recorded. The caller holds the trace lock.
func resetLocked(recordOn bool) {
	events, rec = nil, recordOn
	clear(inSteal)
	clear(last)
	clear(workers)
	clear(cancel)
}

// Stop ends the log and returns it.
func Stop() []Event {
	recording.Lock()
	lock()
	ev := events
	resetLocked(false)
	unlock()
	recording.Unlock()
	return ev
}

// Lock is called just before a logged action's atomic operation; the Done
// after it releases it.
func Lock() { lock() }

// Unlock releases Lock when the operation turned out to be no action to
// record.
func Unlock() { unlock() }

// Done records e, the action whose operation followed Lock, and releases
// the lock. A record without Proc belongs to the goroutine's StealInto in
// progress.
func Done(e Event) {
	if rec {
		if e.Proc == nil {
			e.Proc = inSteal[goid.Current()].dst
		}
		e.Seq = int64(len(events)) + 1
		last[goid.Current()] = len(events)
		events = append(events, e)
	}
	unlock()
}

// Note records an action that touches no shared state.
func Note(e Event) { Lock(); Done(e) }

// StealBegin records the start of a StealInto from src into dst.
func StealBegin(dst, src any) {
	lock()
	inSteal[goid.Current()] = steal{dst: dst}
	unlock()
	Note(Event{Action: "StealBegin", Proc: dst, Ring: src})
}

// Room records StRoom: dst's tail as its owner read it and the room
// computed from dst's steal head, read since Lock. It releases the lock.
func Room(dst any, tail, room uint32) {
	Done(Event{Action: "StRoom", Proc: dst, Ring: dst, Tail: tail, N: room})
}

// SetTask sets the task of the calling goroutine's last record: the slot
// read that the spec folds into a CAS (Pop's take) comes after the CAS in
// the code, and under the explorer it is a scheduling point of its own, so
// the record goes into the log at the CAS and gets its task here. Nobody
// else touches the slot in between: the CAS claimed it.
func SetTask(task any) {
	lock()
	if rec {
		if j, ok := last[goid.Current()]; ok {
			events[j].Task = task
		}
	}
	unlock()
}

// Bind names the calling goroutine as worker w of the idle protocol: its
// idle records get Proc w (impl/sched's worker goroutine, as it starts).
// A log binds anew: Start forgets earlier bindings.
func Bind(w int) {
	lock()
	if rec {
		workers[goid.Current()] = w
	}
	unlock()
}

// Idle records an action of IdleProtocol taken by the calling goroutine,
// whose operation followed Lock, and releases the lock. Proc is the
// goroutine's worker (Bind), or -1.
func Idle(e Event) {
	g := goid.Current()
	e.G = g
	if w, ok := workers[g]; ok {
		e.Proc = w
	} else {
		e.Proc = -1
	}
	if cancel[g] { // Unpark called by CancelPark: the re-check found work
		switch e.Action {
		case "WkReason":
			e.Action = "PkCancel"
		case "WkNp":
			e.Action = "PkCancelNp"
		}
	}
	Done(e)
}

// Cancelling marks the calling goroutine as inside CancelPark (on) or out
// of it (off), so that the Unpark it calls is logged as the spec's
// PkCancel and PkCancelNp rather than WkReason and WkNp.
func Cancelling(on bool) {
	lock()
	if on {
		cancel[goid.Current()] = true
	} else {
		delete(cancel, goid.Current())
	}
	unlock()
}

// StrandProc is the Proc of Stranding's records: no other protocol's
// log reads them (they take only records whose Proc is theirs).
const StrandProc = "stranding"

// Strand records an action of Stranding (tla/Stranding.tla at the code's
// grain) that the calling goroutine has just taken: a task's move into a
// place or out of one, the end of a poll, a step of the monitor. worker
// is the worker acting or acted on (the code's index), task the task
// record, x a victim worker's index (-1 for none), n and ok what the
// action says besides (tla/trace/strand.go reads them). impl/sched calls
// it right after the atomic operation that makes the move visible to
// other goroutines, with no scheduling point of the explorer in between,
// or, for a take, after the operation that took the task (nobody else
// can take it then); the order is faithful under the explorer only (a
// plain build does not hold the trace lock across the operation).
func Strand(action string, worker int, task any, x int64, n uint32, ok bool) {
	Note(Event{Action: action, Proc: StrandProc, Worker: worker, Task: task, X: x, N: n, OK: ok, G: goid.Current()})
}

// Mark is how many records the log holds: every later record's Seq is
// above it. A decision made on a read that follows Mark and recorded later
// can be told, by the records in between, whether others acted after the
// read (the monitor's flag: tla/trace's StrandLog marks it stale).
func Mark() int64 {
	lock()
	n := int64(len(events))
	unlock()
	return n
}

// StrandDone is Strand for an operation that held the trace lock since
// Lock (its record is then ordered with it in a plain build too).
func StrandDone(action string, worker int, task any, x int64, n uint32, ok bool) {
	Done(Event{Action: action, Proc: StrandProc, Worker: worker, Task: task, X: x, N: n, OK: ok, G: goid.Current()})
}
