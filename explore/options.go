package explore

import (
	"time"

	"github.com/wsched/wsched/internal/explorer"
)

// Options bound one exploration.
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
	// schedule within the bound, with the reduced one, which runs one
	// schedule of each class of schedules that differ only in the order
	// of steps that do not conflict. docs/explore.md ("The
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
	// Weak runs every schedule in the weak-memory mode (the package
	// comment, "Memory"): the atomics are as strong as the orderings
	// their names give, a load may read an older store, and plain cells
	// are checked for data races.
	// Each choice of an older store is a decision of the search; with
	// Reduce, the reduced search runs every choice of every load it runs.
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

// engine is o as the engine takes it: the two types have the same
// fields, so one converts into the other.
func (o Options) engine() explorer.Options { return explorer.Options(o) }

// withDefaults is o with every zero field set to its default.
func (o Options) withDefaults() Options { return Options(o.engine().WithDefaults()) }

// Result is what an exploration did.
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
	// that bound (an order of magnitude).
	RoundSchedules int
	Estimate       float64
	Failure        *Failure
	// Trace is a replayed schedule's trace, when it passed (a failure
	// carries its own).
	Trace   string
	Elapsed time.Duration
}

// Failure is a failed schedule.
type Failure struct {
	// Kind says how it failed: "assertion" (Assert, Failf), "panic",
	// "deadlock", "step budget" (more than Options.MaxSteps), "data
	// race" (the weak mode's plain cells) or "diverged" (a replay that
	// could not follow its token).
	Kind    string
	Message string
	Thread  string // the goroutine that found it
	Stack   string // for a panic: the panicking goroutine's stack
	// Token replays the schedule (Options.Replay, ReplayEnv); Trace is
	// the schedule as numbered steps.
	Token string
	Trace string
	// Schedule is how many schedules had run when this one failed, and
	// Preemptions how many preemptions it has.
	Schedule    int
	Preemptions int
	// trace is the traced schedule as data, for the page (page.go).
	trace *explorer.TraceData
}

func (f *Failure) Error() string { return f.Kind + ": " + f.Message }

// resultOf is the engine's result as this package gives it.
func resultOf(r explorer.Result) Result {
	res := Result{
		Schedules: r.Schedules, Steps: r.Steps, MaxSteps: r.MaxSteps,
		Exhaustive: r.Exhaustive, Bound: r.Bound, Mode: r.Mode, Redundant: r.Redundant,
		RoundSchedules: r.RoundSchedules, Estimate: r.Estimate,
		Trace: r.Trace, Elapsed: r.Elapsed,
	}
	if f := r.Failure; f != nil {
		res.Failure = &Failure{
			Kind: string(f.Kind), Message: f.Message, Thread: f.Thread, Stack: f.Stack,
			Token: f.Token, Trace: f.Trace, Schedule: f.Schedule, Preemptions: f.Preemptions,
			trace: f.Data(),
		}
	}
	return res
}
