package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/wsched/wsched/internal/orderings"
	"github.com/wsched/wsched/internal/scenarioset"
)

// -add: an incremental audit. Scenarios that join a package's list after
// its audit need not re-run the audit: a verdict is the OR over the
// scenarios (one scenario that kills a weakening kills it), so only the
// added scenarios are run, for the operations they reach, and their
// results are merged with the file's:
//
//   - a weakening the file has as killed stays killed and is not tried
//     again;
//   - any other weakening of an operation the added scenarios reach
//     (survived, timed out, or its operation unreached or untried
//     before) is tried with the added scenarios that reach the
//     operation's line: killed gives their result (scenario, schedule);
//     survived stays survived, and the entry's Run names both sets of
//     scenarios ("EARLIER; added: ADDED"); a timeout either time stays
//     a timeout unless the added scenarios kill it;
//   - an operation the added scenarios do not reach keeps its entry
//     untouched.
//
// The earlier entry of an operation is found by its file, code and
// occurrence of that code in the file (codeKeys), as save and
// cmd/orderings match them. The earlier results and the added ones must
// come from the same search: -add refuses to run when an entry it could
// merge with has variants of the other search (plain, or reduced with
// -reduce), since the two searches' schedules and budgets differ.
//
// -add -long audits with the runtime scenarios that only verify -long's
// weak layer runs (scenarioset.WeakLongScenarios: timer-mirror,
// monitor-idle, the extra workers' retirement...), as that layer runs
// them: WSCHED_LONG set, each at 1 preemption with the reduced search.
// They are in no package's list otherwise: without WSCHED_LONG their
// tests run the explore layer's options in the weak mode (2 preemptions,
// budgets of a million schedules), which end in no time an audit has.

// long is the -long flag: see above.
var long bool

// longScenarios are the scenarios -add -long adds to a package's list:
// those of -long's weak layer, whole-runtime scenarios, which reach the
// ring and the global queue, the idle state and the scheduler (their
// runtimes park on the channel parker: none of impl/park's operations).
var longScenarios = map[string]string{
	"queue": scenarioset.WeakLongScenarios,
	"idle":  scenarioset.WeakLongScenarios,
	"sched": scenarioset.WeakLongScenarios,
}

// listFor is the scenarios that reach pkg's operations: its list, and
// with -long the scenarios of -long's weak layer.
func listFor(pkg string) string {
	if l, ok := longScenarios[pkg]; long && ok {
		return "(" + scenarios[pkg] + ")|(" + l + ")"
	}
	return scenarios[pkg]
}

// change is one weakening whose verdict -add changed.
type change struct {
	Op       string // "impl/sched/worker.go:412 LoadAcquire"
	Name     string // the weakening ("" when the operation has none)
	Old, New string // "killed", "survived", "timeout"; Old also "unreached", "untried", "not audited"
	Scenario string
	Schedule int
}

func (c change) String() string {
	s := fmt.Sprintf("%s -> %s: %s -> %s", c.Op, c.Name, c.Old, c.New)
	if c.Name == "" {
		s = fmt.Sprintf("%s: %s -> %s", c.Op, c.Old, c.New)
	}
	if c.Scenario != "" {
		s += fmt.Sprintf(" (%s, schedule %d)", c.Scenario, c.Schedule)
	}
	return s
}

// addMerge is -add's result for one operation the added scenarios reach:
// prev is the file's entry for it (nil when there is none), e the
// operation (File, Line, Code, Method), names its weakenings (weaker),
// addRun the added scenarios that reach its line, and try runs one
// weakening with them. It returns the new entry and the verdicts that
// changed. A variant's Seconds add up over the runs behind its result.
func addMerge(prev *Entry, e Entry, names []string, addRun string, try func(name string) Variant) (Entry, []change) {
	op := fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Method)
	// was is what the file says of the whole operation when it has no
	// verdicts to merge with: all of its weakenings are tried.
	was := "not audited"
	earlier := map[string]Variant{}
	if prev != nil {
		switch {
		case !prev.Reached:
			was = "unreached"
		case prev.Untried:
			was = "untried"
		default:
			was = ""
			for _, v := range prev.Variants {
				earlier[v.Name] = v
			}
		}
	}
	e.Reached, e.Untried, e.Variants = true, false, nil
	e.Run = addRun
	if was == "" {
		e.Run = prev.Run
	}
	var changes []change
	if len(names) == 0 && was != "" {
		changes = append(changes, change{Op: op, Old: was, New: "reached (nothing weaker to try)"})
	}
	tried := false
	for _, name := range names {
		shown := name
		if name == "" {
			shown = "(removed)"
		}
		old, had := earlier[shown]
		if had && old.Result == "killed" {
			e.Variants = append(e.Variants, old)
			continue
		}
		v := try(name)
		v.Name = shown
		tried = true
		from := was
		if had {
			from = old.Result
			v.Seconds += old.Seconds
			if v.Result != "killed" && old.Result == "timeout" {
				v.Result = "timeout"
			}
		} else if was == "" {
			from = "not tried"
		}
		e.Variants = append(e.Variants, v)
		if v.Result != from {
			changes = append(changes, change{Op: op, Name: shown, Old: from, New: v.Result, Scenario: v.Scenario, Schedule: v.Schedule})
		}
	}
	if tried && was == "" {
		added := "; added: "
		if long {
			// Said in the run: these scenarios ran at -long's bound.
			added = "; added under WSCHED_LONG: "
		}
		e.Run = prev.Run + added + addRun
	}
	return e, changes
}

// addOps merges the added scenarios' results for ops (one package's,
// -func applied): keys are their codeKeys, prev the file's entries by
// codeKeys, reaching the added scenarios that reach each line, try runs
// one weakening of op with run and pkgs. Each merged entry goes to emit
// as it is made; an operation no added scenario reaches makes none.
func addOps(ops []orderings.Op, keys []string, prev map[string]*Entry, reaching map[string][]scenario,
	try func(op orderings.Op, name, run string, pkgs []string) Variant, emit func(Entry)) []change {
	var changes []change
	for i, op := range ops {
		scs := reaching[fmt.Sprintf("%s:%d", op.File, op.Line)]
		if len(scs) == 0 {
			continue
		}
		run, pkgs := selection(scs)
		e := Entry{File: op.File, Line: op.Line, Code: op.Code, Method: methodName(op)}
		merged, ch := addMerge(prev[keys[i]], e, weaker(op), run, func(name string) Variant {
			return try(op, name, run, pkgs)
		})
		emit(merged)
		changes = append(changes, ch...)
	}
	return changes
}

// readEntries reads the results file (none: no entries).
func readEntries(path string) []Entry {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	check(err)
	var es []Entry
	check(json.Unmarshal(b, &es))
	return es
}

// opEntries returns ops as entries (file, line, code), for codeKeys.
func opEntries(ops []orderings.Op) []Entry {
	es := make([]Entry, len(ops))
	for i, op := range ops {
		es[i] = Entry{File: op.File, Line: op.Line, Code: op.Code}
	}
	return es
}

// mixedSearch returns the operations among ops whose entry in prev has a
// variant of a search other than search ("" plain, "reduced").
func mixedSearch(ops []orderings.Op, keys []string, prev map[string]*Entry, search string) []string {
	var out []string
	for i, op := range ops {
		p := prev[keys[i]]
		if p == nil {
			continue
		}
		for _, v := range p.Variants {
			if v.Search != search {
				out = append(out, fmt.Sprintf("%s:%d %s (%q search)", op.File, op.Line, methodName(op), v.Search))
				break
			}
		}
	}
	return out
}

// addAudit is -add: see the comment at the top of this file.
func addAudit(ops []orderings.Op, pkgList []string, funcRe *regexp.Regexp, add, out string, limit time.Duration) {
	start := time.Now()
	addRe := regexp.MustCompile(add)
	prevList := readEntries(out)
	prev := map[string]*Entry{}
	for i, k := range codeKeys(prevList) {
		prev[k] = &prevList[i]
	}
	keys := codeKeys(opEntries(ops))
	search := ""
	if reduce {
		search = "reduced"
	}
	// Each package's operations (and their keys), checked before anything
	// runs.
	type pkgOps struct {
		ops  []orderings.Op
		keys []string
	}
	byPkg := map[string]*pkgOps{}
	var mixed []string
	for _, pkg := range pkgList {
		if _, ok := scenarios[pkg]; !ok || len(scenarioset.Reaching(pkg)) == 0 {
			check(fmt.Errorf("no weak-mode scenarios are listed for impl/%s", pkg))
		}
		p := &pkgOps{}
		for i, op := range ops {
			if strings.HasPrefix(op.File, "impl/"+pkg+"/") && (funcRe == nil || funcRe.MatchString(op.Func)) {
				p.ops = append(p.ops, op)
				p.keys = append(p.keys, keys[i])
			}
		}
		byPkg[pkg] = p
		mixed = append(mixed, mixedSearch(p.ops, p.keys, prev, search)...)
	}
	if len(mixed) > 0 {
		flag := "without -reduce"
		if reduce {
			flag = "with -reduce"
		}
		check(fmt.Errorf("-add %s would merge with results of the other search; run it with the search of the earlier results, or audit these again whole:\n\t%s", flag, strings.Join(mixed, "\n\t")))
	}
	var entries []Entry
	var changes []change
	reached, tried := 0, 0
	for _, pkg := range pkgList {
		p := byPkg[pkg]
		_, reaching := coverageByScenario([]string{listFor(pkg), add}, scenarioset.Reaching(pkg))
		if len(reaching) == 0 {
			fmt.Printf("impl/%s: no scenario of its list (%s) that %s selects reaches impl/\n", pkg, listFor(pkg), addRe)
			continue
		}
		n := 0
		changes = append(changes, addOps(p.ops, p.keys, prev, reaching, func(op orderings.Op, name, run string, pkgs []string) Variant {
			v := try(op, name, run, pkgs, limit)
			tried++
			fmt.Printf("%s:%d %s -> %s: %s %s %d (%s)\n", op.File, op.Line, methodName(op), v.Name, v.Result, v.Scenario, v.Schedule, run)
			return v
		}, func(e Entry) {
			n++
			entries = append(entries, e)
			// Saved as they come: a stopped run keeps what it found.
			save(out, entries, false)
		})...)
		fmt.Printf("impl/%s: the added scenarios reach %d of its %d operations\n", pkg, n, len(p.ops))
		reached += n
	}
	variants := 0
	for _, e := range entries {
		variants += len(e.Variants)
	}
	// Every variant of a merged entry was tried now or kept killed.
	fmt.Printf("-add %s: %d operations reached, %d weakenings tried, %d kept killed, %s\n", add, reached, tried, variants-tried, time.Since(start).Round(time.Second))
	if len(changes) == 0 {
		fmt.Println("no verdict changed")
		return
	}
	fmt.Printf("verdicts changed (%d):\n", len(changes))
	for _, c := range changes {
		fmt.Println("\t" + c.String())
	}
}
