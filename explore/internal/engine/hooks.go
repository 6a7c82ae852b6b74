package engine

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/weak"
	"github.com/wsched/wsched/internal/goid"
)

// The hooks: what instrumented code calls. explore/atomic and
// explore/sync call them under the explore build tag; the public
// package explore calls the ones a scenario uses (Go, Assert, Event, Block,
// Now). Outside a run (no Explore in progress) every hook passes straight
// through, so instrumented code still works in an ordinary test.

// Active reports whether a schedule is being run. Instrumented code asks
// before taking its controlled path.
func Active() bool { return current.Load() != nil }

func init() { goid.NameBy(GoroutineID) }

// GoroutineID names the calling goroutine while a schedule runs: a
// negative number no other goroutine of the process is given, the same
// for every call from one goroutine. ok is false outside a run. Only the
// thread whose turn it is runs (r.cur, kept even while a failed schedule
// is torn down), so the number is that thread's; internal/goid asks here
// first (through goid.NameBy, in this package's init), because the
// runtime's own number costs a stack trace (about a microsecond, and a
// worker asks as it starts, in every schedule).
func GoroutineID() (id int64, ok bool) {
	r := current.Load()
	if r == nil || r.cur == nil {
		return 0, false
	}
	if r.sym != nil {
		// The goroutine sees its identity: it may act on it.
		r.sym.grow(len(r.threads))
		r.sym.note(r.cur, 0x1D)
	}
	return -r.cur.serial, true
}

// Tracing reports whether the running schedule records a trace, so that a
// caller formats the values it passes to Note only when they are shown.
func Tracing() bool {
	r := current.Load()
	return r != nil && r.tracing
}

// Point is a scheduling point: the calling goroutine is about to perform an
// operation on shared state, and another goroutine may be run first.
//
// Point says nothing of the operation, so the reduced search takes it to
// conflict with every other; PointAt names it.
func Point() {
	if r := current.Load(); r != nil {
		r.sharedOps++
		r.cur.pendAll, r.cur.yieldStep = true, false
		if r.deps != nil {
			r.deps.unnamed(r.cur.id, "Point")
		}
		r.point(r.cur)
	}
}

// PointAt is a scheduling point before an operation on the shared
// location loc (an address): a write if write is set, else a read. Two
// operations conflict when they are on one location and one writes; the
// reduced search reorders only conflicting ones. Whatever the goroutine
// touches after the operation and before its next scheduling point must
// be its own, or named with Touch.
func PointAt(loc uintptr, write bool) {
	if r := current.Load(); r != nil {
		r.sharedOps++
		t := r.cur
		t.pendBuf[0] = access{loc, write}
		t.pend, t.pendAll, t.yieldStep = t.pendBuf[:], false, false
		if r.deps != nil {
			r.deps.named(loc, CauseAtomic)
		}
		r.point(r.cur)
	}
}

// sharedOps counts the operations on shared state an exploration saw
// (Point, PointAt, BlockOn: the atomics, locks and channel operations of
// explore/atomic and explore/sync), for Result.SharedOps.
var sharedOps atomic.Int64

// Touch records an access to shared location loc that is not a scheduling
// point (a statistics counter, a peek, a check that reads several
// locations at once): it belongs to the operation since the calling
// goroutine's last scheduling point, and the reduced search orders that
// step against every other step that conflicts with it. loc 0 stands for
// every location.
func Touch(loc uintptr, write bool) {
	if r := current.Load(); r != nil && r.por != nil && !r.cur.exiting {
		if r.deps != nil {
			r.deps.named(loc, CauseTouch)
		}
		r.por.touch(r, access{loc, write})
	}
	if r := current.Load(); r != nil && r.sym != nil && !r.cur.exiting {
		r.sym.access(r.cur, access{loc, write})
	}
}

// Note describes the operation that follows the last scheduling point, for
// the trace: op names it ("Load", "CompareAndSwap"), args are the values
// read or written. Call it only when Tracing reports true.
func Note(op string, args ...any) {
	NoteAt(0, op, args...)
}

// NoteAt is Note for an operation on the shared location loc (an
// address, as PointAt names it): the trace prints its values as the
// location's declaration says (a packed word as [high|low], a bitmap in
// hex) and the page shows the location's value at every step.
func NoteAt(loc uintptr, op string, args ...any) {
	r := current.Load()
	if r == nil || !r.tracing || r.cur.exiting {
		return
	}
	s := step{thread: r.cur.id, op: op, args: args, at: callerFrame(), loc: loc}
	for i, a := range args {
		if d, ok := plainValue(reflect.ValueOf(a)); ok {
			if s.derefs == nil {
				s.derefs = make([]any, len(args))
			}
			s.derefs[i] = d
		}
	}
	if r.wt != nil {
		s.w = r.wt.take(r.cur.id)
	}
	r.addStep(s)
}

// View registers a view of an object under test for the trace of the
// running schedule: after every step of a traced run (a replay, or the
// re-run of a failing schedule), f is called and its result shown with
// the step, on the counterexample page beside the values of the
// locations. f must only look, with no scheduling point (a Peek, an
// Inspect of the explore build). Outside a traced run View does
// nothing, so a scenario may call it in every schedule.
func View(name string, f func() string) {
	r := current.Load()
	if r == nil || !r.tracing || r.cur == nil || r.cur.exiting {
		return
	}
	r.views = append(r.views, namedView{name, f})
}

// Object names the object p points to in the trace of the running
// schedule: a location inside it prints as name.field (the ring's tail,
// "r2.tail"), and p itself, as a value, prints as name. With name ""
// the object is named as a pointer value is (traceobj.go: "r1"). Like
// View, it does nothing outside a traced run.
func Object(name string, p any) {
	r := current.Load()
	if r == nil || !r.tracing || r.cur == nil || r.cur.exiting {
		return
	}
	r.objects = append(r.objects, namedObject{name, p})
}

type namedObject struct {
	name string
	p    any
}

type namedView struct {
	name string
	f    func() string
}

// Gosched yields: the calling goroutine runs again only once another has
// made progress, or when nobody else can run. A loop that spins with
// Gosched until another goroutine acts is therefore explored as waiting,
// not as an endless run of steps.
func Gosched() {
	r := current.Load()
	if r == nil {
		return
	}
	t := r.cur
	if t.exiting {
		return
	}
	r.steps++
	if r.tracing {
		r.addStep(step{thread: t.id, op: "Gosched", at: callerFrame()})
	}
	if r.mem != nil {
		// A spin loop that yields sees newer stores from now on, so it
		// ends (the model's Yield: loom's rule). What it will see is
		// what is latest now, of every location: for the reduced
		// search, this step reads them all.
		if r.por != nil {
			r.por.touch(r, access{0, false})
		}
		r.mem.m.Yield(weak.Thread(t.id))
		r.symShared()
	}
	t.yielded, r.yielded = true, true
	// The step after a Gosched performs no operation, but it could not
	// go until another goroutine made progress (any step): it depends on
	// every step, as a step of unknown accesses does.
	t.pend, t.pendAll, t.yieldStep = nil, true, true
	if r.deps != nil {
		r.deps.unnamed(t.id, "after Gosched")
	}
	if r.started(t) {
		r.waitTurn(t)
		return
	}
	r.switchFrom(t)
}

// Block is a scheduling point at which the caller waits until ready()
// reports true. ready is evaluated by whichever goroutine is deciding, with
// every other goroutine stopped; it must only look, never change anything.
// what says what is awaited ("Mutex.Lock", "parker token"), for the trace
// and the deadlock report. Outside a run, Block panics: the caller must
// take its uncontrolled path instead.
func Block(ready func() bool, what string) {
	BlockTimeout(ready, 0, what)
}

// BlockTimeout is Block with a deadline d of virtual time (d <= 0: none).
// It reports false if the deadline passed first. Virtual time passes when
// every goroutine is blocked or spinning on Gosched, or, as a choice that
// costs a preemption, while others run (see the package comment).
func BlockTimeout(ready func() bool, d time.Duration, what string) bool {
	r := current.Load()
	if r == nil {
		panic("explore: Block outside a run")
	}
	return r.block(r.cur, ready, int64(d), what, nil)
}

// Sleep waits d of virtual time: a wait whose condition never holds and
// reads nothing, so that its step conflicts only with the clock (its
// deadline, its firing), not with every step as a Block's.
func Sleep(d time.Duration, what string) {
	r := current.Load()
	if r == nil {
		panic("explore: Sleep outside a run")
	}
	r.block(r.cur, func() bool { return false }, int64(d), what, noAccess)
}

// noAccess is the accesses of a wait that reads nothing (Sleep): empty,
// and not nil, which would be every location.
var noAccess = []access{}

// BlockOn is Block for a wait whose ready reads only the location loc, and
// whose goroutine then accesses loc (write: writes it), as a lock's
// acquisition does. The reduced search then orders the wait only against
// the operations on loc; a Block is ordered against every operation.
func BlockOn(loc uintptr, write bool, ready func() bool, what string) {
	BlockOnTimeout(loc, write, ready, 0, what)
}

// BlockOnTimeout is BlockOn with a deadline, as BlockTimeout.
func BlockOnTimeout(loc uintptr, write bool, ready func() bool, d time.Duration, what string) bool {
	sharedOps.Add(1)
	return blockOn(loc, write, ready, d, what)
}

// BlockOnWith is BlockOnTimeout with a condition that takes an argument,
// ready(arg): a caller that passes a function with no free variables
// waits without allocating a closure at each wait (a lock's, a parker's).
func BlockOnWith(loc uintptr, write bool, ready func(unsafe.Pointer) bool, arg unsafe.Pointer, d time.Duration, what string) bool {
	r := current.Load()
	if r == nil {
		panic("explore: Block outside a run")
	}
	sharedOps.Add(1)
	t := r.cur
	t.readyWith, t.readyArg = ready, arg
	ok := blockOn(loc, write, t.argReady, d, what)
	t.readyWith, t.readyArg = nil, nil
	return ok
}

// blockOn is BlockOnTimeout, not counted as an operation on shared state
// (a Join's wait for its goroutine's end).
func blockOn(loc uintptr, write bool, ready func() bool, d time.Duration, what string) bool {
	r := current.Load()
	if r == nil {
		panic("explore: Block outside a run")
	}
	t := r.cur
	// The wait's access, in the thread's own buffer (as PointAt's): a
	// slice literal would go to the heap at every wait.
	t.pendBuf[0] = access{loc, write}
	return r.block(t, ready, int64(d), what, t.pendBuf[:])
}

// latchWait is BlockOn (a read of loc) for a latch: ready cannot hold
// before some step has written loc (an Event's Set, a goroutine's end;
// JoinAll waits so on several locations, ready only once each is
// written).
// The unbounded reduced search knows from it that the wait cannot pass
// before loc's first write (por_run.go, race): whether it could is
// otherwise a question of ready over an earlier value, which no run may
// have asked (the goroutine reached the wait after the write).
func latchWait(loc uintptr, ready func() bool, what string) {
	if r := current.Load(); r != nil {
		r.cur.latch = true // block clears it
	}
	blockOn(loc, false, ready, 0, what)
}

// Now returns the run's virtual clock in nanoseconds: 0 when the schedule
// starts. Outside a run it returns the time since the process started.
func Now() int64 {
	if r := current.Load(); r != nil {
		if r.por != nil && !r.cur.exiting {
			r.por.touch(r, access{clockLoc, false})
		}
		if r.sym != nil && !r.cur.exiting {
			r.sym.observe(r.cur, 0xC10C, uint64(r.now))
		}
		return r.now
	}
	return int64(time.Since(processStart))
}

var processStart = time.Now()

// Thread is a goroutine started with Go.
type Thread struct{ t *thread }

// Go starts f as a goroutine under the explorer's control, named name in
// traces. Outside a run it is a go statement.
func Go(name string, f func()) *Thread {
	r := current.Load()
	if r == nil {
		go f()
		return nil
	}
	if r.cur.exiting {
		return nil // torn down: start nothing new
	}
	t := r.spawn(name, f)
	t.handle.t = t
	return &t.handle
}

// Join waits until the goroutine has returned.
func (th *Thread) Join() {
	if th == nil {
		return
	}
	t := th.t
	latchWait(threadLoc(t.id), func() bool { return t.state == finished }, "Join("+t.name+")")
	if r := weakRun(); r != nil {
		r.symShared()
		r.mem.m.Join(r.thread(), weak.Thread(t.id))
	}
}

// Failf fails the schedule: the scenario found a broken property. It does
// not return. The explorer prints the schedule that led here.
func Failf(format string, args ...any) {
	r := current.Load()
	if r == nil {
		panic("explore: Failf outside a run: " + fmt.Sprintf(format, args...))
	}
	r.failNow(r.cur, kindAssert, fmt.Sprintf(format, args...))
}

// Assert fails the schedule with the message unless ok.
func Assert(ok bool, format string, args ...any) {
	if !ok {
		Failf(format, args...)
	}
}

// Event is a one-shot flag a goroutine can wait for: a scenario's stand-in
// for a channel that one side closes.
type Event struct{ set bool }

// Set sets the event (a scheduling point).
func (e *Event) Set() {
	PointAt(uintptr(unsafe.Pointer(e)), true)
	WeakRelease(uintptr(unsafe.Pointer(e)))
	e.set = true
	if Tracing() {
		Note("Event.Set")
	}
}

// IsSet reports whether the event is set (a scheduling point).
func (e *Event) IsSet() bool {
	PointAt(uintptr(unsafe.Pointer(e)), false)
	if e.set {
		WeakAcquire(uintptr(unsafe.Pointer(e)))
	}
	if Tracing() {
		Note("Event.IsSet", e.set)
	}
	return e.set
}

// Wait blocks until the event is set.
func (e *Event) Wait() {
	sharedOps.Add(1)
	latchWait(uintptr(unsafe.Pointer(e)), func() bool { return e.set }, "Event.Wait")
	WeakAcquire(uintptr(unsafe.Pointer(e)))
}
