package main

import (
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/wsched/wsched/internal/scenarioset"
)

// A layer is one kind of check. Layers run in the order of the table: the
// cheap ones first, so a broken build is reported before the stress suite
// spends minutes on it.
type layer struct {
	name  string // what -only takes
	title string // what the table shows
	cmds  [][]string
	long  [][]string // replaces cmds under -long, when set
	// longFn, when set, computes the -long commands (used when they depend
	// on the module, such as which packages use rapid).
	longFn func() ([][]string, error)
	// skipWhen returns a reason to skip the layer, or "" to run it.
	skipWhen func() string
	limit    time.Duration
	// longLimit, when set, is the limit under -long; otherwise it is
	// limit times longStretch.
	longLimit time.Duration
	// longLanes, above 1, runs the layer's -long commands on that many
	// lanes at once (runLanes): command i on lane i mod longLanes, a
	// lane's commands in turn. For layers whose commands are independent
	// and together use about one core, such as the explorer's engine
	// properties, which run one goroutine at a time.
	longLanes int
	// longAlone are commands run under -long after the layer's other
	// commands end, one at a time: tests bounded by time, which beside
	// another lane would do less work in that time.
	longAlone [][]string
	// lanes, above 1, does the same in the default run (and under -long
	// where longLanes is not set): for the model and trace layers, whose
	// commands are independent and, in turn, kept two cores a little over
	// one busy.
	lanes int
	// processes, above 1, runs that many copies of each command at once,
	// sharing the explorer's scenarios between them (runShared).
	processes int
	// longFirst, under -long with processes, are -run patterns of the
	// tests holding the layer's longest searches, longest first: each
	// process runs its command with each of them in turn, then the
	// command itself, so the longest start at once instead of where the
	// source order reaches them, while the claims still run each scenario
	// once.
	longFirst []string
	// reach, when set ("plain" or "weak"), has the layer's go test
	// commands write coverage profiles of impl/ and, when they pass,
	// gates the layer on them: every shared-state function of impl/ is
	// entered by a scenario of that mode or listed in
	// docs/reach-exempt.tsv (reach.go, internal/reach).
	reach string
}

// longEnv is added to every command's environment under -long. The tests
// read it: the explorer's scenarios run one bound higher, with a budget
// for it that depends on whether the search can end there (explore,
// longBudget), the stress scenarios run 8 times larger (WSCHED_LONG=1),
// the deque and fork-join stress runs a minute and 45 s, the idle and
// deque porcupine checks 200 rounds and 40 s. A command may set its own
// variables by starting with NAME=value words: the queue porcupine checks
// multiply their rounds by WSCHED_LONG, so their layers set 4.
//
// What -long is for: each layer run past what the default run affords,
// TLC included. Measured whole on 201c632: 82 minutes of two quiet cores,
// 2 h 36 min of CPU, and as two parts 38 and 44 minutes; about 100 minutes
// whole since the weak layer runs the two LIFO-slot scenarios at 1, so the
// aim, 45 minutes, takes three machines as three parts (-part, part.go:
// about 34 minutes each by longMinutes; docs/auditing.md, "What to run",
// has each layer's measured time). Where a layer's
// commands in turn left a core idle they run side by side (longLanes),
// tests bounded by time alone after them (longAlone). The
// explorer's share goes to searches that end one bound higher; the random
// layers (porcupine, stress, chaos) get a few times their default time
// each, where a longer run finds more only in proportion.
var longEnv = []string{"WSCHED_LONG=1"}

// weakScenarios are the scenarios the weak layer runs (internal/scenarioset,
// WeakScenarios, says which and why; the weak build of explore/scenarios
// runs them by default too).
const weakScenarios = scenarioset.WeakScenarios

// weakLongScenarios are the weak layer's under -long: its scenarios and
// scenarioset.WeakLongScenarios, runtime scenarios at 1 preemption.
const weakLongScenarios = "(" + weakScenarios + ")|(" + scenarioset.WeakLongScenarios + ")"

// ModelPackages are the packages of the model layer: the weak memory
// model, its RC11 oracle and the public litmus runner. The ordered
// atomics' weak-mode tests (explore/atomic's TestWeak*) run too, alone:
// the rest of that package is the unit layer's.
var modelPackages = []string{"./explore/internal/weak", "./explore/internal/weak/rc11", "./explore/litmus"}

// modelCmds is the model layer's commands; extra (such as -rapid.checks,
// which only the packages that link rapid accept) goes after the
// packages of the first, which are the ones that do.
func modelCmds(extra ...string) [][]string {
	base := []string{"go", "test", "-tags", "explore,weak", "-count=1", "-json"}
	var flags, after []string
	for _, e := range extra {
		if strings.HasPrefix(e, "-rapid.") {
			after = append(after, e)
		} else {
			flags = append(flags, e)
		}
	}
	first := append(append(slices.Clone(base), flags...), "./explore/internal/weak")
	rest := append(append(slices.Clone(base), flags...), modelPackages[1:]...)
	atomics := append(append(slices.Clone(base), flags...), "-run", "^TestWeak", "./explore/atomic")
	// The engine's comparisons of the reduced search with brute force on
	// generated programs, plain and weak, at rapid's full count: go test
	// -race draws only a few programs for them (the race detector makes
	// them minutes long and adds little: the explorer runs one goroutine
	// of a program at a time). Under -long the unit layer runs them with
	// 2000 cases, so here they keep the default.
	engine := []string{"go", "test", "-count=1", "-json", "-run", engineGenerated, "./explore/internal/engine"}
	// On two lanes (layer.lanes), command i on lane i mod 2: the litmus
	// suite (about 36 s in CI on a slow machine) with the atomics (a
	// second), and the weak model's own tests (17 s) with the engine's
	// comparisons (30 s).
	return [][]string{rest, append(first, after...), atomics, engine}
}

// engineGenerated names the engine's tests that compare searches on
// generated programs (the reduced search and symmetry with the full
// search, plain and weak, a sharded search with the whole, a search that
// skips forced points with one that stops at them, a reduced search that
// keeps its replayed steps' analysis with one that redoes it, a search
// with the state cache with one without, whole and in parts): each draws
// only a few programs, or none, under the race detector
// (TestEngineGenerated holds it to that).
const engineGenerated = "^Test(Reduced(MissesNoTrace|RunsOneSchedulePerClass|Weak.*)OfGeneratedPrograms|Symmetry(MissesNoOutcome|InTheReducedSearch|InTheUnboundedReducedSearch|InTheUnboundedReducedSearchWithOwnData|InTheWeakMode)OfGeneratedPrograms|(Reduced)?ShardsAddUp(OnSymmetric|ToTheWholeSearchOnGenerated(Weak)?)Programs|ReducedMissesNoTraceOfLatchPrograms|SkippedForcedPointsRunTheSameSchedules|KeptPrefixRunsTheSameSchedules(InTheWeakMode)?|StateCacheReachesEveryOutcomeOfGenerated(Weak)?Programs|StateCacheInPartsReachesEveryOutcomeOfItsShare)$"

// engineLongHalf selects the engine's tests that the first of the unit
// layer's two -long engine commands runs (-run); the second runs every
// other test of the package (-skip). Each lane also runs part of the other
// packages' commands: the first lane about 30 s after these (the rapid
// and explore packages' commands under -race), the second about 150 s
// (the packages without rapid). Chosen by their times in a -long run at
// 2,000 programs, one core each: in the whole run of 0c85d23 (a machine
// shared with other work) these tests took 558 s and the rest 1,074 s, so
// the first lane sat idle for ten of the layer's 20.7 minutes; the rest
// had grown by the weak mode's class comparisons (ReducedWeakWithBranches
// 345 s, ReducedWeakWithWaits 219 s). With ReducedWeakWithBranches moved
// here: about 903 s and 30, against 729 s and 150, and the reduced
// search's shard comparisons (about 80 s at 2,000 programs) in the rest.
const engineLongHalf = "^Test(StateCacheReachesEveryOutcomeOfGeneratedWeakPrograms|SymmetryInTheWeakModeOfGeneratedPrograms|ReducedWeakReachesEveryOutcomeOfGeneratedPrograms|SymmetryInTheUnboundedReducedSearchWithOwnDataOfGeneratedPrograms|SymmetryInTheReducedSearchOfGeneratedPrograms|ReducedMissesNoTraceOfGeneratedPrograms|ReducedWeakWithABoundReachesEveryOutcomeOfGeneratedPrograms|ReducedWeakWithBranchesRunsEveryClassOnce)$"

// stressTimed selects the stress tests bounded by time under -long: the
// fork-join pool's runs (45 s each, stress/forkjoin_test.go) and, in the
// chaos build, the deque's (a minute each, stress/deque_test.go; without
// chaos their items run out first). The stress and chaos layers run them
// after the rest (longAlone), alone on the machine: beside the other
// lane they did a fraction of their work in the same time
// (TestForkJoinPushWhileGettingSleepy 60,552 iterations against 307,697
// alone, TestForkJoinTreesNoLostJobs 7,263 trees against 13,430).
const stressTimed = "^Test(DequeExactlyOnceBursts|DequeExactlyOnceLastElement|ForkJoinTreesNoLostJobs|ForkJoinPushWhileGettingSleepy)$"

// stressLongHalf selects the stress tests that the first of the stress
// and chaos layers' two -long commands on ./stress runs side by side
// (longLanes, -run); the second runs every other test of the package but
// stressTimed's (-skip). Chosen by their times in a -long run (9de87c9):
// these about 168 s of the plain run's 320 (without stressTimed's), 341
// of the chaos run's 638.
const stressLongHalf = "^Test(IdleLastSearcherDuringClaim|SchedVariants|SchedShutdownUnderLoad|RingConservation)$"

// stressLong is the -long commands of the stress package, base followed by
// the package's halves (stressLongHalf) and then its timed tests
// (stressTimed): the first two side by side, the last alone (longAlone).
func stressLong(base []string) (lanes, alone [][]string) {
	lanes = [][]string{
		append(slices.Clone(base), "-run", stressLongHalf, "./stress"),
		append(slices.Clone(base), "-skip", stressLongHalf+"|"+stressTimed, "./stress"),
	}
	alone = [][]string{append(slices.Clone(base), "-run", stressTimed, "./stress")}
	return lanes, alone
}

// dequeLinearizable selects the porcupine checks of the Chase-Lev deque,
// the first of the porcupine layer's two -long commands; the second runs
// the package's other tests.
const dequeLinearizable = "^TestDequeLinearizable"

// halves is two go test commands of pkg, base followed by -run pattern
// and by -skip pattern: between them each test of the package once.
func halves(base []string, pattern, pkg string) [][]string {
	var cmds [][]string
	for _, sel := range []string{"-run", "-skip"} {
		cmds = append(cmds, append(slices.Clone(base), sel, pattern, pkg))
	}
	return cmds
}

// explorerProcesses is how many test processes the explorer's layers run
// at once: one per core, up to four. The explorer runs one goroutine at a
// time (GOMAXPROCS 1 while it searches), so one process uses one core.
func explorerProcesses() int { return min(max(runtime.NumCPU(), 1), 4) }

// longStretch stretches a layer's time limit under -long, unless the
// layer sets its own longLimit.
const longStretch = 4

// lanesFor is how many of the layer's commands run at once: longLanes
// under -long when it is set, else lanes when it is set, else one.
func (l layer) lanesFor(long bool) int {
	if long && l.longLanes > 1 {
		return l.longLanes
	}
	if l.lanes > 1 {
		return l.lanes
	}
	return 1
}

// limitFor is the layer's time limit, under -long or not.
func (l layer) limitFor(long bool) time.Duration {
	switch {
	case !long:
		return l.limit
	case l.longLimit > 0:
		return l.longLimit
	}
	return l.limit * longStretch
}

func layers(tlaJar string) []layer {
	stressLanes, stressAlone := stressLong([]string{"go", "test", "-race", "-count=1", "-json", "-timeout=0"})
	chaosLanes, chaosAlone := stressLong([]string{"go", "test", "-race", "-tags", "chaos", "-count=1", "-json", "-timeout=0"})
	return []layer{
		{
			name:  "build",
			title: "vet and build",
			cmds: [][]string{
				{"gofmt", "-l", "."},
				{"go", "build", "./..."},
				{"go", "vet", "./..."},
				{"go", "vet", "-tags", "chaos", "./..."},
				{"go", "vet", "-tags", "explore", "./..."},
				{"go", "vet", "-tags", "explore,weak", "./..."},
				{"go", "vet", "-tags", "tlatrace", "./..."},
				{"go", "vet", "-tags", "explore,tlatrace", "./..."},
			},
			limit: 5 * time.Minute,
		},
		{
			name:  "unit",
			title: "package tests and rapid",
			cmds: [][]string{{"go", "test", "-race", "-count=1", "-json",
				"./impl/...", "./spec/...", "./model/...", "./internal/...", "./cmd/...", "./explore", "./explore/atomic", "./explore/sync", "./explore/internal/engine", "./explore/internal/vclock"},
				// package explore's examples explore code of explore/atomic,
				// which is the explorer's only under the explore tag.
				{"go", "test", "-race", "-count=1", "-json", "-tags", "explore", "./explore"}},
			// rapid's default is 100 cases per property; -long asks for
			// 2000. Only test binaries that link rapid accept the flag.
			longFn: func() ([][]string, error) {
				with, without, err := splitByDep("pgregory.net/rapid",
					"./impl/...", "./spec/...", "./model/...", "./internal/...", "./cmd/...", "./explore", "./explore/atomic", "./explore/sync", "./explore/internal/engine", "./explore/internal/vclock")
				if err != nil {
					return nil, err
				}
				// The explorer's own properties (its engine,
				// ./explore/internal/engine) compare whole searches of
				// generated programs; at 2000 cases under the race
				// detector two of them take half an hour each on two
				// cores, past the layer's limit. They run without -race
				// here: the explorer runs one goroutine of a program at
				// a time, and its code is run under -race by the
				// layer's default command and by go test -race ./...
				// at 100 cases.
				// They take about 650 s of one core (unit's -long
				// was 12 minutes, 11 of them these, on two cores):
				// two commands, one the tests of engineLongHalf and
				// the other the rest, run side by side on the
				// layer's two lanes (longLanes), each followed by
				// part of the other packages' commands.
				var cmds [][]string
				if i := slices.Index(with, "./explore/internal/engine"); i >= 0 {
					with = slices.Delete(with, i, i+1)
					for _, sel := range []string{"-run", "-skip"} {
						cmds = append(cmds, []string{"go", "test", "-count=1", "-json", "-timeout=0", sel, engineLongHalf, "./explore/internal/engine", "-rapid.checks=2000"})
					}
				}
				if len(with) > 0 {
					// The flag goes after the packages: go test hands
					// everything after an unknown flag to the test
					// binary, packages included, and would then test
					// the current directory only.
					cmd := append([]string{"go", "test", "-race", "-count=1", "-json", "-timeout=0"}, with...)
					cmds = append(cmds, append(cmd, "-rapid.checks=2000"))
				}
				if len(without) > 0 {
					cmds = append(cmds, append([]string{"go", "test", "-race", "-count=1", "-json", "-timeout=0"}, without...))
				}
				cmds = append(cmds, []string{"go", "test", "-race", "-count=1", "-json", "-timeout=0", "-tags", "explore", "./explore"})
				return cmds, nil
			},
			limit:     15 * time.Minute,
			longLanes: 2,
		},
		{
			name:  "explore",
			title: "every interleaving of small scenarios (explorer)",
			// -tags explore makes impl/'s atomics, locks, channel waits
			// and clock scheduling points; the TestExplore scenarios run
			// each under every schedule up to their preemption bound (2
			// by default; -long raises it by one and the budgets ten
			// times, through WSCHED_LONG). No -race: the explorer runs one
			// goroutine at a time, ordering every access.
			// The scenarios take about six and a half minutes on two
			// cores, one process per core (about 12.5 minutes of CPU,
			// CI's run of c6a7639, every scenario exhaustive at its
			// bound); -timeout and the limit of 20 minutes leave room
			// for a slow machine, and for one core. The packages are
			// internal/scenarioset's list, whose test checks that it
			// names every package with a TestExplore function.
			cmds:  [][]string{append([]string{"go", "test", "-tags", "explore", "-count=1", "-json", "-timeout=20m", "-run", "^TestExplore"}, scenarioset.Dirs("explore")...)},
			long:  [][]string{append([]string{"go", "test", "-tags", "explore", "-count=1", "-json", "-timeout=0", "-run", "^TestExplore"}, scenarioset.Dirs("explore")...)},
			limit: 20 * time.Minute,
			// Under -long the scenarios run one bound higher: ten
			// times the budget where the forecast says the search
			// ends there (twice the forecast, if more), what the
			// scenario's own bound takes where it does not (explore,
			// longBudget). About 12 minutes on two quiet cores (about
			// 1,470 s of CPU, docs/auditing.md; it was 40 minutes at
			// ten times every budget): twice that on one core, more
			// on a shared machine. Each run has the explorer's own hang bound
			// (its watchdog and step budget); this limit is only the
			// backstop.
			longLimit: 3 * time.Hour,
			processes: explorerProcesses(),
			reach:     "plain",
		},
		{
			name:  "weak",
			title: "the same scenarios with the orderings the code names (weak memory)",
			// -tags explore,weak runs each scenario in the explorer's
			// weak-memory mode: every atomic as strong as its ordering,
			// a load may read an older store, plain cells checked for
			// data races. Only the scenarios of weakScenarios: the
			// others take too long for the layer. The reduced search
			// (WSCHED_EXPLORE_REDUCE): it runs every choice of store
			// of every load it runs, and in the weak mode ends where
			// the plain search is cut (docs/explore.md, "The reduced
			// search in the weak-memory mode"); the runtime scenarios
			// choose the plain search with the state cache, which the
			// variable leaves them (explore.ReduceEnv; "The state cache
			// in the weak mode"). Twins of a Symmetric
			// group are skipped, as in the plain layers: a member's
			// history records the seq_cst order it reads and writes,
			// which the counterexample of docs/explore.md ("Symmetry")
			// showed missing.
			cmds:  [][]string{append([]string{"WSCHED_EXPLORE_REDUCE=1", "go", "test", "-tags", "explore,weak", "-count=1", "-json", "-run", weakScenarios}, scenarioset.Dirs("weak")...)},
			long:  [][]string{append([]string{"WSCHED_EXPLORE_REDUCE=1", "go", "test", "-tags", "explore,weak", "-count=1", "-json", "-timeout=0", "-run", weakLongScenarios}, scenarioset.Dirs("weak")...)},
			limit: 5 * time.Minute,
			// Under -long: 25.6 minutes of CPU on e5550c4 (about 13
			// minutes on two quiet cores), the runtime scenarios of
			// weakLongScenarios at 1 most of it; runtime/remote-spawn
			// (2.2 minutes), wake-races-poll-2 (13.7) and
			// go-recycling-2 (19.8, each one core's alone) joined
			// since: about 61 minutes of CPU by those parts; measured
			// whole since the weak model reuses its memory (c01a372):
			// 44.5 minutes of CPU, 29.2 on two cores, one process
			// ending 14 minutes before the other; 23.8 on two cores
			// (47.1 of CPU) since the processes start with the
			// longest (longFirst, 7fe2ce2). Before them,
			// fairness/busy-worker-yields had spent 366 s of one core
			// on a cut search at its raised bound (it gets the default
			// budget there now, explore/scenarios). With
			// stranding/lifo-slot and lifo-slot-after-idle at 1 (26 and
			// 16.5 minutes of one process) and go-recycling-2 and
			// wake-races-poll-2 on the state cache (5.7 and under 2): 32.2
			// minutes, 63.7 of CPU on 28677d4, the lifo-slot process the
			// last to end.
			longLimit: time.Hour,
			processes: explorerProcesses(),
			longFirst: scenarioset.WeakLongFirst,
			reach:     "weak",
		},
		{
			name:  "model",
			title: "the weak memory model against its RC11 oracle: litmus suite, generated programs, ordered atomics; the reduced search against brute force",
			// The model the weak layer relies on, checked on its own: the
			// litmus suite and the random programs (each run through
			// the model, every interleaving and store choice, and
			// through the RC11 oracle's axioms; the outcomes must be
			// equal), the oracle against GenMC's and herd's published
			// counts, and explore/atomic's weak-mode tests (the ordered
			// atomics as impl/ calls them). Under -tags explore,weak so
			// that the atomics' tests run in the weak-memory mode.
			cmds:  modelCmds(),
			long:  modelCmds("-timeout=0", "-rapid.checks=2000"),
			limit: 5 * time.Minute,
			// Its four commands in turn took 1m28.8s with 1m34.3s of
			// CPU (CI on a slow machine, 9f1bc44): two lanes.
			lanes: 2,
		},
		{
			name:  "learn",
			title: "the lessons of docs/learn: every command, every exercise's kill",
			// docs/learn's test with WSCHED_LEARN=all: each lesson's
			// commands run, their outputs compared with the lesson's,
			// and each exercise's mutant killed at the schedule and
			// preemptions its answer gives, what the text says about each
			// run checked against it, the prose of docs/ against the tree
			// (about a minute; without the
			// variable, go test ./... runs only the quick part).
			cmds:  [][]string{{"WSCHED_LEARN=all", "go", "test", "-count=1", "-json", "-run", "^(TestLessons|TestProse|TestCheckSection|TestCitation)", "./docs/learn"}},
			long:  [][]string{{"WSCHED_LEARN=all", "go", "test", "-count=1", "-json", "-timeout=0", "-run", "^(TestLessons|TestProse|TestCheckSection|TestCitation)", "./docs/learn"}},
			limit: 10 * time.Minute,
		},
		{
			name:  "porcupine",
			title: "linearizability (porcupine)",
			cmds:  [][]string{{"go", "test", "-race", "-count=1", "-json", "./linearizability"}},
			// Under -long: the deque scenarios 40 s each (their
			// dequeBudget), the queue checks 4 times their rounds,
			// 200 idle rounds: 2.5 minutes measured (7.5 with 2
			// minutes per deque check and 10 times the rounds).
			long:  halves([]string{"WSCHED_LONG=4", "go", "test", "-race", "-count=1", "-json", "-timeout=0"}, dequeLinearizable, "./linearizability"),
			limit: 15 * time.Minute,
			// Under -long its two halves run side by side (the deque's
			// checks, about 96 s, and the rest, about 107: one command
			// kept two cores 1.2 busy for 3.5 minutes).
			longLanes: 2,
		},
		{
			name:  "stress",
			title: "stress under -race",
			cmds:  [][]string{{"go", "test", "-race", "-count=1", "-json", "./stress"}},
			long:  stressLanes,
			limit: 20 * time.Minute,
			// Under -long the package's two halves (stressLongHalf) run
			// side by side, then its tests bounded by time alone
			// (stressTimed): in one command it kept two cores 1.5 busy
			// for 8 minutes.
			longLanes: 2,
			longAlone: stressAlone,
		},
		{
			name:  "chaos",
			title: "stress and porcupine with chaos yield points",
			cmds: [][]string{{"go", "test", "-race", "-tags", "chaos", "-count=1", "-json",
				"./stress", "./linearizability"}},
			// Under -long: about 14 minutes measured, 10 of them the
			// stress half (20 before the deque, fork-join and deque
			// porcupine runs went from 2-2.5 minutes to 40-60 s), 2.5
			// of those the ring conservation runs of 20,000,000 and
			// 5,000,000 tasks, which the chaos build now runs at four
			// times their default, not ten (stress, ringTasks).
			// Its four commands run on two lanes (command i on lane i
			// mod 2): the halves of the stress tests (stressLongHalf,
			// about 341 and 297 s in one -long run), each followed by
			// a half of the porcupine checks (dequeLinearizable, about
			// 96 and 113 s); then the tests bounded by time alone
			// (stressTimed, 212 s). In turn they kept two cores 1.5 busy
			// for 17.7 minutes (9de87c9, a slow hour).
			long:      append(chaosLanes, halves([]string{"WSCHED_LONG=4", "go", "test", "-race", "-tags", "chaos", "-count=1", "-json", "-timeout=0"}, dequeLinearizable, "./linearizability")...),
			limit:     20 * time.Minute,
			longLanes: 2,
			longAlone: chaosAlone,
		},
		{
			name:  "tlc",
			title: "TLA+ specs (TLC)",
			cmds:  [][]string{{"go", "test", "-count=1", "-json", "./tla"}},
			long:  [][]string{{"go", "test", "-count=1", "-json", "-timeout=0", "./tla"}},
			skipWhen: func() string {
				if tlaJar == "" {
					return "TLA2TOOLS_JAR is not set and ../shared/tools/tla2tools.jar is absent: the TLC layer did NOT run"
				}
				return ""
			},
			limit: 15 * time.Minute,
		},
		{
			name:  "trace",
			title: "TLA+ trace validation: logs of the code checked against the specs by TLC",
			// -tags tlatrace makes impl/queue's Ring log ThreePhaseSteal's
			// actions, impl/idle IdleProtocol's and impl/sched's monitor
			// MonitorIdle's and Stranding's (internal/tlatrace); tla/trace
			// has TLC check the logs of the explorer's ring, remote-spawn,
			// monitor and stranding scenarios (every distinct log of the
			// pair scenarios, every 10th of the larger ring ones, a quarter
			// of the two larger stranding searches; -long: all), of stress runs,
			// and that the specs' mutants reject them; impl/sched's
			// monitor pairs are traced in their own package (docs/tla.md,
			// "Trace validation"). One TLC run per batch.
			// On the default run's two lanes (command i on lane i mod
			// 2) the explored and stress logs are split by spec, so
			// that each lane holds about half: the ring's and the
			// monitor's explored logs (about 82 s in CI on a slow
			// machine) and the ring's stress logs (24 s) on one, the
			// idle protocol's and stranding's explored logs (57 s) and
			// the other stress logs (30 s) on the other.
			cmds: [][]string{
				{"go", "test", "-tags", "explore,tlatrace", "-count=1", "-json", "-timeout=40m", "-run", "^TestTrace(Ring|Monitor)", "./tla/trace", "./impl/sched"},
				{"go", "test", "-tags", "explore,tlatrace", "-count=1", "-json", "-timeout=40m", "-run", "^TestTrace(Idle|Stranding)", "./tla/trace"},
				{"go", "test", "-tags", "tlatrace", "-count=1", "-json", "-timeout=40m", "-run", "^TestTraceRing", "./tla/trace"},
				{"go", "test", "-tags", "tlatrace", "-count=1", "-json", "-timeout=40m", "-run", "^TestTrace(Idle|Monitor|Stranding)", "./tla/trace"},
			},
			long: [][]string{
				{"WSCHED_TRACE_STRIDE=1", "go", "test", "-tags", "explore,tlatrace", "-count=1", "-json", "-timeout=0", "-run", "^TestTrace(Ring|Idle|Monitor|Stranding)", "./tla/trace", "./impl/sched"},
				{"go", "test", "-tags", "tlatrace", "-count=1", "-json", "-timeout=0", "-run", "^TestTrace(Ring|Idle|Monitor|Stranding)", "./tla/trace"},
			},
			skipWhen: func() string {
				if tlaJar == "" {
					return "TLA2TOOLS_JAR is not set and ../shared/tools/tla2tools.jar is absent: the trace validation layer did NOT run"
				}
				return ""
			},
			limit: 40 * time.Minute,
			// Under -long the two commands run side by side: the
			// explored logs (252 s, most of it the explorer's one
			// goroutine at a time) and the stress logs (137 s) took
			// 6 min 31 s in turn with 478 s of CPU, two cores used
			// a little over one. So does the default run: the explored
			// logs (about 138 s in CI on a slow machine, 9f1bc44) and
			// the stress logs (54 s) took 3m10.1s in turn with 4m39.6s
			// of CPU. (lanes holds under -long too.)
			lanes: 2,
		},
	}
}
