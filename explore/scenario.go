package explore

import (
	"context"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/engine"
)

// What a scenario calls: its goroutines, its checks, and the waits and
// clock it needs besides the code under test.

// Thread is a goroutine started with Go.
type Thread struct{ t *engine.Thread }

// Go starts f as a goroutine under the explorer's control, named name in
// traces. Outside a run it is a go statement.
func Go(name string, f func()) *Thread {
	return &Thread{engine.Go(name, f)}
}

// Join waits until the goroutine has returned. What the goroutine did
// happens before Join returns, in the weak-memory mode too.
func (th *Thread) Join() {
	if th != nil {
		th.t.Join()
	}
}

// Symmetric declares the goroutines ths interchangeable, so that the
// plain search explores them once per orbit: at a decision where two of
// them are twins (equal histories: the same operations on the same
// locations, each reading what the same write, or twins' equal writes,
// left there) and neither is the goroutine deciding, it runs the lower
// one and skips the other, whose schedules mirror its own with the two
// swapped, preemption for preemption. Call it right after starting them,
// before any of them has taken a step. Declare only goroutines that:
// run the same function on the same inputs (a name used only in
// messages may differ; a worker of a runtime is given its own worker,
// which others use by index: not the same input); never act on their
// identity (asking for the goroutine's number ends twinship); and are
// not told apart by the rest of the
// scenario (join them with JoinAll; every check holds, or fails, for
// any permutation of them). Data a member makes for itself is fine (a
// thief's own ring, a task it publishes later): its first write to
// shared state, or access to its own data through a scheduling point,
// ends its twinship. A failure found is then found up to a
// permutation of the group. The bounded reduced search and the
// weak-memory mode skip twins too (there a member's twinship also ends
// at a release, an acquire of a lock or channel, a join or a yield, and
// a read records which store it read); the unbounded reduced search
// runs a twin's branches as their mirror image, led by the goroutine it
// twins.
// Options.NoSymmetry (WSCHED_EXPLORE_SYMMETRY=off) turns it off.
// docs/explore.md, "Symmetry", gives the argument and the measurements.
func Symmetric(ths ...*Thread) { engine.Symmetric(engineThreads(ths)...) }

// engineThreads is the engine's goroutines of ths (nil ones left out).
func engineThreads(ths []*Thread) []*engine.Thread {
	ts := make([]*engine.Thread, 0, len(ths))
	for _, th := range ths {
		if th != nil {
			ts = append(ts, th.t)
		}
	}
	return ts
}

// JoinAll waits until every goroutine of ths has returned, in one step
// that waits for them all: how a scenario joins a Symmetric group
// without telling its members apart. What they did happens before
// JoinAll returns, in the weak-memory mode too.
func JoinAll(ths ...*Thread) { engine.JoinAll(engineThreads(ths)...) }

// Failf fails the schedule: the scenario found a broken property. It does
// not return. The explorer prints the schedule that led here.
func Failf(format string, args ...any) { engine.Failf(format, args...) }

// Assert fails the schedule with the message unless ok.
func Assert(ok bool, format string, args ...any) {
	if !ok {
		Failf(format, args...)
	}
}

// Event is a one-shot flag a goroutine can wait for: a scenario's stand-in
// for a channel that one side closes. Set happens before a Wait or an
// IsSet that sees it.
type Event struct{ e engine.Event }

// Set sets the event (a scheduling point).
func (e *Event) Set() { e.e.Set() }

// IsSet reports whether the event is set (a scheduling point).
func (e *Event) IsSet() bool { return e.e.IsSet() }

// Wait blocks until the event is set.
func (e *Event) Wait() { e.e.Wait() }

// Block is a scheduling point at which the caller waits until ready()
// reports true. ready is evaluated by whichever goroutine is deciding, with
// every other goroutine stopped; it must only look, never change anything.
// what says what is awaited, for the trace and the deadlock report. Outside
// a run, Block panics.
//
// The reduced search takes a Block to conflict with every other step; the
// instrumented locks and channels of impl/ block on the one location they
// wait for instead.
func Block(ready func() bool, what string) {
	engine.Block(ready, what)
}

// BlockTimeout is Block with a deadline d of virtual time (d <= 0: none).
// It reports false if the deadline passed first. Virtual time passes when
// every goroutine is blocked or spinning on a yield, or, as a choice that
// costs a preemption, while others run (see the package comment, "Time").
func BlockTimeout(ready func() bool, d time.Duration, what string) bool {
	return engine.BlockTimeout(ready, d, what)
}

// Sleep waits d of virtual time: what BlockTimeout(func() bool { return
// false }, d, what) does, but the wait reads nothing, so the reduced
// search orders it against the clock alone (a Block is ordered against
// every step). Outside a run it panics, as Block does.
func Sleep(d time.Duration, what string) { engine.Sleep(d, what) }

// WithCancel is context.WithCancel for a scenario whose goroutines wait on
// the context under the explorer (a Shutdown or a JoinHandle.Wait given
// it): its cancel closes ctx.Done() where the explorer sees it, in the
// step of the goroutine that calls it (no scheduling point of its own, so
// the plain search runs the same schedules as with context.WithCancel).
// The reduced search orders the close against the waits for that channel,
// and in the weak-memory mode the close happens before a wait that sees
// it. A context.WithCancel's cancel closes the channel out of the
// explorer's sight: a wait of explore/sync that finds it closed fails the
// schedule, saying to use this. The parent must not end while the
// context is waited on (context.Background does not): its end would close
// the child's channel unseen too.
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	done := ctx.Done() // made now, so that cancel closes this channel
	loc := *(*uintptr)(unsafe.Pointer(&done))
	return ctx, func() {
		engine.ChannelClosed(loc)
		cancel()
	}
}

// Now returns the run's virtual clock in nanoseconds: 0 when the schedule
// starts. Outside a run it returns the time since the process started.
func Now() int64 { return engine.Now() }

// View registers a view of an object under test for the trace of the
// running schedule: after every step of a traced run (a replay, or the
// re-run of a failing schedule), f is called and its result shown with
// the step, on the counterexample page beside the values of the
// locations. f must only look, with no scheduling point. Outside a traced
// run View does nothing, so a scenario may call it in every schedule.
func View(name string, f func() string) { engine.View(name, f) }

// Object names the object p points to in the trace of the running
// schedule: a location inside it prints as name.field ("r2.tail",
// "stack.free.head") whatever expression the code reached it by, and p,
// as a value, prints as name. Without it, an object is named when a
// traced value first points to it, by its type's first letter and a
// count ("n3": a node), and a location inside no named object by the
// expression the code used. Like View, it does nothing outside a traced
// run.
func Object(name string, p any) { engine.Object(name, p) }
