// Package explore runs a small concurrent scenario under every
// interleaving of its goroutines, up to a bound, and reports the first one
// that breaks it as numbered steps that can be replayed exactly.
//
// It is Tokio's loom for Go. The code under test is real code, built with
// the explore tag: code that shares memory through the public packages
// explore/atomic (ordered atomics: every method names its C11 ordering,
// LoadAcquire, StoreRelease, CompareAndSwapAcqRelRelaxed, FenceSeqCst)
// and explore/sync (locks, waits, goroutine starts, the clock). Under the
// tag every operation of theirs is a call into the explorer's engine
// (explore/internal/engine, private to this tree, as loom's rt is);
// without it they are sync/atomic and sync, and the code compiles to what
// it would with those (wsched's impl/ is checked so, by cmd/samecode).
// docs/checking-your-own-code.md is the quick start for another module.
// This package is what a scenario writer uses: the search's Options and
// Result, Explore, Check and Classes, the scenario's goroutines (Go),
// checks (Assert, Failf), waits (Event, Block), clock (Now), views
// (View) and the names its objects go by in a trace (Object), and the
// settings, each an Options field, that the environment
// may set (FromEnv).
// The explorer runs exactly one goroutine at a time and decides, before
// each operation on shared state, which goroutine performs the next one.
//
// The search. A depth-first search runs every schedule with at most b
// preemptions (switching away from a goroutine that could go on), for b =
// 0, 1, ... Options.Preemptions (2 by default): iterative preemption
// bounding, after CHESS (Musuvathi and Qadeer, PLDI 2007), where most
// concurrency bugs needed at most two. Switches when a goroutine blocks,
// yields or ends are free. Each schedule is a fresh run of the scenario
// from the start (a stateless search), so the scenario must be
// deterministic given the schedule; instrumented time is virtual for that
// reason. A budget bounds the number of schedules; a search it stops is
// reported as not exhaustive, with the share of the search it covered by
// the forecast that Check logs before each depth-first search (Knuth's
// estimator over random schedules: about how many schedules, and how
// long; ForecastSearch). Options.Reduce replaces it with dynamic
// partial-order reduction, which runs one schedule of each class
// of schedules that differ only in the order of steps that do not
// conflict (before it, Check logs the plain search's forecast at its
// bound, a ceiling; from bound 2 the reduced search forecasts each bound
// from the ones before); docs/explore.md ("The reduced search") says how it is
// compared with the plain search, and that the classes it once missed
// under a bound are reached now. For scenarios too large to enumerate,
// Options.PCT runs randomized schedules instead (Burckhardt et al., ASPLOS
// 2010), reproducible from a seed.
//
// A schedule fails on a failed Assert or Failf, a panic in any goroutine,
// a deadlock (every goroutine blocked and none with a deadline: with park
// timeouts off, that is how a lost wakeup shows), or more scheduling
// points than Options.MaxSteps (a livelock). The failure carries the
// schedule as numbered steps (goroutine, file:line, operation with its
// ordering, the values read or written, the source line; in the weak mode
// which store each stale read read and why) and a replay token, which
// records the memory mode and its parameters; Check prints both,
// the command that replays the schedule (build tags and mutant included),
// and the path of a self-contained HTML page to step through it
// (page.go). A replay that cannot follow its token fails as diverged,
// never passes. Check also writes a run record of every
// exploration, a JSON line for the programs that read test logs
// (record.go).
//
// Time. Virtual time starts at 0 in each schedule and moves only at a
// decision. When every goroutine is blocked or spinning on Gosched, the
// earliest deadline passes. While some can still act, the earliest
// deadline may pass too: that is one more alternative at each decision,
// never the default, and it costs a preemption, so the bound limits how
// often a timeout fires early in one schedule.
//
// Memory. By default every schedule is sequentially consistent, as Go's
// atomics are. The weak-memory mode (Options.Weak, the build tags
// explore,weak, or WSCHED_EXPLORE_WEAK=1) runs each atomic of
// impl/ only as strong as the C11 ordering its name gives: a load may read
// an older store where RC11 allows it (explore/internal/weak models it), which store
// is a decision of the search, and plain cells (atomic.Cell) are checked
// for data races by happens-before, as loom does for Rust.
//
// Settings. Every setting is a field of Options, and the environment
// variable that sets it is read in one place, FromEnv, which Check calls:
//
//	field            default           environment variable
//	Preemptions      2                 (WSCHED_LONG raises it by one)
//	MaxSchedules     20,000            (WSCHED_LONG: ten times, or as the forecast says; Check)
//	MaxSteps         20,000
//	PCT, PCTDepth    off, 3            (WSCHED_LONG multiplies PCT by ten)
//	Seed             0
//	Replay           none              WSCHED_EXPLORE_REPLAY='scenario=token'
//	ReplayScenario   any               WSCHED_EXPLORE_REPLAY='scenario=token'
//	Reduce           off               WSCHED_EXPLORE_REDUCE=1 (not where the scenario set StateCache)
//	Unbounded        off               WSCHED_EXPLORE_REDUCE=unbounded
//	StateCache       off               WSCHED_EXPLORE_CACHE=1, or =off (cut runs at a state searched already)
//	Watchdog         20 s
//	Weak             off               WSCHED_EXPLORE_WEAK=1, or -tags explore,weak
//	MaxStale         2
//	History          7
//	Shard            the whole search  WSCHED_EXPLORE_SHARD=k/n (part k of n, 0 <= k < n)
//	EstimateProbes   1000 per round    WSCHED_EXPLORE_ESTIMATE=n, or =off
//	Dependencies     off               WSCHED_EXPLORE_DEPS=1 (with Reduce)
//	NoSymmetry       off               WSCHED_EXPLORE_SYMMETRY=off (run every twin of a Symmetric group)
//	Long             off               WSCHED_LONG=1
//	CompareClasses   off               WSCHED_EXPLORE_CLASSES=1
//	Claims           none              WSCHED_EXPLORE_CLAIMS=dir
//	Records          none              WSCHED_EXPLORE_RECORDS=file
//	Evidence         $TMPDIR/wsched-explore   WSCHED_EXPLORE_EVIDENCE=dir
//	Mutant           none              WSCHED_MUTANT=id
//	Play             off               WSCHED_EXPLORE_PLAY=1
//	Log              none              (Check: the test's log)
//
// go doc ./explore/internal/engine Options says what each means.
// TestSettingsTableNamesEveryField keeps this table and the type alike.
//
// Never silent. A weak-mode search in which no schedule performed an
// operation of the memory model (an ordered atomic, a fence, an
// atomic.Cell of explore/atomic) fails as "nothing weak": the code under
// test used sync/atomic or plain variables, which the model cannot see,
// and every schedule was sequentially consistent.
//
// Cores. One goroutine runs at a time, so a search uses one core. Test
// processes that share a directory named by WSCHED_EXPLORE_CLAIMS
// (Options.Claims, claims.go) share the scenarios: each runs in the process
// that claims it first, and cmd/verify runs one process per core that way.
// One long search splits by WSCHED_EXPLORE_SHARD=k/n (Options.Shard): n
// processes or machines each run part k of it, disjoint sets of schedules
// that add up to the whole (the bounded reduced search's parts may run a
// few subtrees twice, which the merge counts once), and MergeRecords
// (cmd/mergerecords) merges their run records (docs/explore.md,
// "Sharding").
// Under the explore tag the scheduler's goroutine numbers come from the
// explorer (internal/goid), and threads run on a pool of goroutines whose
// stacks have grown already: a schedule's cost is the code under test,
// not the Go runtime's bookkeeping (docs/explore.md, "The explore step's
// time").
//
// What it is not: a checker of every weak behaviour (no load buffering,
// stale reads bounded; docs/explore.md says what the mode leaves out). It
// sees only instrumented operations: a goroutine that blocks on a plain
// channel or mutex stops the run, and the explorer reports it rather than
// hang. It is not a race detector for plain Go variables either: under
// sequential consistency its handoffs order every access, and the weak
// mode checks only atomic.Cells. Nor is it where the instrumentation is:
// that is explore/atomic and explore/sync, whose hooks into the engine
// are private to this tree.
package explore
