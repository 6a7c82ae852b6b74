package explore

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore/internal/engine"
)

// Check explores body under the scenario's name and fails t with the trace
// and the replay command if a schedule fails. It logs what it ran as a
// METRIC line, which cmd/verify adds up. A search that the budget stopped
// is logged as not exhaustive, never silently.
func Check(t testing.TB, name string, opt Options, body func()) Result {
	t.Helper()
	ownReduce, ownUnbounded, ownCompare := opt.Reduce, opt.Unbounded, opt.CompareClasses // the scenario's own choice, before the environment's
	opt, err := FromEnv(opt)
	if err != nil {
		t.Fatalf("explore %s: %v", name, err)
	}
	if asked, _ := FromEnv(Options{}); asked.Reduce && opt.StateCache && !opt.Reduce {
		// Said, not silent: the environment asked for the reduced search.
		t.Logf("explore %s: the plain search with the state cache, the scenario's own choice, which %s leaves it (%s=off: the reduced search)", name, ReduceEnv, CacheEnv)
	}
	if opt.Replay != "" && opt.ReplayScenario != "" && opt.ReplayScenario != name {
		// Not Skip: a test may check several scenarios in a loop, and
		// the replayed one may come after this one.
		t.Logf("explore %s: not run, replaying %s only", name, opt.ReplayScenario)
		return Result{}
	}
	if opt.Log == nil {
		opt.Log = scenarioLog{t, name}
	}
	var longNote string
	var longFc Forecast
	comparePlain := 0 // the plain search's budget in the comparison, when not opt's
	if opt.Long && opt.Replay == "" {
		if opt.PCT > 0 {
			opt.PCT *= 10
		} else {
			opt = opt.WithDefaults()
			opt.Preemptions++
			plain := opt
			opt.MaxSchedules, longNote, longFc = longBudget(t, opt, body)
			if opt.CompareClasses && opt.Reduce {
				// The comparison runs the plain search too: it gets
				// the plain search's budget for -long, the reduced
				// one ten times.
				plain.Reduce, plain.Unbounded = false, false
				comparePlain, longNote, _ = longBudget(t, plain, body)
			}
		}
	}
	compare := opt.CompareClasses && opt.Replay == "" && opt.PCT == 0
	if opt.Shard.Split() && opt.Replay == "" && opt.PCT == 0 && ((ownReduce && ownUnbounded && !compare) || (ownCompare && compare)) {
		// A scenario that runs the unbounded reduced search, or the
		// class comparison, itself, in a layer run in parts: neither
		// splits, so part 0 runs it whole (the search's record names no
		// part; the comparison writes none) and the other parts leave it
		// out; the merged records hold it once.
		what := "the unbounded reduced search"
		if compare {
			what = "the class comparison"
		}
		if opt.Shard.K != 0 {
			t.Skipf("explore %s: %s does not split into parts: part 0 of %d runs it whole", name, what, opt.Shard.N)
			return Result{}
		}
		t.Logf("explore %s: %s does not split into parts: this part, 0 of %d, runs it whole", name, what, opt.Shard.N)
		opt.Shard = Shard{}
	}
	if opt.Shard.Split() && opt.Replay == "" && opt.PCT == 0 && ((opt.Reduce && opt.Unbounded) || compare) {
		t.Fatalf("explore %s: %s=%s with the unbounded reduced search (%s=unbounded) or the class comparison (%s): only the plain search, the bounded reduced search and PCT split into parts", name, ShardEnv, opt.Shard, ReduceEnv, ClassesEnv)
	}
	if opt.Replay != "" {
		opt.Shard = Shard{} // a replay runs its one schedule, whichever part holds it
	}
	if opt.Replay == "" {
		claim(t, name, opt, compare)
	}
	if compare {
		if longNote != "" {
			t.Logf("explore %s: %s", name, longNote)
		}
		compareClasses(t, name, opt, comparePlain, body)
		return Result{}
	}
	var fc, plainFc Forecast
	if longNote != "" {
		t.Logf("explore %s: %s", name, longNote)
	}
	if opt.Replay == "" {
		if longFc.Runs > 0 && !opt.Reduce {
			fc = longFc // the same search's forecast, made for the budget
		} else {
			fc = forecast(t, opt, body)
		}
		if fc.Runs > 0 {
			logForecast(t, name, "forecast", fc, "")
		} else if plainFc = plainForecast(t, opt, body); plainFc.Runs > 0 {
			logForecast(t, name, "forecast of the plain search at this bound", plainFc, " at its rate; the reduced search runs the classes among them, "+reducedShare)
		}
	}
	res := unstuck(t, func() Result { return engine.ExploreScaled(opt, plainFc.PerRound, body) })
	exhaustive := 0
	if res.Exhaustive {
		exhaustive = 1
	}
	t.Logf("METRIC explore_scenarios=1 explore_schedules=%d explore_steps=%d explore_exhaustive=%d", res.Schedules, res.Steps, exhaustive)
	how := ""
	if opt.Shard.Split() {
		how = fmt.Sprintf("part %s of the search: ", opt.Shard)
	}
	how += fmt.Sprintf("%s, %d schedules, %d steps (longest %d), %v", res.Mode, res.Schedules, res.Steps, res.MaxSteps, res.Elapsed.Round(1e6))
	if res.Mode == "dpor" {
		how += fmt.Sprintf(" (%d repeated a class)", res.Redundant)
	}
	if res.Probes > 0 {
		how += fmt.Sprintf(", after %d probes (the first runs of its subtrees, which every part runs to learn them, counted by the part whose subtree each is)", res.Probes)
	}
	if res.Cut > 0 {
		how += fmt.Sprintf(" (%d cut by the state cache)", res.Cut)
	}
	if res.CacheFull > 0 {
		how += fmt.Sprintf(" (the state cache's table full: %d states taken in place of older ones or not taken; a state forgotten is searched again where met)", res.CacheFull)
	}
	if res.Twins > 0 {
		how += fmt.Sprintf(", one of each set of twins run (explore.Symmetric; %d decisions had a twin)", res.Twins)
	}
	dfs := res.Mode == "dfs" || res.Mode == "dpor"
	switch {
	case res.Mode == "dpor" && res.Bound < 0 && res.Exhaustive:
		how += ", exhaustive: every execution, whatever its preemptions"
	case res.Mode == "dpor" && res.Bound < 0 && res.Failure == nil:
		how += fmt.Sprintf(", NOT exhaustive: the budget of %d schedules ran out before every execution ran", opt.WithDefaults().MaxSchedules)
	case dfs && res.Exhaustive:
		how += fmt.Sprintf(", exhaustive up to %d preemptions", res.Bound)
	case dfs && res.Failure == nil && res.Bound > 0:
		how += fmt.Sprintf(", exhaustive up to %d preemption(s); NOT exhaustive at %d: the budget of %d schedules ran out", res.Bound-1, res.Bound, opt.WithDefaults().MaxSchedules)
	case dfs && res.Failure == nil:
		how += fmt.Sprintf(", NOT exhaustive even without preemptions: the budget of %d schedules ran out", opt.WithDefaults().MaxSchedules)
	}
	if res.Mode == "dfs" && res.Failure == nil && res.Estimate > 0 {
		how += fmt.Sprintf(" (%d run at %d preemption(s), of about %s there: %s)", res.RoundSchedules, res.Bound, magnitude(res.Estimate), left(res.Estimate, res.RoundSchedules, res.Cut > 0))
	}
	how += roundNote(res)
	how += forecastNote(fc, res)
	how += plainForecastNote(plainFc, res)
	rec := newRecord(t, name, opt, res)
	rec.Forecast = math.Round(fc.Schedules)
	if f := res.Failure; f != nil {
		rf := &RecordFailure{Kind: string(f.Kind), Message: firstLine(f.Message), Schedule: f.Schedule, Preemptions: f.Preemptions, Token: f.Token, Replay: replayCommand(rec, f.Token)}
		rec.Failure = rf
		evidence := ""
		changed := changedLines(rec)
		if v := changedVerdict(changed, f.Data()); v != "" {
			evidence = "\n" + v
		}
		if f.Data() != nil {
			var err error
			rf.Evidence, err = writeEvidence(opt.Evidence, rec, f, changed)
			if err != nil {
				evidence += fmt.Sprintf("\nthe counterexample page could not be written: %v", err)
			} else {
				evidence += "\npage: " + rf.Evidence.Page + "\ntrace: " + rf.Evidence.Trace
				if f.Data().Play != nil {
					evidence += "\nplay: file://" + rf.Evidence.Page + "#play"
				}
			}
		}
		rec.write(t, opt.Records)
		t.Fatalf("explore %s: FAILED (%s): %s\n%s\nfound at schedule %d, %d preemptions; %s\nschedule:\n%s\nreplay: %s%s",
			name, how, f.Kind, f.Message, f.Schedule, f.Preemptions, stackNote(f), f.Trace, rf.Replay, evidence)
	}
	rec.write(t, opt.Records)
	if res.SharedOps == 0 && res.Failure == nil {
		t.Logf("explore %s: NOTE: no goroutine performed an operation the explorer sees on shared memory (an atomic of explore/atomic, a lock or wait of explore/sync, a point): the schedules differ only in where goroutines start and end. Code that shares memory through sync/atomic, sync or plain variables is not explored; build it on explore/atomic and explore/sync and run with -tags explore", name)
	}
	if res.Mode == "replay" {
		t.Logf("explore %s: replayed schedule passed:\n%s", name, res.Trace)
	}
	if opt.Dependencies && res.Mode == "dpor" {
		t.Logf("explore %s: %s", name, dependencyTable(res))
	}
	t.Logf("explore %s: %s", name, how)
	return res
}

// dependencyTable is the reduced search's races by cause (Options.Dependencies):
// per kind, then the sites with the most.
func dependencyTable(res Result) string {
	var b strings.Builder
	per := func(n int) string { return fmt.Sprintf("%.1f", float64(n)/float64(max(res.Schedules, 1))) }
	fmt.Fprintf(&b, "dependencies: %d races reversed in %d schedules (%s per schedule)\n", res.Races, res.Schedules, per(res.Races))
	kinds := map[string]int{}
	var order []string
	for _, d := range res.Dependencies {
		if kinds[d.Kind] == 0 {
			order = append(order, d.Kind)
		}
		kinds[d.Kind] += d.Races
	}
	slices.SortStableFunc(order, func(a, c string) int { return kinds[c] - kinds[a] })
	b.WriteString("  kind | races | per schedule | share\n")
	for _, k := range order {
		fmt.Fprintf(&b, "  %s | %d | %s | %.0f%%\n", k, kinds[k], per(kinds[k]), 100*float64(kinds[k])/float64(max(res.Races, 1)))
	}
	b.WriteString("  most races by site (kind | site | races):\n")
	for i, d := range res.Dependencies {
		if i == 12 {
			break
		}
		fmt.Fprintf(&b, "  %s | %s | %d\n", d.Kind, d.Site, d.Races)
	}
	return b.String()
}

// Under Long (verify -long) a search runs one bound higher, and what a
// plain depth-first search is given for it depends on whether it can end
// there. Its forecast at the raised bound (ForecastSearch) decides, before
// the search starts:
//
//   - forecast within longEndsWithin times the budget: ten times the
//     budget (longFactor), as before, or longRoundsMargin times the
//     forecast if that is more: the forecasts of the scenarios that end
//     are all within a factor of two (docs/explore.md), and at ten times
//     400,000 protocol/shutdown-sweep (forecast about 4,200,000) was cut
//     at 3 with about 1,400,000 left. The search stops where it ends, so
//     the budget costs only what it runs. "Within" is of the forecast
//     less two standard errors (Forecast.StdErr): a forecast is a random
//     number, and protocol/shutdown-sweep, which ends at 3 in 5,549,519
//     schedules, was forecast at about 6,500,000 (standard error 40%),
//     over fifteen times its 400,000, and was cut at 135,705. The budget
//     is then at most longRoundsMargin times longEndsWithin times the
//     budget (thirty times it), as it was when only the forecast itself
//     decided: what a search misjudged this way can cost.
//   - forecast beyond that: the raised bound will not end, and ten times
//     the budget would be spent on a cut corner of it (50,000,000
//     schedules of runtime/two-wakes at 2, cut). It gets what the rounds
//     up to the plain bound take by the same forecast, times
//     longRoundsMargin, at most ten times the budget: the rounds the
//     plain run ends (a search runs them first) and a start on the
//     next. Where the plain run is cut too, by the
//     forecast, the plain budget at least: -long runs at least the
//     schedules the plain run does.
//   - the same forecast, for a search with the state cache
//     (Options.StateCache): ten times the budget all the same. The
//     forecast is of the search without the cache, which runs every
//     schedule; with it, a run is cut where its state's subtree was
//     searched, and a search forecast far past its budget may end well
//     inside it: at 2 preemptions stranding/lifo-slot ran 3,250,284
//     schedules against a forecast of about 49,000,000 (15 times),
//     lifo-slot-after-idle 1,952,641 against 83,000,000 (42 times). A
//     scenario whose cached search ends at the raised bound sizes its
//     budget for -long to hold it (explore/scenarios, budget).
//
// The reduced search has no forecast before it starts (the plain one's is
// no guide: the reduced search runs from a sixtieth to half of its
// schedules; its own, from its rounds, comes only as its last bound
// starts: Result.RoundForecast), so it keeps ten times the budget; a
// scenario whose reduced search cannot end at the raised bound says so in
// its budget for -long (explore/scenarios, budget). Measured on the -long
// explore layer: docs/auditing.md, "What to run".
const (
	longFactor       = 10
	longEndsWithin   = 15
	longRoundsMargin = 2.0
)

// longBudget is the schedule budget of a search under Long, opt being the
// search's options with the bound raised and the plain budget, and a
// note of the choice for the log.
func longBudget(t testing.TB, opt Options, body func()) (int, string, Forecast) {
	b := opt.MaxSchedules
	if opt.Reduce || opt.Unbounded || opt.Preemptions < 1 || opt.EstimateProbes < 0 || opt.Shard.Split() {
		return b * longFactor, "", Forecast{}
	}
	fc := forecast(t, opt, body)
	if fc.Runs == 0 {
		return b * longFactor, "", fc
	}
	n, note := longBudgetBy(opt.Preemptions, b, fc, opt.StateCache)
	return n, note, fc
}

// longBudgetBy is longBudget's choice for a plain budget b and the
// forecast fc at the raised bound, preemptions, for a search with the
// state cache (cached) or without it.
func longBudgetBy(preemptions, b int, fc Forecast, cached bool) (int, string) {
	said := fmt.Sprintf("-long: the forecast at %d preemptions (about %s schedules, standard error %s) is", preemptions, magnitude(fc.Schedules), stdErrNote(fc))
	ends := fc.Schedules-2*fc.StdErr <= float64(longEndsWithin*b)
	if !ends && cached {
		n := b * longFactor
		return n, fmt.Sprintf("%s over %d times the budget of %d, less two standard errors, for the search without the state cache; with it, runs are cut where their state was searched, and the search may end far below the forecast: budget %d (%d times the budget)",
			said, longEndsWithin, b, n, longFactor)
	}
	if ends {
		ends := max(b*longFactor, int(math.Ceil(longRoundsMargin*fc.Schedules)))
		ends = min(ends, int(longRoundsMargin*longEndsWithin)*b)
		return ends, fmt.Sprintf("%s within %d times the budget of %d, less two standard errors: budget %d (%d times the budget, or %.0f times the forecast, at most %.0f times the budget)",
			said, longEndsWithin, b, ends, longFactor, longRoundsMargin, longRoundsMargin*longEndsWithin)
	}
	below := 0.0
	for _, n := range fc.PerRound[:len(fc.PerRound)-1] {
		below += n
	}
	cut := min(int(math.Ceil(longRoundsMargin*below)), b*longFactor)
	which := "which end within the budget"
	if cut >= b {
		which = fmt.Sprintf("at most %d times the budget", longFactor)
	}
	return cut, fmt.Sprintf("%s over %d times the budget of %d, less two standard errors: the search will not end there; budget %d (%.0f times about %s, the rounds up to %d, %s)",
		said, longEndsWithin, b, cut, longRoundsMargin, magnitude(below), preemptions-1, which)
}

// forecastNote says how the forecast compares with what the search ran:
// its error when the search ended, the share it covered when the budget
// stopped it.
func forecastNote(fc Forecast, res Result) string {
	switch {
	case fc.Runs == 0 || res.Failure != nil || res.Mode != "dfs":
		return ""
	case res.Cut > 0 && res.Exhaustive:
		return fmt.Sprintf("; forecast of the search without the state cache about %s (standard error %s), %.1f times what ran", magnitude(fc.Schedules), stdErrNote(fc), fc.Schedules/float64(res.Schedules))
	case res.Cut > 0 && fc.Schedules > float64(res.Schedules):
		return fmt.Sprintf("; covered at least %.2g%% of the whole search, by the forecast (about %s schedules; a run the state cache cut stands for all of its subtree)", 100*float64(res.Schedules)/fc.Schedules, magnitude(fc.Schedules))
	case res.Exhaustive:
		return fmt.Sprintf("; forecast about %s (standard error %s), off by %+.0f%%", magnitude(fc.Schedules), stdErrNote(fc), 100*(fc.Schedules-float64(res.Schedules))/float64(res.Schedules))
	case fc.Schedules > float64(res.Schedules):
		return fmt.Sprintf("; covered about %.2g%% of the whole search, by the forecast (about %s schedules)", 100*float64(res.Schedules)/fc.Schedules, magnitude(fc.Schedules))
	default:
		return fmt.Sprintf("; the forecast (about %s schedules) is below what ran: too rough to say what share was covered", magnitude(fc.Schedules))
	}
}

// logForecast logs fc, what it forecasts named by what, before a search;
// note follows its time.
func logForecast(t testing.TB, name, what string, fc Forecast, note string) {
	t.Helper()
	var rounds []string
	for _, n := range fc.PerRound {
		rounds = append(rounds, magnitude(n))
	}
	t.Logf("explore %s: %s: about %s schedules (by round: %s; standard error %s), about %v%s; from %d random schedules in %v (%s=off skips it)",
		name, what, magnitude(fc.Schedules), strings.Join(rounds, ", "), stdErrNote(fc), fc.Time.Round(time.Millisecond), note, fc.Runs, fc.Elapsed.Round(time.Millisecond), EstimateEnv)
}

// plainForecast is, for a bounded reduced search, the forecast of the
// plain search of the same bound: the reduced search's branches are the
// races its runs reverse, so it has no tree for Knuth's walks, and its
// own forecast comes only as its bounds from 1 start (from bound 0 on,
// the plain forecast's rounds scale it: engine.ExploreScaled). The plain
// search's count is what the reduced one runs the classes of.
func plainForecast(t testing.TB, opt Options, body func()) Forecast {
	if !opt.Reduce || opt.Unbounded || opt.Shard.Split() {
		return Forecast{}
	}
	opt.Reduce = false
	return forecast(t, opt, body)
}

// reducedShare says what the reduced search ran of the plain search's
// count on the scenarios measured (docs/explore.md, "The plain search's
// forecast before a reduced search").
const reducedShare = "measured at 0.002 to 1.1 times it (median 0.3 in the weak layer, 0.19 in the explore layer's)"

// plainForecastNote compares the plain search's forecast (plainForecast)
// with what the reduced search ran, when it ended.
func plainForecastNote(fc Forecast, res Result) string {
	if fc.Runs == 0 || res.Failure != nil || res.Mode != "dpor" || !res.Exhaustive || fc.Schedules <= 0 {
		return ""
	}
	return fmt.Sprintf("; the plain search's forecast about %s, the reduced search ran %.2g times it", magnitude(fc.Schedules), float64(res.Schedules)/fc.Schedules)
}

// scenarioLog is Check's Options.Log: the test's log, each line named
// for the scenario as Check's own are.
type scenarioLog struct {
	t    testing.TB
	name string
}

func (l scenarioLog) Logf(format string, args ...any) {
	l.t.Helper()
	l.t.Logf("explore %s: %s", l.name, fmt.Sprintf(format, args...))
}

// roundNote says how the reduced search's forecast of its last bound,
// made from the bounds before it, compares with what that bound ran: its
// error when the search ended, the share covered when the budget stopped
// it.
func roundNote(res Result) string {
	fc, ran := res.RoundForecast, float64(res.RoundSchedules)
	switch {
	case res.Mode != "dpor" || fc == 0 || res.Failure != nil:
		return ""
	case res.Exhaustive:
		return fmt.Sprintf("; bound %d forecast from the bounds before it at about %s%s, off by %+.0f%%", res.Bound, magnitude(fc), rangeNote(res.RoundRange, ran), 100*(fc-ran)/ran)
	case fc > ran:
		return fmt.Sprintf(" (%d run at %d preemption(s), of about %s there by the forecast from the bounds before it: about %.2g%% covered)", res.RoundSchedules, res.Bound, magnitude(fc), 100*ran/fc)
	default:
		return fmt.Sprintf(" (%d run at %d preemption(s); the forecast from the bounds before it, about %s, is below what ran: too rough to say what share was covered)", res.RoundSchedules, res.Bound, magnitude(fc))
	}
}

// rangeNote says where a count that ran lies against the range of bound
// 1's forecast (Result.RoundRange), if there is one.
func rangeNote(r [2]float64, ran float64) string {
	where := "inside it"
	switch {
	case r[1] == 0:
		return ""
	case ran < r[0]:
		where = "below it"
	case ran > r[1]:
		where = "above it"
	}
	return fmt.Sprintf(" (between about %s and %s: %s)", magnitude(r[0]), magnitude(r[1]), where)
}

// stdErrNote is the forecast's standard error, as a share of it.
func stdErrNote(fc Forecast) string {
	if fc.Schedules <= 0 {
		return "none"
	}
	return fmt.Sprintf("%.0f%%", 100*fc.StdErr/fc.Schedules)
}

// forecast is ForecastSearch under t: a probe stuck outside the
// explorer's control fails the test as the search would.
func forecast(t testing.TB, opt Options, body func()) Forecast {
	return unstuck(t, func() Forecast { return ForecastSearch(opt, body) })
}

// unstuck runs f, and fails t if it panics because a run got stuck
// (engine.StuckError).
func unstuck[T any](t testing.TB, f func() T) T {
	defer func() {
		if p := recover(); p != nil {
			var s engine.StuckError
			if e, ok := p.(error); ok && errors.As(e, &s) {
				t.Fatal(s.Error())
			}
			panic(p)
		}
	}()
	return f()
}

func stackNote(f *Failure) string {
	if f.Stack == "" {
		return "no panic"
	}
	return "panic stack:\n" + f.Stack
}

func testName(t testing.TB) string {
	n := t.Name()
	if i := strings.Index(n, "/"); i >= 0 {
		n = n[:i]
	}
	return n
}

// packageDir is the test's package as a ./-relative path from the root
// of its module, for the replay command. go test runs a test in its
// package's directory, so the module is the nearest directory above it
// that holds go.mod: wsched's for its own tests, the other module's for
// a module that imports wsched (whose copy of wsched may be in the module
// cache or behind a replace directive).
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return relToModule(wd)
}

// relToModule is dir as a ./-relative path from the nearest directory at
// or above it that holds go.mod ("." if none does).
func relToModule(dir string) string {
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, dir)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		up := filepath.Dir(root)
		if up == root {
			return "."
		}
		root = up
	}
}

// compareClasses checks that the reduced search reaches every trace the
// plain one does, at opt's bound.
func compareClasses(t testing.TB, name string, opt Options, plainBudget int, body func()) {
	t.Helper()
	popt, ropt := opt, opt
	popt.Reduce, ropt.Reduce, ropt.Unbounded = false, true, false
	if plainBudget > 0 {
		popt.MaxSchedules = plainBudget
	}
	// Every trace, not one per orbit of twins: the comparison is of the
	// reduction by classes alone.
	popt.NoSymmetry, ropt.NoSymmetry = true, true
	plain, tokens, pres, err := engine.ClassesWithTokens(popt, body)
	if err != nil {
		// In the weak-memory mode the two searches are compared on
		// outcomes instead (explore/internal/engine/por_weak_test.go) and on
		// the ordering mutants.
		t.Logf("explore %s: not compared: %v", name, err)
		return
	}
	red, rres, err := Classes(ropt, body)
	if err != nil {
		t.Fatalf("explore %s: %v", name, err)
	}
	if pres.Failure != nil || rres.Failure != nil {
		t.Fatalf("%s: a schedule failed (plain: %v; reduced: %v)", name, pres.Failure, rres.Failure)
	}
	var missed []string
	for k := range plain {
		if red[k] == 0 {
			missed = append(missed, k)
		}
	}
	if len(missed) > 0 && rres.Exhaustive {
		// The reduced search ended: a trace it did not reach is one it
		// skipped, not one it had no time for.
		slices.Sort(missed)
		for _, k := range missed[:min(3, len(missed))] {
			t.Errorf("%s: the reduced search missed a trace the plain one ran (goroutines A, B, ... in normal form): %s\nthe plain schedule: %s='%s=%s'", name, k, ReplayEnv, name, tokens[k])
		}
		t.Logf("%s: why the first was missed: %s", name, engine.NearestRun(ropt, body, tokens[missed[0]]))
	}
	t.Logf("%s: plain %d schedules (exhaustive %v, bound %d), %d traces; reduced %d schedules (exhaustive %v), %d traces; %d missed",
		name, pres.Schedules, pres.Exhaustive, pres.Bound, len(plain), rres.Schedules, rres.Exhaustive, len(red), len(missed))
	if !pres.Exhaustive || !rres.Exhaustive {
		t.Logf("%s: a search was cut by its budget; the comparison covers what the plain one ran", name)
	}
}

// magnitude writes an estimate rounded to two significant digits:
// "870,000".
func magnitude(x float64) string {
	if x < 1 {
		return "0"
	}
	s := strconv.FormatInt(engine.TwoDigits(x), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// left says how much of the bound the budget left, by the estimate. The
// estimator walks the tree of the search without the state cache (it
// knows nothing of cuts), so beside a search that cut runs, cut, it
// estimates an upper bound, and a loose one: stranding/lifo-slot at 1 in the weak mode
// was given about 51,000,000 left after 3,000,000 schedules, and ended
// with the cache 5,355,845 later (docs/explore.md, "Since a full table
// takes new states").
func left(est float64, ran int, cut bool) string {
	if float64(ran) >= est {
		return "the estimate is below what ran: too rough to say how many are left"
	}
	if cut {
		return fmt.Sprintf("about %s left without the state cache, by Knuth's estimator over %d random schedules; with it often far fewer", magnitude(est-float64(ran)), engine.EstimateProbes)
	}
	return fmt.Sprintf("about %s left, by Knuth's estimator over %d random schedules", magnitude(est-float64(ran)), engine.EstimateProbes)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
