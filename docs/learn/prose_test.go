package learn

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wsched/wsched/internal/mutant"
)

// The prose of the lessons and of docs/*.md, checked: what a lesson says
// about a run (the source lines, steps and schedules it names) against
// what the run printed (checkSection, called by TestLessons), and, without
// running anything, every file:line reference against the tree and the
// counts the text states against what they count
// (TestProseMatchesTheTree).

// fileLineRE is a file:line reference: `deque.go:191`,
// impl/queue/ring.go:231.
var fileLineRE = regexp.MustCompile(`\b((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.go):(\d+)\b`)

var (
	stepGRE       = regexp.MustCompile(`\bstep (\d+) \(([^()]+)\)`)
	codeStepRE    = regexp.MustCompile("`([^`]+)` \\(step (\\d+)\\)")
	stepCodeRE    = regexp.MustCompile("\\(step (\\d+), `([^`]+)`")
	stepRE        = regexp.MustCompile(`\bsteps? (\d+)((?:(?:, | and | or )\d+)*)`)
	foundAnyRE    = regexp.MustCompile(`[Ff]ound at schedule ([0-9][0-9,]*), (\d+) preemptions?`)
	quotedTraceRE = regexp.MustCompile("`((?:reads step|step \\d+'s |changed line |missing synchronises-with|DATA RACE|(?:Load|Store|Swap|CompareAndSwap|Add|And|Or|Fence)[A-Z][A-Za-z]*)[^`]*)`")
	traceLineRE   = regexp.MustCompile(`^\s*(\d+)  (.*)$`)
	placeholder   = regexp.MustCompile(`\b[NMPg]\b|\.\.\.`)
)

// traceOf is the last trace an output prints: step number -> its line
// (without the number), and the goroutines' names.
func traceOf(out string) (map[int]string, []string) {
	lines := strings.Split(out, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "goroutines: ") {
			start = i
		}
	}
	if start < 0 {
		return nil, nil
	}
	var names []string
	for _, p := range strings.Split(strings.TrimPrefix(strings.TrimSpace(lines[start]), "goroutines: "), ", ") {
		if _, n, ok := strings.Cut(p, "="); ok {
			names = append(names, n)
		}
	}
	steps := map[int]string{}
	for _, l := range lines[start+1:] {
		m := traceLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if _, dup := steps[n]; dup {
			break // a second trace (a passing replay's) follows
		}
		steps[n] = m[2]
	}
	return steps, names
}

// squash joins lines and collapses runs of white space, so that a quote
// broken across two lines of a lesson matches.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkSection checks what the text after a run block (up to the next
// run block) says about the run against its output: every file:line it
// names is a line the output names; every step it names is a step of the
// output's trace, of the goroutine it gives and with the operation it
// quotes; every quoted trace fragment is in the output; every "found at
// schedule N, P preemptions" is what the run found.
func checkSection(where string, section []string, out string) (checked int, problems []string) {
	errorf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	text := squash(strings.Join(section, "\n"))
	flat := squash(out)
	steps, names := traceOf(out)
	for _, m := range fileLineRE.FindAllStringSubmatch(text, -1) {
		checked++
		ref := m[1] + ":" + m[2]
		if !regexp.MustCompile(`(^|[ /(])` + regexp.QuoteMeta(ref) + `\b`).MatchString(flat) {
			errorf("%s: the text names %s, a line the run's output does not name", where, ref)
		}
	}
	for _, m := range foundAnyRE.FindAllStringSubmatch(text, -1) {
		checked++
		if !strings.Contains(flat, squash(m[0])) && !strings.Contains(strings.ToLower(flat), strings.ToLower(squash(m[0]))) {
			errorf("%s: the text says %q; the run printed %v", where, m[0], foundAnyRE.FindString(flat))
		}
	}
	for _, m := range quotedTraceRE.FindAllStringSubmatch(text, -1) {
		if placeholder.MatchString(m[1]) {
			continue // a pattern (step N), not a quote
		}
		checked++
		if !strings.Contains(flat, m[1]) {
			errorf("%s: the text quotes `%s`, which the run's output does not print", where, m[1])
		}
	}
	if steps == nil {
		return checked, problems
	}
	step := func(n int, what string) (string, bool) {
		l, ok := steps[n]
		if !ok {
			errorf("%s: the text names step %d (%s); the trace has steps 1 to %d", where, n, what, len(steps))
		}
		return l, ok
	}
	for _, m := range stepRE.FindAllStringSubmatch(text, -1) {
		ns := []string{m[1]}
		ns = append(ns, regexp.MustCompile(`\d+`).FindAllString(m[2], -1)...)
		for _, s := range ns {
			n, _ := strconv.Atoi(s)
			checked++
			step(n, "bare")
		}
	}
	for _, m := range stepGRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if !isName(names, m[2]) {
			continue // "(step 45, ...)": not a goroutine
		}
		checked++
		if l, ok := step(n, m[2]); ok && !strings.HasPrefix(l, m[2]+" ") {
			errorf("%s: the text says step %d is %s's; the trace's step %d: %s", where, n, m[2], n, l)
		}
	}
	quoted := func(n int, code string) {
		checked++
		if l, ok := step(n, code); ok && !strings.Contains(squash(l), code) {
			errorf("%s: the text says step %d is `%s`; the trace's step %d: %s", where, n, code, n, l)
		}
	}
	for _, m := range codeStepRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[2])
		if isOp(m[1]) {
			quoted(n, m[1])
		}
	}
	for _, m := range stepCodeRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if isOp(m[2]) {
			quoted(n, m[2])
		}
	}
	return checked, problems
}

func isName(names []string, s string) bool {
	for _, n := range names {
		if n == s {
			return true
		}
	}
	return false
}

// isOp reports whether a quote is an operation as the trace prints it.
func isOp(s string) bool {
	return regexp.MustCompile(`^(Load|Store|Swap|CompareAndSwap|Add|And|Or|Fence)[A-Z]`).MatchString(s)
}

// section is the text after run block k, up to the next run block.
func (l lesson) section(k int) []string {
	end := len(l.lines)
	for _, b := range l.blocks[k+1:] {
		if b.info == "sh run" {
			end = b.start
			break
		}
	}
	var out []string
	inBlock := false
	for _, s := range l.lines[l.blocks[k].end+1 : end] {
		// Output blocks are the output itself, not prose about it.
		if strings.HasPrefix(s, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			out = append(out, s)
		}
	}
	return out
}

// proseFiles are the files whose numbers and references are checked
// against the tree: the lessons, docs/*.md and the README.
func proseFiles(t *testing.T) []string {
	files := lessons(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, docs...)
	return append(files, filepath.Join(root, "README.md"))
}

// resolve finds the file a reference names: a path from the module root,
// or a base name that one source file of the tree has.
func resolve(name string, index map[string][]string) []string {
	if _, err := os.Stat(filepath.Join(root, name)); err == nil && strings.Contains(name, "/") {
		return []string{filepath.Join(root, name)}
	}
	var out []string
	for _, p := range index[filepath.Base(name)] {
		if strings.HasSuffix(p, "/"+name) {
			out = append(out, p)
		}
	}
	return out
}

// sourceIndex maps each Go file's base name to its paths in the tree.
func sourceIndex(t *testing.T) map[string][]string {
	index := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && p != root {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") {
			index[d.Name()] = append(index[d.Name()], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return index
}

// versions is the text of source file f and of each catalog mutant of
// it: a reference may name a line of a mutant's trace.
func versions(t *testing.T, f string, cat []*mutant.Mutant) []string {
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{string(b)}
	for _, m := range cat {
		if filepath.Join(root, m.File) == f && m.Original != "" && strings.Count(string(b), m.Original) == 1 {
			out = append(out, strings.Replace(string(b), m.Original, m.Replacement, 1))
		}
	}
	return out
}

// countNames counts the test table entries (`name: "..."`) of a file.
func countNames(t *testing.T, rel string) int {
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return len(regexp.MustCompile(`(?m)^\s+name:\s+"`).FindAll(b, -1))
}

// A countClaim is a number the prose states and the tree knows.
type countClaim struct {
	re    *regexp.Regexp // its first group is the number
	what  string
	count func(t *testing.T) int
}

var countClaims = []countClaim{
	{regexp.MustCompile(`litmus_test\.go\x60: (\d+) litmus tests`), "the litmus tests of explore/internal/weak/litmus_test.go",
		func(t *testing.T) int { return countNames(t, "explore/internal/weak/litmus_test.go") }},
	{regexp.MustCompile(`(\d+) more in \x60explore/internal/weak/litmus_genmc_test\.go\x60`), "GenMC's litmus tests",
		func(t *testing.T) int { return countNames(t, "explore/internal/weak/litmus_genmc_test.go") }},
	{regexp.MustCompile(`explore/internal/weak: (\d+) tests`), "the litmus tests of explore/internal/weak",
		func(t *testing.T) int {
			return countNames(t, "explore/internal/weak/litmus_test.go") + countNames(t, "explore/internal/weak/litmus_genmc_test.go")
		}},
	{regexp.MustCompile(`explore/internal/weak: \d+ tests, (\d+) of them GenMC's`), "GenMC's litmus tests",
		func(t *testing.T) int { return countNames(t, "explore/internal/weak/litmus_genmc_test.go") }},
	{regexp.MustCompile(`the catalog's (\d+) mutants`), "the mutants of the catalog",
		func(t *testing.T) int {
			m, _ := filepath.Glob(filepath.Join(root, "mutants", "*.mutant"))
			return len(m)
		}},
}

// TestProseMatchesTheTree checks, without running anything: every
// file:line reference of the lessons, docs/*.md and the README names a
// source file of the tree and a line of code in it (not blank, not a
// comment); every count of countClaims is what it counts; the README's
// example answer is a lesson's answer (which TestLessons checks against
// the run).
func TestProseMatchesTheTree(t *testing.T) {
	index := sourceIndex(t)
	cat, err := mutant.Catalog(filepath.Join(root, "mutants"))
	if err != nil {
		t.Fatal(err)
	}
	refs, counts := 0, 0
	answers := map[string]bool{}
	for _, path := range lessons(t) {
		l := readLesson(t, path)
		for i := range l.lines {
			if s, p, _, ok := l.answer(i); ok {
				answers[fmt.Sprintf("%d,%d", s, p)] = true
			}
		}
	}
	for _, c := range proseCitations(t, index) {
		if len(c.files) == 0 {
			t.Errorf("%s: %s: no such source file in the tree", c.where(), c.ref)
			continue
		}
		if c.inRun {
			continue // the run's output checks it (checkSection)
		}
		refs++
		ok := false
		for _, f := range c.files {
			for _, src := range versions(t, f, cat) {
				if code := lineOf(src, c.line); code != "" && !strings.HasPrefix(code, "//") {
					ok = true
				}
			}
		}
		if !ok {
			t.Errorf("%s: %s is not a line of code of %s, nor of a catalog mutant of it", c.where(), c.ref, strings.Join(c.files, ", "))
		}
	}
	for _, path := range proseFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := proseName(path)
		text := squash(string(data))
		for _, c := range countClaims {
			for _, m := range c.re.FindAllStringSubmatch(text, -1) {
				counts++
				got, _ := strconv.Atoi(m[1])
				if want := c.count(t); got != want {
					t.Errorf("%s: %q: %d, but there are %d (%s)", name, m[0], got, want, c.what)
				}
			}
		}
		if path == "README.md" { // docs/learn's
			for _, m := range foundAnyRE.FindAllStringSubmatch(text, -1) {
				counts++
				s := strings.ReplaceAll(m[1], ",", "")
				if !answers[s+","+m[2]] {
					t.Errorf("%s: %q is no lesson's answer", name, m[0])
				}
			}
		}
	}
	if refs == 0 || counts == 0 {
		t.Fatalf("%d file:line references and %d counts checked: the patterns no longer match the prose", refs, counts)
	}
	t.Logf("%d file:line references, %d counts checked", refs, counts)
}

// checkSection catches each kind of stale prose, and passes what the run
// printed.
func TestCheckSectionCatchesStaleProse(t *testing.T) {
	out := `--- FAIL: TestX
    found at schedule 436, 1 preemptions
        goroutines: 0=main, 1=thief
            1  main    impl/queue/ring.go:162              Store p1
            2  main    impl/queue/ring.go:164              StoreRelaxed 1
               ---- preempted: thief runs ----
            3  thief   impl/queue/ring.go:294              LoadAcquire -> 1                      from 2 (main)
                       missing synchronises-with: step 3's LoadAcquire (thief) read step 2's StoreRelaxed (main): no release
`
	good := []string{"Found at schedule 436, 1 preemption: the thief's load (`ring.go:294`, step 3, `LoadAcquire -> 1`)",
		"read step 2 (main), `StoreRelaxed 1` (step 2): `step 3's LoadAcquire (thief) read step 2's StoreRelaxed (main)`."}
	n, problems := checkSection("good", good, out)
	if len(problems) > 0 || n < 7 {
		t.Fatalf("true prose: %d checked, problems %v", n, problems)
	}
	for _, bad := range []string{
		"Found at schedule 435, 1 preemption",
		"the thief's load (`ring.go:295`)",
		"step 4",
		"step 3 (main)",
		"`LoadRelaxed` (step 3)",
		"(step 2, `StoreRelease 1`",
		"`reads step 1 (main), not the latest`",
	} {
		if _, problems := checkSection("bad", []string{bad}, out); len(problems) == 0 {
			t.Errorf("stale prose not caught: %q", bad)
		}
	}
}

// playEnv is the setting that makes a failure's page playable
// (explore.PlayEnv; this package does not import explore).
const playEnv = "WSCHED_EXPLORE_PLAY"

// levelOf is the level command of a failing exercise command: the same
// command with the play tree on (and without the leading "!" that
// expects the failure).
func levelOf(cmd string) string {
	prefix := ""
	if p, rest, ok := strings.Cut(cmd, "&& "); ok && strings.HasPrefix(p, "cd ") {
		prefix, cmd = p+"&& ", rest
	}
	return prefix + playEnv + "=1 " + strings.TrimPrefix(cmd, "! ")
}

// Each exercise whose command fails a scenario (a catalog mutant, or a
// command the lesson expects to fail) is a level: a "**Level.**"
// paragraph in the same section gives, in a "sh level" block, the
// exercise's command with the
// play tree on, whose failure prints a link to its playable page
// (explore's check.go prints "play: file://PAGE#play"). The command must
// be the exercise's own, so that the level follows it when the exercise
// changes.
func TestProseExercisesAreLevels(t *testing.T) {
	levels := 0
	for _, path := range lessons(t) {
		l := readLesson(t, path)
		section := ""
		// The sections, by their first line.
		var heads []int
		for i, line := range l.lines {
			if strings.HasPrefix(line, "## ") {
				heads = append(heads, i)
			}
		}
		heads = append(heads, len(l.lines))
		for h := 0; h+1 < len(heads); h++ {
			if !strings.HasPrefix(l.lines[heads[h]], "## Exercise") {
				continue
			}
			section = l.lines[heads[h]]
			var failing, level string
			for _, b := range l.blocks {
				if b.start < heads[h] || b.start >= heads[h+1] {
					continue
				}
				cmds := b.commands()
				if len(cmds) != 1 {
					continue
				}
				c := cmds[0]
				switch {
				case b.info == "sh run" && failing == "" && (strings.Contains(c, "go run ./cmd/mutant ") || strings.HasPrefix(c, "! ") || strings.Contains(c, "&& ! ")):
					failing = c
				case b.info == "sh level" && strings.Contains(strings.Join(l.lines[heads[h]:b.start], "\n"), "**Level.**"):
					level = c
				}
			}
			where := fmt.Sprintf("%s, %q", l.name, section)
			switch {
			case failing == "" && level != "":
				t.Errorf("%s: a level with no failing exercise command", where)
			case failing == "":
			case level == "":
				t.Errorf("%s: the exercise fails a scenario (%s) but is no level: add a **Level.** paragraph with\n\t%s", where, failing, levelOf(failing))
			case level != levelOf(failing):
				t.Errorf("%s: the level's command\n\t%s\nis not the exercise's with the play tree on:\n\t%s", where, level, levelOf(failing))
			default:
				levels++
			}
		}
	}
	if levels == 0 {
		t.Fatal("no exercise is a level")
	}
	t.Logf("%d exercises are levels, each with the exercise's own command", levels)
}
