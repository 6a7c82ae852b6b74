package explorer

import (
	"runtime"
	"time"
)

// Options bound one exploration. They are explore.Options field for field
// (that package converts one into the other, so a field added here is
// added there), whose comments say what each field means.
type Options struct {
	Preemptions  int           // the depth-first search's preemption bound; 0: 2, negative: 0
	MaxSchedules int           // the budget of schedules; default 20,000
	MaxSteps     int           // scheduling points of one schedule before it fails; default 20,000
	PCT          int           // > 0: this many PCT schedules instead of the depth-first search
	PCTDepth     int           // PCT's depth; default 3
	Seed         uint64        // PCT's seed
	Replay       string        // a replay token: run that schedule only, traced (replay.go)
	Reduce       bool          // the reduced search (por_search.go)
	Unbounded    bool          // with Reduce: no preemption bound, sleep sets
	Watchdog     time.Duration // real time without a handoff before giving up; default 20 s
	// Weak runs the weak-memory mode (weakmode.go); with Reduce, the
	// reduced search runs every choice of every load it runs
	// (por_search.go, porGuide.store).
	Weak     bool
	MaxStale int // the weak mode's stale choices per schedule; default 2, negative: none
	History  int // the stores per location a weak-mode load may choose from; default 7
}

// WithDefaults is o with every zero field set to its default.
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
