package engine

import (
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	"github.com/wsched/wsched/explore/internal/weak"
)

// One execution of a scenario under one schedule.
//
// Every goroutine of the scenario is a thread of the run, and runs as a
// coroutine (coro.go). Exactly one thread runs at a time: the others are
// suspended inside a scheduling point, a Block, or before their first
// step. The running thread makes every scheduling decision itself: at a
// point it works out which threads could go next, asks the guide to pick
// one, and if that is another thread it names it the current one and
// yields; the run's driver goroutine resumes the current thread, and has
// no say in the schedule. The coroutine switch is also what orders the
// threads' memory accesses for the Go memory model and the race detector.
//
// A decision is taken before each operation on shared state. The thread
// chosen performs its pending operation without deciding again. So each
// decision is "who performs the next operation", and two different
// decision sequences give two different interleavings.
//
// A new thread runs at once, up to its first scheduling point, and then
// hands back to the thread that started it, with no decision: the code
// before that point touches no shared state, so running it early hides no
// interleaving. From then on the new thread waits at its first operation
// like any other; and if that operation is a wait that cannot proceed
// (the monitor's first sleep, a waker waiting for its task), the thread is
// blocked, not an alternative at every decision until it happens to run.

type threadState uint8

const (
	runnable threadState = iota
	blocked
	finished
)

// thread is one goroutine under the explorer's control.
type thread struct {
	// The fields every step reads (schedule, enabled, symStep, the
	// reduced search's scans) come first, in one cache line.
	state threadState
	// timedOut tells Block whether the deadline passed (see ready).
	timedOut bool
	// yielded is set by Gosched until another thread makes progress: a
	// goroutine spinning on Gosched waits for others, and is scheduled only
	// when nobody else can run.
	yielded bool
	// exiting is set when the thread is being torn down after a failure:
	// its deferred code runs with every hook passing straight through.
	exiting bool
	// stepped is set once the thread took a step; yieldStep marks its
	// pending step as the one after a Gosched, which accesses nothing
	// (symmetry.go).
	stepped, yieldStep bool
	// ordered: the thread took a step the reduced search orders against
	// others' though its history stays a twin's (the step after a
	// Gosched, a timeout's firing, a timed wait's pass in time): no twin
	// of the search with wakeup trees from then on (por_symmetry.go).
	ordered bool
	// pend is what the thread accesses when next chosen, for the reduced
	// search (see por.go); pendAll marks a step not known, which is taken
	// to conflict with everything (a Point without a location, a Block).
	pendAll bool
	id      int
	// ready is what a blocked thread waits for; deadline (virtual ns, 0 if
	// none) is when it gives up.
	ready    func() bool
	deadline int64
	pend     []access // see pendAll

	name string
	// serial numbers every thread the process ever ran, for GoroutineID.
	serial int64
	co     *coro // the coroutine the thread runs on (coro.go)
	// starting is set until the thread reaches its first scheduling
	// point; there it hands back to spawner (see above).
	starting bool
	spawner  *thread
	what     string // what a blocked thread waits on, for deadlock reports
	joiners  bool   // some thread waits in Join for it
	pendBuf  [1]access
	armed    uint64 // when its deadline was set (run.arms)
	// passed and passedArmed are the deadline and arming of the thread's
	// last timed wait, if that wait passed in time (0: none, or the
	// last one fired): a later timer's firing reads passLoc of it
	// (porRun.begin, passedBefore).
	passed      int64
	passedArmed uint64
	// goAt is, in the weak-memory mode, the spawner's own event number in
	// the memory model at the go statement that started the thread
	// (symmetry.go: a group's members must start from one view).
	goAt uint32
	// latch marks the wait the thread stands at as a latch's (latchWait).
	latch bool
	// body is what the thread runs, and r its run; main (the method
	// value of life, made once per record) is what its coroutine runs:
	// a record reused by a later run (newThread) starts with no allocation.
	body func()
	r    *run
	main func()
	// readyWith and readyArg are the condition of a wait of BlockOnWith;
	// argReady (made once per record, as main) is that wait's ready.
	readyWith func(unsafe.Pointer) bool
	readyArg  unsafe.Pointer
	argReady  func() bool
	// closeOf is the channels a wait of BlockOnCloseOf waits on, and
	// anyClosed (made once per record) that wait's ready.
	closeOf   [3]<-chan struct{}
	anyClosed func() bool
	// handle is what Go returns for the thread, kept in the record so
	// that a go statement allocates nothing.
	handle Thread
}

type run struct {
	threads   []*thread
	cur       *thread
	live      int
	steps     int   // scheduling points passed
	now       int64 // the virtual clock, in nanoseconds
	guide     guide
	decisions []decision
	preempts  int
	maxSteps  int
	tracing   bool
	deps      *depDiag // Options.Dependencies: the races by cause (deps.go)
	trace     []step
	failure   *Failure
	aborting  bool
	aborter   *thread // the thread that tears the others down (abortAll)
	// ended is set by the last thread, or the aborting one, when the run
	// is over; the driver then closes finished (drive).
	ended    bool
	finished chan struct{}
	// sharedOps counts the run's Point and PointAt, the hottest of the
	// operations sharedOps counts: a plain count, one goroutine of the
	// run at a time, added to sharedOps when the run ends (an atomic add
	// per step was a few percent of a plain search's CPU).
	sharedOps int64
	// progress counts handoffs; the driver's watchdog reads it from its
	// own goroutine, so it is a real atomic and not a scheduling point.
	progress atomic.Uint64
	// abandoned is set by the driver when it gives up on a stuck run: a
	// goroutine released later exits without touching the run.
	abandoned atomic.Bool
	// por records the run's steps for the reduced search; nil in the
	// plain depth-first search, PCT and replay.
	por *porRun
	// mem is the weak-memory model of the run (weakmode.go); nil under
	// sequential consistency.
	mem *memory
	// numbered counts the trace's numbered steps (every step but a
	// switch); diverged is why a replay left its token (replay.go).
	numbered int
	diverged string
	// wt is what a traced run of the weak mode records for the trace's
	// reads-from and synchronises-with (weaktrace.go); nil otherwise.
	wt *weakTrace
	// views are the scenario's registered views (View).
	views []namedView
	// objects are the scenario's named objects (Object), in the order
	// registered.
	objects []namedObject
	// chans are the channels the run saw closed (chans.go).
	chans map[uintptr]struct{}
	// symAllowed says the search skips twins (symmetry.go); sym is the
	// histories, from the scenario's first Symmetric on.
	symAllowed bool
	sym        *symState
	// seen: the locations accessed before the first Symmetric, in a
	// search one of whose runs declared one (symmetry.go, ownLoc).
	seen map[uintptr]struct{}
	// fifoTimers (a scenario with a Symmetric group) breaks a tie of
	// deadlines by the order of arming; arms counts the armings.
	fifoTimers bool
	arms       uint64
	twinsAt    int // decisions with a twin skipped (Result.Twins)
	// bound is, in a run of the depth-first search that skips its forced
	// points (dfsGuide.bounded, goOn), the search's preemption bound;
	// else -1. keepForced records a forced point's decision all the
	// same, and forced counts those recorded; forcing is set while one
	// is taken; skipped counts the forced points not recorded.
	bound      int
	keepForced bool
	forcing    bool
	forced     int
	skipped    int
	// yielded is set when a thread's Gosched mark is (thread.yielded),
	// and cleared with them (progressed).
	yielded bool
	// cache is the plain search's state cache (statecache.go), or nil;
	// cacheBound is the round's bound; cacheKeys and cacheLeft are, per
	// decision, its state and the preemptions left there, the first
	// cacheKnown of them the last run's (cacheCut); cut is set when the
	// run was cut at a decision whose subtree has run, from which it
	// coasts, its record kept aside in cutPor (coast).
	cutPor     *porRun
	cache      *stateCache
	cacheBound int
	cacheKeys  []stateKey
	cacheLeft  []int8
	cacheKnown int
	cut        bool
}

// current is the run in progress, or nil. It is set by the driver before
// the first thread starts and cleared after the last one ended; the
// coroutine switches order those writes with the threads' reads, but an
// abandoned run (see wait) clears it under a goroutine that may still read
// it, so it is an atomic (a plain load on most machines).
var current atomic.Pointer[run]

// threadSerial is the last thread's serial number.
var threadSerial atomic.Int64

func newRun(g guide, maxSteps int, tracing bool) *run {
	return &run{guide: g, maxSteps: maxSteps, tracing: tracing, finished: make(chan struct{}), bound: -1}
}

// spawn creates a thread running f; it waits for its first turn.
func (r *run) spawn(name string, f func()) *thread {
	if len(r.threads) == 64 {
		r.failNow(r.cur, kindAssert, "more than 64 goroutines in one scenario")
	}
	t := r.newThread()
	t.id, t.serial, t.name, t.starting, t.spawner = len(r.threads), threadSerial.Add(1), name, r.cur != nil, r.cur
	t.body, t.r = f, r
	r.threads = append(r.threads, t)
	r.live++
	if r.sym != nil && r.cur != nil {
		// Its parent's history says which goroutine it started.
		r.sym.grow(len(r.threads))
		r.sym.note(r.cur, 0x60)
	}
	if r.por != nil {
		r.por.spawned(t.id)
	}
	if r.mem != nil && r.cur != nil {
		if child := r.mem.m.Go(weak.Thread(r.cur.id)); int(child) != t.id {
			panic(fmt.Sprintf("explore: the memory model numbered goroutine %d as %d", t.id, child))
		}
		t.goAt = r.mem.m.Clock(weak.Thread(r.cur.id)).At(r.cur.id)
	}
	t.co = getCoro(t.main)
	if t.starting {
		// Run it to its first scheduling point; it hands back (started).
		sp := r.cur
		r.cur = t
		r.waitTurn(sp)
	}
	return t
}

// newThread returns a zeroed record for the next thread: the one the
// last run that passed kept at this place in its threads (runOnce hands
// that slice on as this run's), else a new one.
func (r *run) newThread() *thread {
	n := len(r.threads)
	if n < cap(r.threads) {
		if t := r.threads[:n+1][n]; t != nil {
			main, argReady, anyClosed := t.main, t.argReady, t.anyClosed
			*t = thread{main: main, argReady: argReady, anyClosed: anyClosed}
			return t
		}
	}
	t := new(thread)
	t.main = t.life
	t.argReady = func() bool { return t.readyWith(t.readyArg) }
	t.anyClosed = t.anyClosedOf
	return t
}

// life is a thread's whole life on its coroutine: its body, a panic in it
// reported as the run's failure, and its end (exit).
func (t *thread) life() {
	r := t.r
	defer r.exit(t)
	if r.aborting {
		t.exiting = true
		runtime.Goexit()
	}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(abortSignal); ok {
				return
			}
			r.setFailure(t, kindPanic, fmt.Sprintf("panic in %s: %v", t.name, p), string(debug.Stack()))
		}
	}()
	t.body()
}

// started is a new thread's first scheduling point: it hands back to its
// spawner, with no decision, and reports whether it did (then the thread
// waits for its turn at this point, as chosen threads do).
func (r *run) started(t *thread) bool {
	if !t.starting {
		return false
	}
	t.starting = false
	r.cur = t.spawner
	return true
}

// abortSignal is never panicked today; it keeps recover's type switch honest
// should a hook ever need to unwind by panicking instead of Goexit.
type abortSignal struct{}

// point is a scheduling point of the running thread t, before its next
// operation on shared state.
func (r *run) point(t *thread) {
	if t.exiting {
		return
	}
	r.steps++
	r.progressed()
	if r.started(t) {
		r.waitTurn(t)
		return
	}
	if r.steps > r.maxSteps {
		r.failNow(t, kindStep, fmt.Sprintf("step budget overrun: more than %d scheduling points in one schedule (a livelock, or a scenario too large for its MaxSteps)", r.maxSteps))
	}
	r.goOn(t)
}

// goOn is switchFrom at a point at which t can go on: a scheduling point,
// or a wait whose condition holds. Switching away from t there, or firing
// a timer, is a preemption; once the run has made as many as the bound
// allows, the point is forced: the search goes on with t whoever else
// could go (schedule's answer), so it goes on without asking each
// blocked goroutine's ready. The decision it would record has no
// alternative within the bound (nextPrefix), so the search's schedules,
// and their steps, are the same (forced_test.go).
func (r *run) goOn(t *thread) {
	if r.cut && !t.yielded {
		return // coasting: schedule's default choice is t (statecache.go)
	}
	if r.bound >= 0 && r.preempts >= r.bound && r.sym == nil && r.seen == nil {
		if !r.keepForced {
			t.stepped = true // symStep's only effect here
			r.skipped++
			if r.cache != nil && !r.cut {
				r.por.forcedStep(r, t) // the state cache's steps (statecache.go)
			}
			return
		}
		r.forcing = true
		r.switchFrom(t)
		r.forcing = false
		return
	}
	r.switchFrom(t)
}

// progressed clears every Gosched mark: a thread made progress, so the
// spinners may have something new to look at.
func (r *run) progressed() {
	if !r.yielded {
		return // no mark set since the last clearing (Gosched sets them)
	}
	r.yielded = false
	for _, x := range r.threads {
		x.yielded = false
	}
}

// switchFrom decides who goes next and, if that is not t, hands over and
// waits for t's next turn.
func (r *run) switchFrom(t *thread) {
	next := r.schedule(t)
	if next == nil {
		r.failNow(t, kindDeadlock, r.deadlockReport())
	}
	if next == t {
		return
	}
	r.handOver(next)
	r.waitTurn(t)
}

func (r *run) handOver(next *thread) {
	r.cur = next
	r.progress.Add(1)
}

func (r *run) waitTurn(t *thread) {
	t.co.yield(struct{}{})
	if r.aborting {
		t.exiting = true
		runtime.Goexit()
	}
}

// enabled reports whether x could perform its next operation now.
func (x *thread) enabled() bool {
	switch x.state {
	case runnable:
		return true
	case blocked:
		return x.timedOut || x.ready()
	}
	return false
}

// schedule returns the thread to run next (t itself if it goes on), or nil
// if no thread can go on: a deadlock. It records a decision when there was
// a choice. Virtual time advances only here: when every thread is blocked
// or spinning on Gosched, the earliest deadline passes; and while others
// can go on, the earliest deadline may pass too, as a choice that costs a
// preemption (a timer fires at any moment, not only when everybody
// waits).
func (r *run) schedule(t *thread) *thread {
	if r.por != nil {
		r.por.finish(r)
	}
	var en, eager uint64
	// sleeper is the earliest timeout (earliestSleeper), found in the
	// same pass.
	var sleeper *thread
	for _, x := range r.threads {
		if x.enabled() {
			en |= 1 << x.id
			if !x.yielded {
				eager |= 1 << x.id
			}
		}
		if r.earlier(x, sleeper) {
			sleeper = x
		}
	}
	if eager == 0 {
		if s := sleeper; s != nil {
			r.now = s.deadline
			s.timedOut = true
			en, eager = 1<<s.id, 1<<s.id
			sleeper = r.earliestSleeper() // the next one
		} else if en == 0 {
			return nil
		} else {
			r.progressed() // only spinners left: let them spin
			eager = en
		}
	}
	en = eager
	sc := schedule{enabled: en, cur: -1, timer: -1}
	if t.state != finished && en&(1<<t.id) != 0 {
		// t can go on (running, or at a Block whose condition holds):
		// switching away from it is a preemption.
		sc.cur = t.id
	}
	if s := sleeper; s != nil && en&(1<<s.id) == 0 {
		// The earliest timeout may fire now, before the others go on.
		sc.timer = s.id
		en |= 1 << s.id
		sc.enabled = en
	}
	if en&(en-1) == 0 {
		c := bits.TrailingZeros64(en)
		if r.tracing && c != t.id {
			r.noteSwitch(t, c, false)
		}
		if r.por != nil {
			r.por.begin(r, c, -1, en)
		}
		r.symStep(r.threads[c])
		return r.threads[c]
	}
	if r.cut {
		return r.threads[sc.defaultChoice()] // coasting (statecache.go)
	}
	if sc.twins = r.twinsOf(&sc); sc.twins != 0 {
		r.twinsAt++
	}
	if r.cache != nil && r.cacheCut(t) {
		r.coast()
		return r.threads[sc.defaultChoice()]
	}
	c := t.id // a forced point (goOn)
	if !r.forcing {
		c = r.guide.goroutine(r, sc)
	}
	if c < 0 || c >= len(r.threads) || en&(1<<c) == 0 {
		r.diverge(t, fmt.Sprintf("decision %d wants goroutine %d, but only %s can go (a replay token from another version of the code, or nondeterminism in the scenario: time, map order, a goroutine outside the explorer)", len(r.decisions), c, r.names(en)))
	}
	// The decision is made in place (an 80-byte value built and then
	// appended is copied twice); every field is set.
	if n := len(r.decisions); n < cap(r.decisions) {
		r.decisions = r.decisions[:n+1]
	} else {
		r.decisions = append(r.decisions, decision{})
	}
	d := &r.decisions[len(r.decisions)-1]
	d.kind, d.schedule, d.load, d.chosen, d.preempt, d.step = kindGoroutine, sc, load{}, c, sc.costs(c), r.numbered
	if d.preempt {
		r.preempts++
	}
	if c == d.timer {
		s := r.threads[c]
		r.now = s.deadline
		s.timedOut = true
	}
	if r.forcing {
		r.forced++
	}
	if r.tracing && c != t.id {
		r.noteSwitch(t, c, d.preempt)
	}
	if r.por != nil {
		r.por.begin(r, c, len(r.decisions)-1, d.enabled)
	}
	r.symStep(r.threads[c])
	return r.threads[c]
}

func (r *run) earliestSleeper() *thread {
	var s *thread
	for _, x := range r.threads {
		if r.earlier(x, s) {
			s = x
		}
	}
	return s
}

// earlier reports whether x waits with a deadline that has not passed
// and comes before s's (s nil: any such x).
func (r *run) earlier(x, s *thread) bool {
	return armedNow(x) && (s == nil || r.timerFirst(x.deadline, x.armed, x.id, s.deadline, s.armed, s.id))
}

// timerFirst reports whether a timer of deadline d1, armed at a1 by
// goroutine id1, fires before one of d2, a2, id2 when both are armed:
// the earlier deadline; at a tie, the one armed first in a scenario with
// a Symmetric group (fifoTimers), else the lower goroutine.
func (r *run) timerFirst(d1 int64, a1 uint64, id1 int, d2 int64, a2 uint64, id2 int) bool {
	if d1 != d2 {
		return d1 < d2
	}
	if r.fifoTimers {
		return a1 < a2
	}
	return id1 < id2
}

// armedNow reports whether x waits with a timer armed that has not fired.
func armedNow(x *thread) bool {
	return x.state == blocked && x.deadline > 0 && !x.timedOut
}

// passedBefore appends to accs a read of passLoc for each goroutine whose
// last timed wait passed in time with a timer that fires before t's: t's
// timer, firing now, could not while that one was armed. A goroutine that
// has armed another timer since is left out: that arming read the clock
// the firing writes, which orders the pass before the firing already,
// and its next pass, which the firing does not wait for, must not be
// ordered after it by a write over what the firing read.
func (r *run) passedBefore(t *thread, accs []access) []access {
	for _, x := range r.threads {
		if x != t && x.passed > 0 && !armedNow(x) && r.timerFirst(x.passed, x.passedArmed, x.id, t.deadline, t.armed, t.id) {
			accs = append(accs, access{passLoc(x.id), false})
		}
	}
	return accs
}

// timerLoc is the set of armed timers: arming one writes it (block). A
// firing writes the clock (por_run.go), which an arming reads, so a
// firing and an arming conflict through the clock.
const timerLoc = clockLoc - 2

// block is a scheduling point at which t can go on only once ready() holds
// (or, with a deadline, once virtual time reaches it). It reports false if
// the deadline passed first.
func (r *run) block(t *thread, ready func() bool, timeout int64, what string, on []access) bool {
	if t.exiting {
		if ready() {
			t.latch = false
			return true
		}
		runtime.Goexit() // torn down while waiting: nothing can wake it
	}
	r.steps++
	r.progressed()
	waits := !ready()
	if r.tracing && waits {
		at := callerFrame()
		r.addStep(step{thread: t.id, kind: stepWait, op: what, at: at})
		what = fmt.Sprintf("%s (%s)", what, location(at))
	}
	t.state, t.ready, t.what, t.timedOut = blocked, ready, what, false
	// The wait's step reads what ready reads (on, or everything).
	t.pend, t.pendAll, t.yieldStep = on, on == nil, false
	if r.deps != nil {
		if on == nil {
			r.deps.unnamed(t.id, "Block")
		}
		for _, a := range on {
			r.deps.named(a.loc, CauseLock)
		}
	}
	if timeout > 0 {
		if r.por != nil {
			// Arming a timer reads the clock (the deadline is now plus
			// the timeout) and writes the set of armed timers, which a
			// firing reads through the clock it writes: the order of
			// two armings matters (a timer armed first may fire before
			// the other is armed), the order of an arming and a Now
			// does not (neither moves the clock), so a Now conflicts
			// only with the firings that move what it reads.
			r.por.touch(r, access{clockLoc, false})
			r.por.touch(r, access{timerLoc, true})
		}
		t.deadline = r.now + timeout
		r.arms++
		t.armed = r.arms
		if r.sym != nil {
			r.sym.observe(t, 0xA2, uint64(t.deadline))
		}
	}
	switch {
	case r.started(t):
		r.waitTurn(t) // blocked from the start: chosen only once ready
	case !waits:
		r.goOn(t) // its condition holds: it can go on
	default:
		r.switchFrom(t)
	}
	ok := !t.timedOut || ready()
	t.state, t.ready, t.deadline, t.timedOut, t.latch = runnable, nil, 0, false, false
	if r.tracing && waits {
		r.addStep(step{thread: t.id, kind: stepWake, ok: ok})
	}
	return ok
}

// exit ends thread t: it runs as t's last deferred call, after a normal
// return, a recovered panic or a Goexit.
func (r *run) exit(t *thread) {
	if r.abandoned.Load() {
		t.co.drop = true
		return
	}
	if r.por != nil && !t.exiting {
		// The end is a write that a Join of t reads (BlockOn).
		r.por.touch(r, access{threadLoc(t.id), true})
	}
	t.state = finished
	r.live--
	if r.mem != nil && !t.exiting && r.failure == nil {
		r.mem.m.Exit(weak.Thread(t.id))
	}
	if r.aborting {
		r.cur = r.aborter // back to the thread tearing the run down
		return
	}
	if t.starting && r.failure == nil {
		// Ended before its first scheduling point: back to the spawner.
		r.progressed()
		r.started(t)
		return
	}
	if r.failure != nil {
		r.abortAll(t)
		return
	}
	r.progressed()
	if r.live == 0 {
		if r.por != nil {
			r.por.finish(r)
		}
		r.ended = true // the driver closes finished (drive)
		return
	}
	next := r.schedule(t)
	if next == nil {
		r.setFailure(t, kindDeadlock, r.deadlockReport(), "")
		r.abortAll(t)
		return
	}
	r.handOver(next)
}

// failNow records a failure found by thread t and ends t; its exit tears
// the other threads down.
func (r *run) failNow(t *thread, kind failureKind, msg string) {
	r.setFailure(t, kind, msg, "")
	t.exiting = true
	runtime.Goexit()
}

func (r *run) setFailure(t *thread, kind failureKind, msg, stack string) {
	if r.failure != nil {
		return
	}
	r.failure = &Failure{Kind: kind, Message: msg, Thread: t.name, Stack: stack}
}

// abortAll tears down every thread but self, one at a time, so that their
// deferred code never runs concurrently; then the run is finished.
func (r *run) abortAll(self *thread) {
	r.aborting, r.aborter = true, self
	for _, x := range r.threads {
		if x == self || x.state == finished {
			continue
		}
		r.cur = x
		self.co.yield(struct{}{}) // x ends by Goexit and hands back (exit)
	}
	r.ended = true // the driver closes finished (drive)
}

func (r *run) deadlockReport() string {
	msg := "deadlock: every goroutine is blocked and none has a deadline"
	for _, x := range r.threads {
		if x.state == blocked {
			msg += fmt.Sprintf("\n  %s waits on %s", x.name, x.what)
		}
	}
	return msg
}

func (r *run) names(m uint64) string {
	s := ""
	for ; m != 0; m &= m - 1 {
		if s != "" {
			s += ", "
		}
		s += r.threads[bits.TrailingZeros64(m)].name
	}
	return "{" + s + "}"
}
