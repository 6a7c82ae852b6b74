// Command orderings writes docs/orderings.md: every atomic operation and
// fence of impl/, with the C11 ordering its method names, what its comment
// says it publishes or observes, and the catalog mutants that change it.
//
//	go run ./cmd/orderings          # rewrite docs/orderings.md
//	go run ./cmd/orderings -check   # exit 1 if it is not current
//
// The table is read from the code, so it cannot drift from it: the
// ordering is the method's name (explore/atomic), the comment is the
// one on the operation's line or the block just above its statement.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wsched/wsched/internal/orderings"
)

const out = "docs/orderings.md"

func main() {
	check := flag.Bool("check", false, "report whether "+out+" is current instead of writing it")
	flag.Parse()
	ops, err := orderings.Collect(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderings:", err)
		os.Exit(2)
	}
	audit, err := LoadAudit(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderings:", err)
		os.Exit(2)
	}
	seeds, err := LoadSeeds(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderings:", err)
		os.Exit(2)
	}
	if _, stale := seedCells(ops, seeds); len(stale) > 0 {
		for _, r := range stale {
			fmt.Fprintf(os.Stderr, "orderings: %s:%d: no operation %s in %s of %s: %s\n", SeedsFile, r.line, r.code, r.fn, r.file, staleHelp(ops, r))
		}
		os.Exit(2)
	}
	doc := Render(ops, audit, seeds)
	if *check {
		cur, err := os.ReadFile(out)
		if err != nil || !bytes.Equal(cur, doc) {
			fmt.Fprintf(os.Stderr, "orderings: %s is not current: run go run ./cmd/orderings\n", out)
			os.Exit(1)
		}
		fmt.Printf("%s is current (%d operations)\n", out, len(ops))
		return
	}
	if err := os.WriteFile(out, doc, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "orderings:", err)
		os.Exit(2)
	}
	fmt.Printf("wrote %s (%d operations)\n", out, len(ops))
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Render writes the page.
// AuditFile holds cmd/orderaudit's results, which Render folds in.
const AuditFile = "docs/orderings-audit.json"

// auditEntry is one operation's audit as cmd/orderaudit writes it.
type auditEntry struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Code     string `json:"code"`
	Method   string `json:"method"`
	Reached  bool   `json:"reached"`
	Untried  bool   `json:"untried"`
	Variants []struct {
		Name        string `json:"name"`
		Result      string `json:"result"`
		Scenario    string `json:"scenario"`
		Schedule    int    `json:"schedule"`
		Preemptions int    `json:"preemptions"`
		Kind        string `json:"kind"`
		Search      string `json:"search"`
	} `json:"variants"`
}

// LoadAudit reads the audit results under root, keyed by file and code (an
// operation whose code changed since has no entry: it is not audited).
func LoadAudit(root string) (map[string]*auditEntry, error) {
	b, err := os.ReadFile(filepath.Join(root, AuditFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var es []*auditEntry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("%s: %v", AuditFile, err)
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].File != es[j].File {
			return es[i].File < es[j].File
		}
		return es[i].Line < es[j].Line
	})
	m := map[string]*auditEntry{}
	seen := map[string]int{}
	for _, e := range es {
		k := e.File + "\x00" + e.Code
		m[fmt.Sprintf("%s\x00%d", k, seen[k])] = e
		seen[k]++
	}
	return m, nil
}

// auditKeys returns the key of each operation in the audit's map: its file,
// its code, and which occurrence of that code in the file it is (the same
// call can appear twice in a file), so that an entry follows its
// operation when lines move, and is dropped when the code changes.
func auditKeys(ops []orderings.Op) []string {
	keys := make([]string, len(ops))
	seen := map[string]int{}
	for i, o := range ops {
		k := o.File + "\x00" + o.Code
		keys[i] = fmt.Sprintf("%s\x00%d", k, seen[k])
		seen[k]++
	}
	return keys
}

// auditCell says what the audit found for o, or why it could not run.
func auditCell(o orderings.Op, e *auditEntry) (text, class string) {
	if e == nil && o.NoExplore {
		return "no explore build compiles it (its build constraint): no weak-mode scenario can run it", "noexplore"
	}
	if e == nil {
		return "not audited", "unaudited"
	}
	if !e.Reached {
		return "no weak-mode scenario reaches it", "unreached"
	}
	if e.Untried {
		return "a weak-mode scenario reaches it; its weakenings not tried yet", "unaudited"
	}
	if len(e.Variants) == 0 {
		return "relaxed: nothing weaker to try", "weakest"
	}
	var parts []string
	class = "needed"
	for _, v := range e.Variants {
		name := "`" + v.Name + "`"
		if v.Name == "(removed)" {
			name = "removed"
		}
		switch v.Result {
		case "killed":
			search := ""
			if v.Search != "" {
				search = " (" + v.Search + " search)"
			}
			parts = append(parts, fmt.Sprintf("%s killed: %s, schedule %d%s, %d preemption(s), %s", name, v.Scenario, v.Schedule, search, v.Preemptions, v.Kind))
		case "survived":
			parts = append(parts, name+" survives")
			class = "stronger"
		default:
			parts = append(parts, name+" "+v.Result)
			if class == "needed" {
				class = "undecided"
			}
		}
	}
	return strings.Join(parts, "; "), class
}

func Render(ops []orderings.Op, audit map[string]*auditEntry, seeds []seedRow) []byte {
	var b bytes.Buffer
	b.WriteString(`# The orderings of impl/

Generated by ` + "`go run ./cmd/orderings`" + ` from the code; do not edit by hand (` + "`go run ./cmd/orderings -check`" + `
says whether it is current; ` + "`TestOrderingsDocIsCurrent`" + ` fails when it is not).

Every atomic operation of impl/ names the C11 ordering it needs in its method's name
(` + "`LoadAcquire`, `StoreRelease`, `CompareAndSwapAcqRelRelaxed`: success, then failure" + `), and
the fences of the design are operations too (` + "`FenceSeqCst`" + `): explore/atomic, ordering.go. In
Go all of them are sequentially consistent and compile to what ` + "`sync/atomic`" + ` does; the name is
the claim a port to C, C++, Rust or Zig would rely on. The ` + "`Stat`" + ` types (no scheduling point of
the explorer) have ordered operations too, listed here, for the values code decides by (a
worker's state, its tick count, the goroutine numbers...); their bare ` + "`Load`" + `, ` + "`Add`" + `... are for
counters and snapshots nothing decides by, and are not listed (` + "`TestNoDecisionByAStat`" + ` fails on
a bare read that feeds a branch).

The columns: where the operation is (its function and its code: a row has no line number, so
a change elsewhere in a file leaves the page current), the ordering its name claims, the ordering the seeds name
for its counterpart where they name one (` + "`docs/orderings-seeds.tsv`" + `, by hand; the seeds' Zig writes
` + "`.monotonic`" + ` for relaxed), what its comment says it publishes or observes, and the catalog mutants whose change covers it (` + "`mutants/`" + `). Most
mutants move, remove or replace the operation under sequential consistency; the ordering mutants
(the weak layer: ` + "`deque-take-no-fence`, `ring-tail-relaxed`" + `, ...) weaken its ordering, and
the explorer's weak-memory mode, which runs the code with each ordering as named, kills them
(docs/explore.md, "The weak-memory mode"). The last column is the audit (` + "`go run ./cmd/orderaudit`" + `,
results in ` + "`docs/orderings-audit.json`" + `): each one-step weakening of the operation (SeqCst to
AcqRel or Acquire or Release, those to Relaxed, a fence removed), run in the weak-memory mode
against the scenarios that reach it. Killed: the ordering is needed, and the scenario and schedule
show why. Survives: the ordering is stronger than the scenarios need within their bounds (two
preemptions, two stale reads, the budgets), which is evidence, not proof, that it can be weakened.
"not audited": the audit has not run on that package yet (it ran on the packages in the summary).
"no explore build compiles it": the file's build constraint leaves it out of every explore build
(the global queue's lock of race builds, impl/queue/globallock_race.go; a TLA+ trace's peek), so
neither the explorer nor the audit can run it; its orderings are argued in its comments.

`)
	counts := map[string]int{}
	for _, o := range ops {
		counts[o.Ordering]++
	}
	fmt.Fprintf(&b, "%d operations: ", len(ops))
	for i, o := range []string{"Relaxed", "Acquire", "Release", "AcqRel", "SeqCst"} {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", counts[o], o)
	}
	b.WriteString(" (a compare-and-swap counted by its success ordering).\n")
	keys := auditKeys(ops)
	classes := map[string]int{}
	for i := range ops {
		_, c := auditCell(ops[i], audit[keys[i]])
		classes[c]++
	}
	dirs := map[string]bool{}
	for _, e := range audit {
		dirs[filepath.ToSlash(filepath.Dir(e.File))] = true
	}
	var audited []string
	for d := range dirs {
		audited = append(audited, d)
	}
	sort.Strings(audited)
	if len(audited) == 0 {
		audited = []string{"none yet"}
	}
	fmt.Fprintf(&b, "\nAudit (packages audited: %s): %d needed (every one-step weakening killed), %d stronger than needed within the bounds (one survives), %d undecided (a run timed out), %d relaxed (nothing weaker), %d not reached by a weak-mode scenario, %d in no explore build, %d not audited.\n",
		strings.Join(audited, ", "), classes["needed"], classes["stronger"], classes["undecided"], classes["weakest"], classes["unreached"], classes["noexplore"], classes["unaudited"])
	seedCol, _ := seedCells(ops, seeds)
	file := ""
	// A row is keyed by its function and operation, not its line: a
	// change elsewhere in the file leaves the page as it is. The same
	// operation twice in one function is told apart by its occurrence.
	seen := map[string]int{}
	for i, o := range ops {
		if o.File != file {
			file = o.File
			fmt.Fprintf(&b, "\n## %s\n\n| function | operation | ordering | seeds | publishes / observes | mutants | audit: one step weaker |\n| --- | --- | --- | --- | --- | --- | --- |\n", strings.TrimPrefix(file, "impl/"))
		}
		k := o.File + "\x00" + o.Func + "\x00" + o.Code
		seen[k]++
		nth := ""
		if seen[k] > 1 {
			nth = fmt.Sprintf(" (occurrence %d)", seen[k])
		}
		ord := o.Ordering
		if o.Failure != "" {
			ord += ", " + o.Failure + " on failure"
		}
		muts := "none"
		if len(o.Mutants) > 0 {
			muts = "`" + strings.Join(o.Mutants, "`, `") + "`"
		}
		at, _ := auditCell(o, audit[keys[i]])
		seed := seedCol[i]
		if seed == "" {
			seed = "-"
		}
		fmt.Fprintf(&b, "| `%s` | `%s`%s | %s | %s | %s | %s | %s |\n", o.Func, cell(o.Code), nth, ord, cell(seed), cell(o.Comment), muts, cell(at))
	}
	return b.Bytes()
}
