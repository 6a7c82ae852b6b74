package engine

import (
	"runtime"
	"runtime/debug"
	"time"
)

// Options bound one exploration, and say how Check runs and reports it.
// The public package explore gives this type as explore.Options; these
// comments are its documentation. The fields after Weak's group are
// Check's settings (Explore ignores them). Each field that an environment
// variable sets names it; explore.FromEnv is the one function that reads
// them, and Check calls it, so a variable overrides what the scenario
// wrote.
type Options struct {
	// Preemptions is the preemption bound of the depth-first search: a
	// schedule may switch away from a goroutine that could go on at most
	// this many times (switches at blocking, at Gosched and at a
	// goroutine's end are free). The search runs bound 0, then 1, ... up
	// to this, so the first failure found has as few preemptions as any.
	// Zero means the default, 2 (CHESS: most concurrency bugs need at
	// most two); a negative value means a bound of 0 (only the free
	// switches). Long raises it by one.
	Preemptions int
	// MaxSchedules is the budget: the search stops after this many
	// schedules, and the result says it was not exhaustive. Default
	// 20,000. Long multiplies it by ten.
	MaxSchedules int
	// MaxSteps bounds the scheduling points of one schedule; a schedule
	// that passes it fails (a livelock). Default 20,000.
	MaxSteps int
	// PCT, when > 0, replaces the depth-first search with this many
	// randomized schedules (probabilistic concurrency testing: random
	// goroutine priorities, PCTDepth-1 priority change points), for
	// scenarios too large to enumerate. Long multiplies it by ten. Seed
	// makes them reproducible; it also seeds the random schedules of the
	// estimates (ForecastSearch, and the estimate of a budget-cut
	// search), 0 with a fixed seed.
	PCT      int
	PCTDepth int // default 3
	Seed     uint64
	// Replay, when set, runs only the schedule this token describes, with
	// a trace (see Failure.Token). WSCHED_EXPLORE_REPLAY='scenario=token'
	// sets it, and ReplayScenario to the scenario's name.
	Replay string
	// ReplayScenario, with Replay, names the scenario the token belongs
	// to: Check runs only that scenario and logs every other one as not
	// run. Empty: whichever Check is given the options.
	ReplayScenario string
	// Reduce replaces the plain depth-first search, which runs every
	// schedule within the bound, with the reduced one, which runs one
	// schedule of each class of schedules that differ only in the order
	// of steps that do not conflict (por_search.go). docs/explore.md
	// ("The reduced search") says how it is compared with the plain
	// search. WSCHED_EXPLORE_REDUCE=1 sets it.
	Reduce bool
	// Unbounded, with Reduce, drops the preemption bound: the search
	// runs every execution of the scenario, and sleep sets cut it
	// further. Exhaustive then means every execution.
	// WSCHED_EXPLORE_REDUCE=unbounded sets both.
	Unbounded bool
	// StateCache makes the plain depth-first search cut a run at a
	// decision whose state it has searched below already: the same trace
	// (the same steps, ordered alike where they conflict), the same
	// goroutine deciding and no more preemptions left
	// (statecache.go); a cut run goes on to its end by default choices,
	// deciding nothing. Exhaustive still means every schedule within the
	// bound, run or cut where its state's were run. It rests on what the
	// reduced search rests on, every conflict named; in the weak-memory
	// mode the state is also the choices of store made. It is off in a
	// part of a sharded search and with a Symmetric group.
	// WSCHED_EXPLORE_CACHE=1 sets it, =off clears it.
	StateCache bool
	// Watchdog is how long, in real time, a schedule may go without a
	// single handoff before the explorer gives up: a goroutine blocked
	// outside its control. Default 20 s.
	Watchdog time.Duration
	// Weak runs every schedule in the weak-memory mode (weakmode.go): the
	// ordered atomics of explore/atomic are as strong as the orderings
	// their names give, a load may read an older store, and plain cells
	// (atomic.Cell) are checked for data races. Each choice of an older
	// store is a decision of the search; with Reduce, the reduced search
	// runs every choice of every load it runs (porGuide.store). A search
	// in which no schedule performed an ordered operation fails: it
	// checked nothing weak (the code under test uses sync/atomic or plain
	// variables, which the model cannot see). The build tags
	// explore,weak or WSCHED_EXPLORE_WEAK=1 set it.
	Weak bool
	// MaxStale bounds the stale choices (reads of a store other than the
	// latest, stores placed before the latest) of one schedule in the
	// weak-memory mode; default 2 (message passing needs one, store
	// buffering, IRIW and 2+2W two), negative: none.
	MaxStale int
	// History is how many stores of each location a load may choose
	// from in the weak-memory mode; default 7, as loom.
	History int
	// Shard (WSCHED_EXPLORE_SHARD=k/n) makes the search part k of n
	// (0 <= k < n) of the whole one: n searches with the same options
	// and parts 0 to n-1 run disjoint sets of schedules that cover it,
	// split by a hash of the choices up to each schedule's first
	// preemption or stale read (shard.go). Their schedules add up to the whole search's, round by
	// round; the whole search's first failure is the first failure of
	// one of them; each has the whole budget. PCT splits its random
	// schedules by their index. The reduced search does not split:
	// Explore panics if Reduce is set with a shard (Check runs a
	// scenario whose own options set Reduce whole in part 0 and skips
	// it in the others). A replay ignores it.
	// The zero value is the whole search.
	Shard Shard
	// EstimateProbes is how many random schedules per round Check's
	// forecast walks before a depth-first search (ForecastSearch:
	// Knuth's estimator of its schedules and time, logged before the
	// search starts, and its error after it), at most; 0 means 1000, a
	// negative value no forecast. WSCHED_EXPLORE_ESTIMATE=n sets it
	// (=off: -1). Explore ignores it.
	EstimateProbes int
	// Dependencies (WSCHED_EXPLORE_DEPS=1, which sets Reduce too) makes
	// the reduced search count the races it reverses by what causes them
	// (deps.go: the clock, an unnamed point and where, an atomic, a wait,
	// a location touched between points), in Result.Dependencies; Check
	// logs the table. It costs a stack walk per operation.
	Dependencies bool
	// NoSymmetry (WSCHED_EXPLORE_SYMMETRY=off) makes the plain search
	// run every twin of a group of goroutines the scenario declared
	// interchangeable (explore.Symmetric); by default it runs the lowest
	// of them where they are twins and skips the others' subtrees, which
	// mirror its own (docs/explore.md, "Symmetry"). The reduced search
	// skips them too (unbounded, a twin's wakeup-tree branch runs as its
	// mirror image), and the weak-memory mode.
	NoSymmetry bool

	// Long (WSCHED_LONG=1, as cmd/verify -long sets it) raises the
	// preemption bound of a depth-first search by one and multiplies the
	// budgets (MaxSchedules, PCT) by ten. Check only.
	Long bool
	// CompareClasses (WSCHED_EXPLORE_CLASSES=1) makes Check compare the
	// reduced search with the plain one instead of exploring: both run at
	// the scenario's bound, and every Mazurkiewicz trace the plain search
	// reaches must be reached by the reduced one (explore.Classes).
	CompareClasses bool
	// Claims (WSCHED_EXPLORE_CLAIMS=dir) names a directory shared by test
	// processes that run the same scenarios at once: each scenario runs in
	// the process that claims it there first, and is skipped in the
	// others (explore's claims.go). The directory must start empty.
	Claims string
	// Records (WSCHED_EXPLORE_RECORDS=file) names a file Check appends
	// each scenario's run record to, one JSON line (explore.Record).
	Records string
	// Evidence (WSCHED_EXPLORE_EVIDENCE=dir) is where a failure's page
	// and trace are written; by default wsched-explore under the
	// system's temporary directory.
	Evidence string
	// Play (WSCHED_EXPLORE_PLAY=1) makes a failure's page playable: the
	// engine runs, besides the failing schedule, a tree of schedules
	// that take other choices at its decisions (play.go), which the
	// page's play mode (#play) walks. Off by default: it costs up to 150
	// traced runs per failure. cmd/explain turns it on.
	Play bool
	// Mutant (WSCHED_MUTANT=id) names the catalog mutant the code under
	// test carries, so that a failure's replay command applies it too.
	Mutant string
	// Log, when set, is told what a search learns as it goes that is
	// worth saying before it ends: the reduced search's forecast of each
	// bound from 2, as that bound starts (nextRound), and of bound 1
	// when it was given the plain search's rounds (ExploreScaled), with
	// the time it will take at the rate of the bounds before it. Check
	// sets it to the test. A *testing.T is a Logger.
	Log Logger
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

// Result is what an exploration did (explore.Result).
// Logger is where a search says what it learns as it goes
// (Options.Log).
type Logger interface {
	Logf(format string, args ...any)
}

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
	// Cut counts the runs of the plain search that the state cache cut
	// (Options.StateCache); they are counted in Schedules too.
	// CacheFull counts the states the cache met with its table full
	// (statecache.go, maxCacheSlots), each taken in place of an older
	// state or not taken: a state forgotten is searched again where met.
	Cut, CacheFull int
	// When the budget cut the depth-first search: the schedules it ran
	// at the last bound (the reduced search's, cut or not), and Knuth's
	// estimate of how many there are at that bound (estimate.go; an
	// order of magnitude).
	RoundSchedules int
	Estimate       float64
	// RoundForecast is the reduced search's forecast of its last bound's
	// schedules, made from the bounds before it as they ended
	// (nextRound), or at bound 1 from bound 0 and the plain search's
	// rounds (boundOneRange), the range in RoundRange (low, high; zero
	// at other bounds); 0 where there is none.
	RoundForecast float64
	RoundRange    [2]float64
	// Beyond and BeyondAsked count, over the last bound's search, the
	// choices at its decisions that would cost a preemption past the
	// bound, and those of them its races asked for (porSearch.beyond).
	Beyond, BeyondAsked int
	Failure             *Failure
	// SharedOps counts the operations on shared state the search saw, over
	// all its schedules: the atomics, locks and channel operations of
	// explore/atomic and explore/sync, and the scenario's own points. Zero
	// means the goroutines touched no shared memory the explorer sees
	// (sync/atomic, plain variables, plain channels): the schedules
	// differ only in where goroutines start and end, and Check says so.
	SharedOps int64
	// Races is how many races the reduced search reversed (the branching
	// of its search), and Dependencies what caused them, most first,
	// under Options.Dependencies.
	Races        int
	Dependencies []Dependency
	// Twins counts, over all schedules, the decisions at which the search
	// skipped a twin of a Symmetric group (symmetry.go); zero without a
	// group, or with NoSymmetry.
	Twins int64
	// Subtrees is, in a part of a sharded reduced search, what the part
	// ran in each subtree it ran (por_shard.go), by round: the merge of
	// the parts' records counts each subtree once.
	Subtrees []Subtree
	// Probes counts the runs such a part ran to learn the subtrees it
	// splits (probeSubtrees), each a run of the whole search that the
	// part whose subtree it is counts: in no part's Schedules.
	Probes int
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

// searchGCPercent is the GOGC of a search. Every schedule builds the
// scenario anew (a runtime's workers, rings, channels) on a live heap of
// a few megabytes, so at the default 100 the collector runs many times a
// second and its marking and assists were 5-10% of a search's CPU; at
// 400 it runs a fifth as often, for a heap a few megabytes larger.
const searchGCPercent = 400

// searchGC sets the GOGC of a search, searchGCPercent, unless the
// process asked for more (or for no collection, -1), and returns what
// puts the process's own back.
func searchGC() (restore func()) {
	prev := debug.SetGCPercent(searchGCPercent)
	if prev < 0 || prev > searchGCPercent {
		debug.SetGCPercent(prev)
	}
	return func() { debug.SetGCPercent(prev) }
}

// Explore runs body under many schedules, as opt says, and returns what it
// found. body runs as the goroutine "main"; everything it starts with Go
// (or through instrumented code) is explored with it. body must leave
// nothing running: a goroutine still blocked when the others are done is a
// deadlock. Explore runs one exploration at a time (it is not reentrant)
// and sets GOMAXPROCS to 1 while it runs, since one goroutine runs at a
// time anyway; and it lets the heap
// grow further between collections (searchGC).
func Explore(opt Options, body func()) Result {
	return ExploreScaled(opt, nil, body)
}

// ExploreScaled is Explore given the plain search's forecast of each of
// its rounds, bound 0 to opt.Preemptions (Knuth's, Forecast.PerRound), as
// Check has it before a bounded reduced search: the reduced search then
// forecasts bound 1, as it starts, from its bound 0 and the plain rounds'
// growth (boundOneRange), where nextRound needs two bounds before it.
func ExploreScaled(opt Options, plainRounds []float64, body func()) Result {
	opt = opt.WithDefaults()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer searchGC()()
	weakOn.Store(opt.Weak)
	defer weakOn.Store(false)
	weakOps.Store(0)
	sharedOps.Store(0)
	start := time.Now()
	e := &explorer{opt: opt, body: body, plainRounds: plainRounds}
	defer e.stopWatchdog()
	if opt.Shard.Split() && opt.Reduce && opt.Unbounded && opt.Replay == "" && opt.PCT == 0 {
		panic("explore: Options.Shard with Unbounded: the unbounded reduced search does not split into parts (a subtree's runs depend on its siblings' through the sleep sets); shard it with a bound")
	}
	if opt.Dependencies && opt.Reduce {
		e.deps = newDepDiag()
	}
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
	if opt.Weak && res.Failure == nil && res.Schedules > 0 && weakOps.Load() == 0 {
		res.Failure = nothingWeak()
	}
	res.SharedOps = sharedOps.Load()
	if e.deps != nil {
		res.Races, res.Dependencies = e.deps.races, e.deps.table()
	}
	res.Elapsed = time.Since(start)
	return res
}
