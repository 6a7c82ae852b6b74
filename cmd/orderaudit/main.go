// Command orderaudit weakens the ordering of each atomic operation of impl/
// by one step, one operation at a time, and runs the scenarios of the
// explorer's weak-memory mode that reach it. Killed: the ordering is
// needed, and the scenario and schedule say why. Not killed: the ordering
// is stronger than the scenarios need within their bounds, or no scenario
// reaches the operation; the report says which.
//
//	go run ./cmd/orderaudit -pkg deque,queue       # writes docs/orderings-audit.json
//	go run ./cmd/orderaudit -pkg sched -func '^extraWorkers\.surplus$'   # one function's operations
//	go run ./cmd/orderaudit -pkg deque,queue,idle,sched,park,forkjoin -profile $LOGS/weak-0-0.cover,$LOGS/weak-0-1.cover
//	                                               # marks the unreached operations the weak layer's run reached (untried)
//	go run ./cmd/orderaudit -reduce -pkg idle,sched,park -add '^TestExplore(Sleep|GoRecycling)$'
//	                                               # scenarios added to the lists: runs only them, for the
//	                                               # operations they reach, and merges (killed stays killed)
//	go run ./cmd/orderaudit -reduce -long -pkg sched -func '^timerQueue\.' -add '^TestExploreTimerMirror$'
//	                                               # the same with a scenario of -long's weak layer, at 1
//	go run ./cmd/orderings                         # folds it into docs/orderings.md
//
// One step weaker: a load or a fence SeqCst -> Acquire (a fence AcqRel),
// Acquire -> Relaxed; a store SeqCst -> Release -> Relaxed; a
// read-modify-write SeqCst -> AcqRel -> Acquire and Release -> Relaxed; a
// compare-and-swap the same on success, and on failure SeqCst -> Acquire
// -> Relaxed; a fence removed. Each variant is applied to a private copy of
// the module (the working tree is never touched).
//
// -add REGEXP audits the scenarios of a package's list that REGEXP selects
// (added to the list after its audit) without running the others again: a
// verdict is the OR over the scenarios, so a weakening the results file has
// as killed keeps its result, and every other weakening of an operation the
// added scenarios reach is tried with those of them that reach its line; a
// survivor's entry then names both sets of scenarios. It merges only
// results of the same search (-reduce or not) and prints every verdict that
// changed (add.go). With -long it also takes the scenarios only verify
// -long's weak layer runs, and runs them as that layer does.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/internal/mutant"
	"github.com/wsched/wsched/internal/orderings"
	"github.com/wsched/wsched/internal/scenarioset"
)

// scenarios says which weak-mode scenarios reach the operations of each
// package of impl/: the weak layer's (scenarioset.WeakScenarios), split
// by package (the linearizability clients with the structure they
// drive), with extra-retire-local added for the task's final state.
// They run in the packages internal/scenarioset lists as reaching the
// package (scenarioset.Reaching).
var scenarios = map[string]string{
	"deque": `^TestExplore(Deque|LinDeque$)`,
	"queue": `^TestExplore(Ring|Global(Queue|BatchIsAtomic)$|Slot|Lin(Ring|Global|Slot)$|` + weakRuntime + `)`,
	"idle":  runtimeScenarios,
	"sched": runtimeScenarios,
	"park":  `^TestExplore(Futex|MonitorPair|RetirePair|TurnPair|TimerPair)`,
	// The pool's pairs; the deque's operations are audited with deque.
	"forkjoin": `^TestExploreForkJoinPair`,
}

// runtimeScenarios reach impl/idle and impl/sched: the runtime scenarios of
// the weak layer (the fairness ones and the task state's linearizability
// client among them), the pairs of impl/sched (the drains and the extra
// slots among them), and extra-retire-local.
const runtimeScenarios = `^TestExplore(RemoteSpawnOneWorker$|` + weakRuntime + `|YieldGoesBehindTheRing$|BusyWorkerYieldsEachTick$|LinTask$|Rule2|Task|MonitorPair|RetirePair|TurnPair|TimerPair|SlotPair|IdlePair|CloseStatePair|IdleAtClosePair|Pacing(Pair|Retiring)$|DrainPair|ExtraSlotsPair|ExtraRetireAgainstLocalSpawn$)`

// oneWorker are the one-worker runtime scenarios the weak layer runs at 1
// preemption with the reduced search (weakOneWorker in explore/scenarios).
// They joined the audit after the rest, by -add (docs/explore.md, "The
// ordering audit"): in the lists of impl/idle and impl/sched first, of
// impl/queue (its ring and global queue under a whole runtime) after.
// They reach none of impl/park's operations: their
// runtime parks on the channel parker (impl/park/chan.go), which has no
// atomic operation.
const oneWorker = `RemoteSpawnOneWorkerTimedPark$|WakeRacesPoll$|Sleep$|GoRecycling$|PanicReachesHandle$|ShutdownSweepsSlotAndRing$`

// weakRuntime are the whole-runtime scenarios the weak layer runs at 1
// preemption: the one-worker ones, and runtime/shutdown-races-go (two
// workers), stranding/shutdown and extra-worker (a worker and an extra
// one), which joined after them, by -add too, and
// runtime/shutdown-races-spawn and misuse/goexit-races-wake, which -add
// -long had audited as -long's (docs/explore.md, "The ordering audit").
const weakRuntime = oneWorker + `|ShutdownRacesGo$|ShutdownRacesSpawn$|GoexitRacesWake$|ShutdownWithBlockedPoll$|ExtraWorkerForStuckWorker$`

// Variant is one weakening of one operation and what the scenarios said.
type Variant struct {
	Name        string `json:"name"`   // the weaker method name, or "(removed)"
	Result      string `json:"result"` // "killed", "survived", "timeout"
	Scenario    string `json:"scenario,omitempty"`
	Schedule    int    `json:"schedule,omitempty"`
	Preemptions int    `json:"preemptions,omitempty"`
	Kind        string `json:"kind,omitempty"` // assertion, deadlock, data race, ...
	// Search is "reduced" when the scenarios ran as the weak layer runs
	// them (-reduce: the reduced search, or the plain one with the state
	// cache where the scenario chose it): its schedules are not the plain
	// search's.
	Search  string  `json:"search,omitempty"`
	Seconds float64 `json:"seconds"`
}

// Entry is one operation's audit.
type Entry struct {
	File     string    `json:"file"`
	Line     int       `json:"line"`
	Code     string    `json:"code"`
	Method   string    `json:"method"`
	Reached  bool      `json:"reached"`
	Run      string    `json:"run"`
	Variants []Variant `json:"variants"`
	// Untried: reached (by the weak layer's profiles, -profile) but its
	// weakenings not tried yet; an operation with nothing weaker has
	// none to try and is never untried.
	Untried bool `json:"untried,omitempty"`
}

func main() {
	pkgFlag := flag.String("pkg", "deque,queue", "the impl/ packages whose operations to audit (comma-separated: deque, queue, idle, sched, park, forkjoin)")
	out := flag.String("o", "docs/orderings-audit.json", "where to write the results")
	limit := flag.Duration("timeout", 4*time.Minute, "the most one variant's scenarios may run, or, if longer, three times their unweakened runs in the coverage pass (scaledLimit)")
	only := flag.String("func", "", "audit only the operations of the functions whose name matches this regexp (Worker.check, extraWorkers.surplus); the others keep their earlier results")
	profiles := flag.String("profile", "", "instead of running anything, read which operations a weak-mode scenario reaches from these coverage profiles (comma-separated: the weak layer's weak-0-P.cover, cmd/verify's log directory) and record only that: an operation newly reached keeps its earlier weakenings if it has them, or is marked untried")
	add := flag.String("add", "", "an incremental audit: run only the scenarios of each package's list this regexp selects, for the operations they reach, and merge with the results file (a killed weakening stays killed and is not tried again; any other is tried with the added scenarios; operations they do not reach keep their entries)")
	flag.BoolVar(&long, "long", false, "with -add: the lists take in the scenarios only verify -long's weak layer runs (scenarioset.WeakLongScenarios), and every run is -long's (WSCHED_LONG=1): each of those at 1 preemption")
	flag.BoolVar(&reduce, "reduce", false, "run the scenarios as the weak layer does (WSCHED_EXPLORE_REDUCE=1): the reduced search, or the plain search with the state cache where a scenario chose it: fewer schedules, and scenarios the plain search cuts end")
	flag.Parse()
	var funcRe *regexp.Regexp
	if *only != "" {
		funcRe = regexp.MustCompile(*only)
	}
	ops, err := orderings.Collect(".")
	check(err)
	setCurrent(ops)
	if long && *add == "" {
		check(fmt.Errorf("-long is for -add: a whole audit under WSCHED_LONG would run every scenario of the lists at a raised bound"))
	}
	if *add != "" {
		if *profiles != "" {
			check(fmt.Errorf("-add runs scenarios; -profile runs none: use one of them"))
		}
		if long {
			check(os.Setenv(explore.LongEnv, "1"))
		}
		addAudit(ops, strings.Split(*pkgFlag, ","), funcRe, *add, *out, *limit)
		return
	}
	var entries []Entry
	for _, pkg := range strings.Split(*pkgFlag, ",") {
		run, ok := scenarios[pkg]
		pkgs := scenarioset.Reaching(pkg)
		if !ok || len(pkgs) == 0 {
			check(fmt.Errorf("no weak-mode scenarios are listed for impl/%s", pkg))
		}
		var covered map[string]bool
		var reaching map[string][]scenario
		if *profiles != "" {
			covered = map[string]bool{}
			for _, p := range strings.Split(*profiles, ",") {
				b, err := os.ReadFile(p)
				check(err)
				coveredLines(b, covered)
			}
			run = "the weak layer's scenarios (cmd/verify -only weak)"
		} else {
			covered, reaching = coverageByScenario([]string{run}, pkgs)
		}
		for _, op := range ops {
			if !strings.HasPrefix(op.File, "impl/"+pkg+"/") || funcRe != nil && !funcRe.MatchString(op.Func) {
				continue
			}
			method := methodName(op)
			e := Entry{File: op.File, Line: op.Line, Code: op.Code, Method: method, Run: run, Reached: covered[fmt.Sprintf("%s:%d", op.File, op.Line)]}
			if !e.Reached {
				fmt.Printf("%s:%d %s: not reached by %s\n", op.File, op.Line, method, run)
				entries = append(entries, e)
				continue
			}
			if *profiles != "" {
				e.Untried = len(weaker(op)) > 0
				fmt.Printf("%s:%d %s: reached\n", op.File, op.Line, method)
				entries = append(entries, e)
				continue
			}
			// Only the scenarios that execute the operation's line can
			// tell its weakening apart: the others run the same program
			// and explore the same schedules with it weakened.
			opRun, opPkgs := selection(reaching[fmt.Sprintf("%s:%d", op.File, op.Line)])
			e.Run = opRun
			for _, w := range weaker(op) {
				v := try(op, w, opRun, opPkgs, *limit)
				fmt.Printf("%s:%d %s -> %s: %s %s %d\n", op.File, op.Line, method, v.Name, v.Result, v.Scenario, v.Schedule)
				e.Variants = append(e.Variants, v)
			}
			entries = append(entries, e)
			// Each operation's results are kept as they come: a run of
			// hours stopped halfway keeps what it found.
			save(*out, entries, false)
		}
	}
	save(*out, entries, *profiles != "")
}

// current holds the entry keys (entryKey) of the operations the code has
// now, and occurrences how many operations each file and code has.
var (
	current     map[string]bool
	occurrences map[string]int
)

// setCurrent sets current and occurrences from the code's operations.
func setCurrent(ops []orderings.Op) {
	current, occurrences = map[string]bool{}, map[string]int{}
	for _, op := range ops {
		current[fmt.Sprintf("%s:%d:%s", op.File, op.Line, op.Code)] = true
		occurrences[op.File+"\x00"+op.Code]++
	}
}

// prune drops the older entries that newer ones replace (see save).
func prune(entries map[string]Entry) {
	if current == nil {
		return
	}
	group := map[string][]string{}
	for k, e := range entries {
		g := e.File + "\x00" + e.Code
		group[g] = append(group[g], k)
	}
	for g, keys := range group {
		sort.Strings(keys)
		var fresh, stale []string
		for _, k := range keys {
			if current[k] {
				fresh = append(fresh, k)
			} else {
				stale = append(stale, k)
			}
		}
		n := len(keys)
		for _, f := range fresh {
			if n <= occurrences[g] || len(stale) == 0 {
				break
			}
			near := 0
			for i, k := range stale {
				if abs(entries[k].Line-entries[f].Line) < abs(entries[stale[near]].Line-entries[f].Line) {
					near = i
				}
			}
			delete(entries, stale[near])
			stale = slices.Delete(stale, near, near+1)
			n--
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// save merges entries into the results file out (earlier results for
// other operations stay) and writes it.
func save(out string, entries []Entry, fromProfiles bool) {
	// Merge with earlier results for other packages.
	old := map[string]Entry{}
	if b, err := os.ReadFile(out); err == nil {
		var prev []Entry
		if json.Unmarshal(b, &prev) == nil {
			for _, e := range prev {
				old[entryKey(e)] = e
			}
		}
	}
	if fromProfiles {
		// -profile fills in only the operations the file has as
		// unreached (or not at all), found by their code and
		// occurrence in the file: the file's lines may be older than
		// the code's, as orderings.md reads them.
		var prev []Entry
		for _, e := range old {
			prev = append(prev, e)
		}
		byCode := map[string]Entry{}
		for i, k := range codeKeys(prev) {
			byCode[k] = prev[i]
		}
		var fill []Entry
		for i, k := range codeKeys(entries) {
			p, ok := byCode[k]
			if ok && p.Reached {
				continue
			}
			if ok {
				delete(old, entryKey(p))
			}
			fill = append(fill, entries[i])
		}
		entries = fill
	}
	for _, e := range entries {
		old[entryKey(e)] = e
	}
	// An entry whose line no longer holds its code is an older result of
	// one of that code's occurrences. Once a newer result stands at an
	// occurrence's current line, the older entry nearest to it is the same
	// occurrence's and is dropped, while the file holds more entries for
	// the code than the code has occurrences (cmd/orderings matches entries
	// to operations by code and occurrence, so an extra entry would shift
	// the match and a missing one would lose a result).
	prune(old)
	var all []Entry
	for _, e := range old {
		all = append(all, e)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].File != all[j].File {
			return all[i].File < all[j].File
		}
		return all[i].Line < all[j].Line
	})
	b, err := json.MarshalIndent(all, "", "  ")
	check(err)
	check(os.WriteFile(out, append(b, '\n'), 0o644))
	fmt.Printf("wrote %s (%d operations)\n", out, len(all))
}

// entryKey identifies an entry when results are merged: two operations
// can share a line (a load of each side of a comparison).
func entryKey(e Entry) string {
	return fmt.Sprintf("%s:%d:%s", e.File, e.Line, e.Code)
}

// codeKeys returns each entry's file, code and occurrence of that code
// in the file (in line order), as orderings.md matches them.
func codeKeys(es []Entry) []string {
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if es[idx[a]].File != es[idx[b]].File {
			return es[idx[a]].File < es[idx[b]].File
		}
		return es[idx[a]].Line < es[idx[b]].Line
	})
	keys := make([]string, len(es))
	n := map[string]int{}
	for _, i := range idx {
		k := es[i].File + "\x00" + es[i].Code
		keys[i] = fmt.Sprintf("%s\x00%d", k, n[k])
		n[k]++
	}
	return keys
}

func methodName(op orderings.Op) string {
	return op.Op + op.Ordering + op.Failure
}

// weaker lists the method names one step weaker than op's ("" for a
// removed fence).
func weaker(op orderings.Op) []string {
	step := map[string]map[string][]string{
		"load":  {"SeqCst": {"Acquire"}, "Acquire": {"Relaxed"}},
		"store": {"SeqCst": {"Release"}, "Release": {"Relaxed"}},
		"rmw":   {"SeqCst": {"AcqRel"}, "AcqRel": {"Acquire", "Release"}, "Acquire": {"Relaxed"}, "Release": {"Relaxed"}},
		"fail":  {"SeqCst": {"Acquire"}, "Acquire": {"Relaxed"}},
		"fence": {"SeqCst": {"AcqRel"}, "AcqRel": {"Acquire", "Release"}},
	}
	var out []string
	switch op.Op {
	case "Load":
		for _, o := range step["load"][op.Ordering] {
			out = append(out, "Load"+o)
		}
	case "Store":
		for _, o := range step["store"][op.Ordering] {
			out = append(out, "Store"+o)
		}
	case "Fence":
		for _, o := range step["fence"][op.Ordering] {
			out = append(out, "Fence"+o)
		}
		out = append(out, "") // removed
	case "CompareAndSwap":
		for _, o := range step["rmw"][op.Ordering] {
			out = append(out, "CompareAndSwap"+o+op.Failure)
		}
		for _, o := range step["fail"][op.Failure] {
			out = append(out, "CompareAndSwap"+op.Ordering+o)
		}
	default:
		for _, o := range step["rmw"][op.Ordering] {
			out = append(out, op.Op+o)
		}
	}
	return out
}

// reduce is the -reduce flag.
var reduce bool

// try applies one weakening to a copy of the module and runs the
// scenarios there.
func try(op orderings.Op, name, run string, pkgs []string, limit time.Duration) Variant {
	v := Variant{Name: name}
	if name == "" {
		v.Name = "(removed)"
	}
	root, err := os.Getwd()
	check(err)
	dir, err := mutant.CopyModule(root)
	check(err)
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, op.File)
	src, err := os.ReadFile(path)
	check(err)
	old := methodName(op)
	at := op.NameOffset
	if string(src[at:at+len(old)]) != old {
		check(fmt.Errorf("%s:%d: %s is not at its offset", op.File, op.Line, old))
	}
	var mutated []byte
	if name == "" {
		// A fence: remove the whole call (atomic.FenceX()).
		end := at + len(old) + len("()")
		start := op.Offset
		mutated = append(append(append([]byte{}, src[:start]...), []byte("_ = 0")...), src[end:]...)
	} else {
		mutated = append(append(append([]byte{}, src[:at]...), []byte(name)...), src[at+len(old):]...)
	}
	check(os.WriteFile(path, mutated, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), scaledLimit(limit, run, pkgs, unweakened))
	defer cancel()
	// Each scenario's run record (explore.Record) goes to a file: the
	// failure's scenario, kind, schedule and preemptions are read from
	// there, not from the test's text.
	recs := filepath.Join(dir, "orderaudit-records.jsonl")
	// -timeout=0: the variant's limit above is the one that counts, not
	// go test's default of ten minutes. -failfast: a package stops at its
	// first failing scenario, the one a failure is picked from.
	args := append([]string{"test", "-tags", "explore,weak", "-count=1", "-timeout=0", "-failfast", "-run", run}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), explore.RecordsEnv+"="+recs)
	if reduce {
		cmd.Env = append(cmd.Env, explore.ReduceEnv+"=1")
		v.Search = "reduced"
	}
	start := time.Now()
	outb, err := cmd.CombinedOutput()
	v.Seconds = time.Since(start).Seconds()
	switch {
	case ctx.Err() != nil:
		v.Result = "timeout"
	case err == nil:
		v.Result = "survived"
	default:
		v.Result = "killed"
		if rec := firstFailure(readRecords(recs), pkgs); rec != nil {
			f := rec.Failure
			v.Scenario, v.Kind, v.Schedule, v.Preemptions = rec.Scenario, f.Kind, f.Schedule, f.Preemptions
		} else {
			v.Kind = "build or test failure: " + firstLine(string(outb))
		}
	}
	return v
}

// readRecords reads a records file; a line that holds no record is
// skipped.
func readRecords(path string) []explore.Record {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []explore.Record
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok, err := explore.ParseRecord(line); ok && err == nil {
			out = append(out, r)
		}
	}
	return out
}

// firstFailure is the first failed scenario: of the first package, in the
// order go test was given them, that has one, the first to fail there (a
// package's tests run one at a time; packages run side by side, so their
// records interleave in the file).
func firstFailure(recs []explore.Record, pkgs []string) *explore.Record {
	var best *explore.Record
	rank := func(r *explore.Record) int {
		if i := slices.Index(pkgs, r.Package); i >= 0 {
			return i
		}
		return len(pkgs)
	}
	for i := range recs {
		if r := &recs[i]; r.Failure != nil && (best == nil || rank(r) < rank(best)) {
			best = r
		}
	}
	return best
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// scenario is one TestExplore function of one package.
type scenario struct{ dir, name string }

// unweakened holds how long each scenario's unweakened run took in the
// coverage pass (runCoverage).
var unweakened = map[scenario]time.Duration{}

// scaledLimit is the time a variant's run of the scenarios run selects
// in pkgs may take: limit, or three times what their unweakened runs
// took together if that is longer. A variant that survives runs the
// whole search again, and in the weak mode a weaker ordering can add
// executions, so a fixed limit cut scenarios that take longer than it
// unweakened (TestExploreRemoteSpawn under -long: two searches, about 5
// minutes a variant) as timeouts, which the record keeps.
func scaledLimit(limit time.Duration, run string, pkgs []string, took map[scenario]time.Duration) time.Duration {
	re := regexp.MustCompile(run)
	var sum time.Duration
	for sc, d := range took {
		if re.MatchString(sc.name) && slices.Contains(pkgs, sc.dir) {
			sum += d
		}
	}
	return max(limit, 3*sum)
}

// coverageByScenario runs each scenario that every pattern of runs
// selects, unmutated, alone, with coverage of impl/, and returns the lines
// they execute ("impl/queue/ring.go:164") and, per line, the scenarios
// that execute it.
// Each package's test binary is built once. A search is deterministic, so
// a scenario that never executes an operation's line explores the same
// schedules with the operation weakened: only the scenarios that reach a
// line are run for its weakenings (selection).
func coverageByScenario(runs []string, pkgs []string) (map[string]bool, map[string][]scenario) {
	key := strings.Join(runs, "\x00") + "\x00" + strings.Join(pkgs, ",")
	if c, ok := coverageMemo[key]; ok {
		// impl/idle and impl/sched share their scenarios: run them once.
		return c.covered, c.reaching
	}
	covered, reaching := runCoverage(runs, pkgs)
	coverageMemo[key] = coverageRun{covered, reaching}
	return covered, reaching
}

type coverageRun struct {
	covered  map[string]bool
	reaching map[string][]scenario
}

var coverageMemo = map[string]coverageRun{}

func runCoverage(runs []string, pkgs []string) (map[string]bool, map[string][]scenario) {
	found, err := scenarioset.Find(".")
	check(err)
	var res []*regexp.Regexp
	for _, run := range runs {
		res = append(res, regexp.MustCompile(run))
	}
	matches := func(name string) bool {
		for _, re := range res {
			if !re.MatchString(name) {
				return false
			}
		}
		return true
	}
	tmp, err := os.MkdirTemp("", "orderaudit-cover-")
	check(err)
	defer os.RemoveAll(tmp)
	root, err := os.Getwd()
	check(err)
	covered := map[string]bool{}
	reaching := map[string][]scenario{}
	for i, dir := range pkgs {
		var names []string
		for _, name := range found[dir] {
			if matches(name) && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		bin := filepath.Join(tmp, fmt.Sprintf("p%d.test", i))
		build := exec.Command("go", "test", "-c", "-o", bin, "-tags", "explore,weak", "-coverpkg=./impl/...", dir)
		if out, err := build.CombinedOutput(); err != nil {
			check(fmt.Errorf("building %s: %v\n%s", dir, err, out))
		}
		for _, name := range names {
			prof := filepath.Join(tmp, "cover.out")
			os.Remove(prof)
			// No time limit: the unmutated scenarios end by their
			// budgets.
			cmd := exec.Command(bin, "-test.run", "^"+name+"$", "-test.count=1", "-test.timeout=0", "-test.coverprofile="+prof)
			cmd.Dir = filepath.Join(root, dir)
			if reduce {
				// The search the variants run (try): the plain one in
				// the weak mode runs some of the scenarios for many
				// minutes.
				cmd.Env = append(os.Environ(), explore.ReduceEnv+"=1")
			}
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				check(fmt.Errorf("the unmutated scenario %s of %s fails (%v):\n%s", name, dir, err, out))
			}
			b, err := os.ReadFile(prof)
			check(err)
			mine := map[string]bool{}
			coveredLines(b, mine)
			for l := range mine {
				covered[l] = true
				reaching[l] = append(reaching[l], scenario{dir, name})
			}
			unweakened[scenario{dir, name}] = time.Since(start)
			fmt.Printf("coverage: %s %s: %d lines of impl/ (%.1fs)\n", dir, name, len(mine), time.Since(start).Seconds())
		}
	}
	return covered, reaching
}

// selection turns the scenarios that reach an operation into a go test
// -run pattern and its packages, in the list's order.
func selection(scs []scenario) (string, []string) {
	var names, dirs []string
	for _, sc := range scs {
		if !slices.Contains(names, sc.name) {
			names = append(names, sc.name)
		}
		if !slices.Contains(dirs, sc.dir) {
			dirs = append(dirs, sc.dir)
		}
	}
	sort.Strings(names)
	var ordered []string
	for _, p := range scenarioset.Packages {
		if slices.Contains(dirs, p.Dir) {
			ordered = append(ordered, p.Dir)
		}
	}
	return "^(" + strings.Join(names, "|") + ")$", ordered
}

// coveredLines adds the lines of impl/ that a block of coverage profile b
// ran to covered.
func coveredLines(b []byte, covered map[string]bool) {
	const mod = "github.com/wsched/wsched/"
	for _, l := range strings.Split(string(b), "\n") {
		// file.go:startLine.startCol,endLine.endCol numStmts count
		f := strings.Fields(l)
		if len(f) != 3 || f[2] == "0" {
			continue
		}
		file, rng, ok := strings.Cut(f[0], ":")
		if !ok {
			continue
		}
		a, bb, _ := strings.Cut(rng, ",")
		s, _ := strconv.Atoi(strings.Split(a, ".")[0])
		e, _ := strconv.Atoi(strings.Split(bb, ".")[0])
		file = strings.TrimPrefix(file, mod)
		for i := s; i <= e; i++ {
			covered[fmt.Sprintf("%s:%d", file, i)] = true
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderaudit:", err)
		os.Exit(2)
	}
}
