package explorer

import (
	"runtime"
	"time"
)

// Options bound one exploration. They are explore.Options field for field
// (that package converts one into the other, so a field added here is
// added there, where the scenario writer reads it).
type Options struct {
	// Preemptions is the preemption bound of the depth-first search: a
	// schedule may switch away from a goroutine that could go on at most
	// this many times (switches at blocking, at Gosched and at a
	// goroutine's end are free). The search runs bound 0, then 1, ... up
	// to this, so the first failure found has as few preemptions as any.
	// Zero means the default, 2 (CHESS: most concurrency bugs need at
	// most two); a negative value means a bound of 0 (only the free
	// switches). WSCHED_LONG raises it by one (Check).
	Preemptions int
	// MaxSchedules is the budget: the search stops after this many
	// schedules, and the result says it was not exhaustive. Default
	// 20,000.
	MaxSchedules int
	// MaxSteps bounds the scheduling points of one schedule; a schedule
	// that passes it fails (a livelock). Default 20,000.
	MaxSteps int
	// PCT, when > 0, replaces the depth-first search with this many
	// randomized schedules (probabilistic concurrency testing: random
	// goroutine priorities, PCTDepth-1 priority change points), for
	// scenarios too large to enumerate. Seed makes them reproducible.
	PCT      int
	PCTDepth int // default 3
	Seed     uint64
	// Replay, when set, runs only the schedule this token describes, with
	// a trace (see Failure.Token).
	Replay string
	// Reduce replaces the plain depth-first search, which runs every
	// schedule within the bound, with the reduced one (por.go), which
	// runs one schedule of each class of schedules that differ only in
	// the order of steps that do not conflict. docs/explore.md ("The
	// reduced search") says how it is compared with the plain search,
	// and that the classes it once missed under a bound are reached now.
	Reduce bool
	// Unbounded, with Reduce, drops the preemption bound: the search
	// runs every execution of the scenario, and sleep sets cut it
	// further. Exhaustive then means every execution.
	Unbounded bool
	// Watchdog is how long, in real time, a schedule may go without a
	// single handoff before the explorer gives up: a goroutine blocked
	// outside its control. Default 20 s.
	Watchdog time.Duration
	// Weak runs every schedule in the weak-memory mode (weakmode.go): the
	// atomics are as strong as the orderings their names give, a load may
	// read an older store, and plain cells are checked for data races.
	// Each choice of an older store is a decision of the search; with
	// Reduce, the reduced search runs every choice of every load it runs
	// (por_search.go, porGuide.store).
	Weak bool
	// MaxStale bounds the stale choices (reads of a store other than the
	// latest, stores placed before the latest) of one schedule in the
	// weak-memory mode; default 2 (message passing needs one, store
	// buffering, IRIW and 2+2W two), negative: none.
	MaxStale int
	// History is how many stores of each location a load may choose
	// from in the weak-memory mode; default 7, as loom.
	History int
}

func (o Options) WithDefaults() Options {
	if o.Preemptions == 0 {
		o.Preemptions = 2
	}
	if o.Preemptions < 0 {
		o.Preemptions = 0
	}
	if o.MaxSchedules <= 0 {
		o.MaxSchedules = 20_000
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 20_000
	}
	if o.PCTDepth <= 0 {
		o.PCTDepth = 3
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 20 * time.Second
	}
	return o
}

// Result is what an exploration did; explore.Result is it as the public
// package gives it.
type Result struct {
	Schedules int
	Steps     int64 // scheduling points over all schedules
	MaxSteps  int   // the longest schedule
	// Exhaustive is true when the depth-first search ran every schedule
	// within the preemption bound; false when the budget stopped it, and
	// always false for PCT.
	Exhaustive bool
	Bound      int    // the preemption bound reached (DFS; -1: unbounded)
	Mode       string // "dfs", "dpor", "pct" or "replay"
	// Redundant counts the reduced search's runs that turned out to
	// repeat a class already run (every goroutine that could go was in
	// the sleep set); they are counted in Schedules too.
	Redundant int
	// When the budget cut the depth-first search: the schedules it ran
	// at the last bound, and Knuth's estimate of how many there are at
	// that bound (estimate.go; an order of magnitude).
	RoundSchedules int
	Estimate       float64
	Failure        *Failure
	// Trace is a replayed schedule's trace, when it passed (a failure
	// carries its own).
	Trace   string
	Elapsed time.Duration
}

// StuckError is what Explore panics with when a schedule stops handing
// over: a goroutine is blocked where the explorer cannot see it, and the
// run cannot be torn down.
type StuckError struct{ msg string }

func (e StuckError) Error() string { return e.msg }

// Explore runs body under many schedules, as opt says, and returns what it
// found. body runs as the goroutine "main"; everything it starts with Go
// (or through instrumented code) is explored with it. body must leave
// nothing running: a goroutine still blocked when the others are done is a
// deadlock. Explore runs one exploration at a time (it is not reentrant)
// and sets GOMAXPROCS to 1 while it runs, since one goroutine runs at a
// time anyway and handoffs are cheapest on one P.
func Explore(opt Options, body func()) Result {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	start := time.Now()
	e := &explorer{opt: opt, body: body}
	var res Result
	switch {
	case opt.Replay != "":
		res = e.replay(opt.Replay)
	case opt.PCT > 0:
		res = e.pct()
	case opt.Reduce:
		res = e.reduced()
	default:
		res = e.dfs()
	}
	res.Elapsed = time.Since(start)
	return res
}
