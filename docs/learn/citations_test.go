package learn

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wsched/wsched/internal/mutant"
)

// A file:line citation in the prose names a line by its number, and a
// number says nothing about what was meant: when code is added above the
// line, the citation points at other code, and TestProseMatchesTheTree,
// which asks only that the line be code, passes. docs/citations.tsv keeps,
// for each citation, the code it cited when it was written (or last
// checked); TestCitationsCiteTheirCode fails when the line a citation
// names no longer holds that code, and says where the code went.
//
//	go test ./docs/learn -run TestCitationsCiteTheirCode -fix-citations
//
// follows the code: it rewrites each moved citation to the line that now
// holds its code (the nearest one to the old number, where the code is
// there more than once), records new citations with the code they name,
// drops the rows no prose cites, and prints each change to be read. A
// citation whose code is gone from the file it names is left failing: what
// it meant is for a reader to find. A new citation is recorded with the
// code of its line in the file or in a catalog mutant of it (a lesson may
// cite a line of a mutant's trace): the only code there, or else the one
// the prose line quotes (a trace row prints its source line); where a
// trace row quotes none of several versions, or the reference names
// several files with code at the line (join.go: impl/sched's and
// impl/forkjoin's) and the prose quotes none, the check fails and asks
// for the row to be written by hand. A row is checked against its own
// file only.
//
// A reference means one version of its line, but two prose files may
// cite it for two (deque.go:191 is the file's line in one trace and a
// mutant's in another). A row whose reference ends in " in" and a prose
// file ("deque.go:191 in docs/deque.md") is that file's own: its
// citations are checked against it, the others' against the reference's
// row. A citation whose prose line quotes one version of the line, and
// not the one its row records, fails and asks for a row of its file's
// own (-fix-citations records it).

var fixCitations = flag.Bool("fix-citations", false, "rewrite moved file:line citations in the prose to the lines that now hold their code, and record new ones in docs/citations.tsv")

// citationsTable is where the cited code is kept, from the module root.
const citationsTable = "docs/citations.tsv"

// A citation is one file:line reference in a prose file.
type citation struct {
	doc   string   // the prose file, from the module root
	at    int      // its line in doc, from 0
	ref   string   // as written: "runtime.go:251", "impl/queue/ring.go:294"
	name  string   // the file part: "runtime.go", "impl/queue/ring.go"
	line  int      // the line part
	files []string // the source files name resolves to
	inRun bool     // in a lesson's text about a run: the run's output checks it
	text  string   // the prose line it is on
}

func (c citation) where() string { return fmt.Sprintf("%s:%d", c.doc, c.at+1) }

// proseName is a prose file's path from the module root (lessons(t)
// gives the lessons' paths from docs/learn).
func proseName(path string) string {
	if !strings.Contains(path, "/") {
		return filepath.Join("docs/learn", path)
	}
	return fromRoot(path)
}

// fromRoot is a path of the tree from the module root.
func fromRoot(p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
}

// lineOf is line n of src, trimmed; "" when there is no such line.
func lineOf(src string, n int) string {
	ls := strings.Split(src, "\n")
	if n < 1 || n > len(ls) {
		return ""
	}
	return strings.TrimSpace(ls[n-1])
}

// proseCitations lists every file:line reference of the prose files.
func proseCitations(t *testing.T, index map[string][]string) []citation {
	// inRun marks the lessons' lines that follow a run block: what they
	// say about the run is checked against its output.
	inRun := map[string]map[int]bool{}
	for _, path := range lessons(t) {
		l := readLesson(t, path)
		marks := map[int]bool{}
		for k, b := range l.blocks {
			if b.info != "sh run" {
				continue
			}
			end := len(l.lines)
			for _, c := range l.blocks[k+1:] {
				if c.info == "sh run" {
					end = c.start
					break
				}
			}
			for i := b.end + 1; i < end; i++ {
				marks[i] = true
			}
		}
		inRun[proseName(path)] = marks
	}
	var out []citation
	for _, path := range proseFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := proseName(path)
		for i, s := range strings.Split(string(data), "\n") {
			for _, m := range fileLineRE.FindAllStringSubmatch(s, -1) {
				n, _ := strconv.Atoi(m[2])
				out = append(out, citation{doc: name, at: i, ref: m[0], name: m[1], line: n,
					files: resolve(m[1], index), inRun: inRun[name][i], text: s})
			}
		}
	}
	return out
}

// A citedCode is a row of docs/citations.tsv: a reference as the prose
// writes it, the prose file the row is for ("" for every file without a
// row of its own), the file the reference resolves to, and the code of
// its line.
type citedCode struct{ ref, doc, file, code string }

// inDoc separates a row's reference from the prose file it is for.
const inDoc = " in "

// key is the row's first column: its reference, and its prose file if it
// has one.
func (r citedCode) key() string {
	if r.doc == "" {
		return r.ref
	}
	return r.ref + inDoc + r.doc
}

// rowFor is the row a citation is checked against: its prose file's own,
// else its reference's.
func rowFor(rows map[string]citedCode, c citation) (citedCode, bool) {
	if r, ok := rows[c.ref+inDoc+c.doc]; ok {
		return r, true
	}
	r, ok := rows[c.ref]
	return r, ok
}

func readCitations(t *testing.T) map[string]citedCode {
	f, err := os.Open(filepath.Join(root, citationsTable))
	if os.IsNotExist(err) {
		return map[string]citedCode{}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]citedCode{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		p := strings.SplitN(s, "\t", 3)
		if len(p) != 3 {
			t.Fatalf("%s:%d: want reference, file and code, tab-separated: %q", citationsTable, n, s)
		}
		ref, doc, _ := strings.Cut(p[0], inDoc)
		rows[p[0]] = citedCode{ref, doc, p[1], p[2]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

const citationsHeader = `# The code each file:line citation of the prose (docs/*.md, docs/learn/*.md, README.md) names:
# reference as written, the file it resolves to, the code of that line (trimmed), tab-separated.
# docs/learn's TestCitationsCiteTheirCode fails when a cited line no longer holds its code;
# go test ./docs/learn -run TestCitationsCiteTheirCode -fix-citations follows moved code and records new citations.
`

func writeCitations(t *testing.T, rows map[string]citedCode) {
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(citationsHeader)
	for _, k := range keys {
		r := rows[k]
		fmt.Fprintf(&b, "%s\t%s\t%s\n", r.key(), r.file, r.code)
	}
	if err := os.WriteFile(filepath.Join(root, citationsTable), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codeAt says whether line n of one of files (or of a catalog mutant of
// it) is code, the code recorded for it.
func codeAt(t *testing.T, files []string, n int, code string, cat []*mutant.Mutant) bool {
	for _, f := range files {
		for _, src := range versions(t, f, cat) {
			if lineOf(src, n) == code {
				return true
			}
		}
	}
	return false
}

// A lineVersion is the code of a cited line in one version of one file the
// reference resolves to.
type lineVersion struct{ file, code string }

// lineCandidates is the code of line n in each version of files (each
// file, then its catalog mutants; a lesson may cite a line of a mutant's
// trace), each distinct once, comments and blank lines left out.
func lineCandidates(t *testing.T, files []string, n int, cat []*mutant.Mutant) []lineVersion {
	var out []lineVersion
	for _, f := range files {
		for _, src := range versions(t, f, cat) {
			v := lineVersion{f, lineOf(src, n)}
			if v.code != "" && !strings.HasPrefix(v.code, "//") && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// pickCode is the version of its line a new citation names, of the
// candidates (lineCandidates, the first file's own line first): the one
// the prose line quotes (a trace row prints its source line after the
// reference), its code without the trailing comment; else the first. sure
// is false when nothing says which: the prose quotes several; or quotes
// none, and the candidates are of two files (a reference such as join.go
// names impl/sched's and impl/forkjoin's) or it is a trace row
// (traceRowRE), which may be a mutant's run.
func pickCode(cands []lineVersion, prose string) (v lineVersion, sure bool) {
	if len(cands) == 0 {
		return lineVersion{}, true
	}
	quoted := quotedVersions(cands, prose)
	switch {
	case len(quoted) == 1:
		return quoted[0], true
	case len(quoted) > 1:
		return lineVersion{}, false
	}
	files := 0
	for k, c := range cands {
		if k == 0 || c.file != cands[k-1].file {
			files++
		}
	}
	if files > 1 || len(cands) > 1 && traceRowRE.MatchString(prose) {
		return lineVersion{}, false
	}
	return cands[0], true
}

// quotedVersions are the candidates whose code the prose line quotes
// (without the code's trailing comment), each code once.
func quotedVersions(cands []lineVersion, prose string) []lineVersion {
	var quoted []lineVersion
	for _, c := range cands {
		q := c.code
		if i := strings.Index(q, " //"); i >= 0 {
			q = strings.TrimSpace(q[:i])
		}
		if len(q) >= 8 && strings.Contains(prose, q) && !slices.ContainsFunc(quoted, func(o lineVersion) bool { return o.code == c.code }) { // shorter ("}", "return") tells nothing
			quoted = append(quoted, c)
		}
	}
	return quoted
}

// quotesOther is the version of its line a citation's prose quotes when
// that is not the code of the row it is checked against: the prose means
// another version (a mutant's trace row, where the row is of the file's
// line), and its file needs a row of its own.
func quotesOther(r citedCode, cands []lineVersion, prose string) (lineVersion, bool) {
	q := quotedVersions(cands, prose)
	if len(q) != 1 || q[0].code == r.code || fromRoot(q[0].file) != r.file {
		return lineVersion{}, false
	}
	return q[0], true
}

// traceRowRE is a row of a failing schedule's trace as the prose copies
// it: a step number, the goroutine, the reference, ..., " | " and the
// source line.
var traceRowRE = regexp.MustCompile(`^\s*\d+\s+\S.*\.go:\d+.* \| `)

// movedTo is the line of files nearest to n that holds code, and the file
// it is in (0 when no line does): the file itself first, then its catalog
// mutants.
func movedTo(t *testing.T, files []string, n int, code string, cat []*mutant.Mutant) (int, string) {
	best, in := 0, ""
	for _, f := range files {
		for _, src := range versions(t, f, cat) {
			for i, s := range strings.Split(src, "\n") {
				if strings.TrimSpace(s) != code {
					continue
				}
				if d := abs(i + 1 - n); best == 0 || d < abs(best-n) {
					best, in = i+1, f
				}
			}
			if best != 0 {
				return best, in
			}
		}
	}
	return best, in
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestCitationsCiteTheirCode checks each file:line citation of the prose
// against the code docs/citations.tsv recorded for it.
func TestCitationsCiteTheirCode(t *testing.T) {
	index := sourceIndex(t)
	cat, err := mutant.Catalog(filepath.Join(root, "mutants"))
	if err != nil {
		t.Fatal(err)
	}
	rows := readCitations(t)
	cited := map[string]bool{}   // row keys
	moved := map[string]string{} // row key -> the reference that follows its code
	checked := 0
	for _, c := range proseCitations(t, index) {
		if c.inRun || len(c.files) == 0 {
			continue // TestLessons and TestProseMatchesTheTree check these
		}
		r, ok := rowFor(rows, c)
		if !ok {
			cands := lineCandidates(t, c.files, c.line, cat)
			v, sure := pickCode(cands, c.text)
			if !sure {
				var vs []string
				for _, v := range cands {
					vs = append(vs, fromRoot(v.file)+": `"+v.code+"`")
				}
				t.Errorf("%s: %s is not in %s, and the prose line does not say which file or version of the line it means (%s): write its row by hand (reference, file, code)",
					c.where(), c.ref, citationsTable, strings.Join(vs, ", "))
				continue
			}
			if *fixCitations && v.code != "" {
				rows[c.ref] = citedCode{c.ref, "", fromRoot(v.file), v.code}
				cited[c.ref] = true
				t.Logf("%s: %s recorded: %s, `%s`", c.where(), c.ref, fromRoot(v.file), v.code)
				continue
			}
			t.Errorf("%s: %s is not in %s: read that it names the code meant (`%s`), then record it with -fix-citations", c.where(), c.ref, citationsTable, v.code)
			continue
		}
		if v, other := quotesOther(r, lineCandidates(t, c.files, c.line, cat), c.text); other {
			own := citedCode{c.ref, c.doc, r.file, v.code}
			if *fixCitations {
				rows[own.key()] = own // a new row of the file's own, or its own row's code as the prose now quotes it
				cited[own.key()] = true
				t.Logf("%s: %s recorded for %s alone: `%s` (%s has `%s`)", c.where(), own.key(), c.doc, v.code, r.key(), r.code)
				continue
			}
			t.Errorf("%s: %s quotes `%s`, another version of the line than the `%s` its row %q records: give %s a row of its own that records it (%q; -fix-citations does)",
				c.where(), c.ref, v.code, r.code, r.key(), c.doc, own.key())
			continue
		}
		cited[r.key()] = true
		checked++
		// The row's file, of those the reference resolves to, is the one
		// it cites.
		files := []string{filepath.Join(root, r.file)}
		if !slices.Contains(c.files, files[0]) {
			t.Errorf("%s: %s resolves to %v, not to %s, the file its row in %s names", c.where(), c.ref, c.files, r.file, citationsTable)
			continue
		}
		if codeAt(t, files, c.line, r.code, cat) {
			continue
		}
		n, f := movedTo(t, files, c.line, r.code, cat)
		if n == 0 {
			t.Errorf("%s: %s cited `%s`, which is no longer in %s: find the code the sentence means and cite its line", c.where(), c.ref, r.code, r.file)
			continue
		}
		to := c.name + ":" + strconv.Itoa(n)
		if *fixCitations {
			moved[r.key()] = to
			continue
		}
		t.Errorf("%s: %s cites `%s`, now at %s:%d (line %d is `%s`): rerun with -fix-citations to follow it",
			c.where(), c.ref, r.code, fromRoot(f), n, c.line, lineOf(versions(t, files[0], nil)[0], c.line))
	}
	if *fixCitations {
		for _, r := range fixMoved(t, moved, rows) {
			cited[r.key()] = true // every moved row was cited
		}
	}
	for k := range rows {
		if !cited[k] {
			if *fixCitations {
				delete(rows, k)
				t.Logf("%s: %s dropped: no prose cites it", citationsTable, k)
				continue
			}
			t.Errorf("%s: %s: no prose cites it; -fix-citations drops the row", citationsTable, k)
		}
	}
	if *fixCitations {
		writeCitations(t, rows)
	}
	if checked == 0 && !*fixCitations {
		t.Fatal("no citation checked against its recorded code: the prose patterns or the table no longer match")
	}
	t.Logf("%d citations checked against the code %s records", checked, citationsTable)
}

// fixMoved rewrites each moved reference in the prose to where its code is
// now, all of a file's in one pass (a reference moved onto another's old
// number is not moved twice), and rekeys its row; it returns the rows
// moved, rekeyed. A row of one prose file's own moves that
// file's citations; a reference's row, the others'.
func fixMoved(t *testing.T, moved map[string]string, rows map[string]citedCode) []citedCode {
	if len(moved) == 0 {
		return nil
	}
	for _, path := range proseFiles(t) {
		refs := movedIn(proseName(path), moved, rows)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if out := rewriteRefs(string(data), refs); out != string(data) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	old := map[string]citedCode{}
	for k := range moved {
		old[k] = rows[k]
		delete(rows, k)
	}
	var out []citedCode
	for k, to := range moved {
		r := old[k]
		n := citedCode{to, r.doc, r.file, r.code}
		rows[n.key()] = n
		out = append(out, n)
		t.Logf("%s -> %s: `%s`", k, n.key(), r.code)
	}
	return out
}

// movedIn is the moves that apply to one prose file (reference -> where
// its code went): its own rows', and the reference rows' where it has no
// row of its own.
func movedIn(doc string, moved map[string]string, rows map[string]citedCode) map[string]string {
	refs := map[string]string{}
	for k, to := range moved {
		r := rows[k]
		if _, own := rows[r.ref+inDoc+doc]; r.doc == doc || r.doc == "" && !own {
			refs[r.ref] = to
		}
	}
	return refs
}

// rewriteRefs replaces each reference of text that moved, in one pass.
func rewriteRefs(text string, moved map[string]string) string {
	return fileLineRE.ReplaceAllStringFunc(text, func(ref string) string {
		if to, ok := moved[ref]; ok {
			return to
		}
		return ref
	})
}

// The check's decisions on a file of its own: a citation whose line still
// holds its code passes; one whose code moved is sent to the nearest line
// that holds it now; one whose code is gone has nowhere to go; moves are
// rewritten in one pass, so a reference moved onto another's old number
// is not moved again.
func TestCitationFollowsMovedCode(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.go")
	write := func(s string) {
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package x\n\nfunc a() { b() }\nfunc c() { b() }\n")
	files := []string{f}
	if !codeAt(t, files, 3, "func a() { b() }", nil) {
		t.Fatal("line 3 holds its code, but the check says it does not")
	}
	write("package x\n\n// a comment added above\nfunc a() { b() }\nfunc c() { b() }\n")
	if codeAt(t, files, 3, "func a() { b() }", nil) {
		t.Fatal("line 3 is a comment now, but the check passes it")
	}
	if n, _ := movedTo(t, files, 3, "func a() { b() }", nil); n != 4 {
		t.Errorf("the code moved to line 4; the check sends the citation to %d", n)
	}
	write("package x\n\nfunc a() { b() }\n\nfunc a() { b() }\n")
	if n, _ := movedTo(t, files, 4, "func a() { b() }", nil); n != 3 {
		t.Errorf("from line 4, the nearest copy is at 3; the check says %d", n)
	}
	if n, _ := movedTo(t, files, 4, "func gone() {}", nil); n != 0 {
		t.Errorf("the code is gone; the check found it at %d", n)
	}
	// A new citation's code: the version of the line the prose quotes.
	own, mut := lineVersion{"ring.go", "tlatrace.Lock()"}, lineVersion{"ring.go", "if r.head.CompareAndSwap(h, x) { // claims"}
	lines := []lineVersion{own, mut}
	if v, sure := pickCode(lines, "   47  thief A  ring.go:393  | if r.head.CompareAndSwap(h, x) {"); !sure || v != mut {
		t.Errorf("the trace row quotes the mutant's line; the check picks %v (sure %v)", v, sure)
	}
	if _, sure := pickCode(lines, "   47  thief A  ring.go:393  | r.head.Store(x)"); sure {
		t.Error("a trace row quotes neither version of the line; the check records one")
	}
	if v, sure := pickCode(lines, "the lock (ring.go:393) orders the record"); !sure || v != own {
		t.Errorf("prose, not a trace row, quoting neither: the file's own line; the check picks %v (sure %v)", v, sure)
	}
	two := []lineVersion{{"forkjoin/join.go", "}"}, {"sched/join.go", "switch sync.Select3(done, t.rt.terminated, ctx.Done()) {"}}
	if _, sure := pickCode(two, "JoinHandle.Wait (join.go:83)"); sure {
		t.Error("the reference names two files with code at the line, the prose quotes neither; the check records one")
	}
	if v, sure := pickCode(two, "join.go:83: switch sync.Select3(done, t.rt.terminated, ctx.Done()) {"); !sure || v != two[1] {
		t.Errorf("the prose quotes the second file's line; the check picks %v (sure %v)", v, sure)
	}
	// A row of one prose file's own: that file's citations are checked
	// against it, and moved by it; the reference's row serves the rest.
	rows := map[string]citedCode{}
	for _, r := range []citedCode{{"ring.go:393", "", "impl/queue/ring.go", own.code}, {"ring.go:393", "docs/queue.md", "impl/queue/ring.go", mut.code}} {
		rows[r.key()] = r
	}
	if r, _ := rowFor(rows, citation{ref: "ring.go:393", doc: "docs/queue.md"}); r.code != mut.code {
		t.Errorf("docs/queue.md has a row of its own; its citation is checked against %q", r.code)
	}
	if r, _ := rowFor(rows, citation{ref: "ring.go:393", doc: "docs/learn/05-ring-steal.md"}); r.code != own.code {
		t.Errorf("the lesson has no row of its own; its citation is checked against %q", r.code)
	}
	if m := movedIn("docs/queue.md", map[string]string{"ring.go:393": "ring.go:394"}, rows); len(m) != 0 {
		t.Errorf("the reference's row moved, not docs/queue.md's own; the check moves its citation: %v", m)
	}
	if m := movedIn("docs/learn/05-ring-steal.md", map[string]string{"ring.go:393": "ring.go:394"}, rows); m["ring.go:393"] != "ring.go:394" {
		t.Errorf("the reference's row moved; the lesson's citation is not moved with it: %v", m)
	}
	if m := movedIn("docs/learn/05-ring-steal.md", map[string]string{"ring.go:393 in docs/queue.md": "ring.go:390"}, rows); len(m) != 0 {
		t.Errorf("docs/queue.md's own row moved; the check moves the lesson's citation: %v", m)
	}
	// A citation quoting another version than its row's needs a row of its
	// own; one quoting its row's, or none, does not.
	withFile := []lineVersion{{filepath.Join(root, "impl/queue/ring.go"), own.code}, {filepath.Join(root, "impl/queue/ring.go"), mut.code}}
	if v, other := quotesOther(rows["ring.go:393"], withFile, "   47  thief A  ring.go:393  | if r.head.CompareAndSwap(h, x) {"); !other || v.code != mut.code {
		t.Errorf("the trace row quotes the mutant's line, the row records the file's; the check says %v (other %v)", v, other)
	}
	if _, other := quotesOther(rows["ring.go:393"], withFile, "the lock (ring.go:393) orders the record"); other {
		t.Error("the prose quotes no version; the check asks for a row of its own")
	}
	if _, other := quotesOther(rows["ring.go:393 in docs/queue.md"], withFile, "   47  thief A  ring.go:393  | if r.head.CompareAndSwap(h, x) {"); other {
		t.Error("the prose quotes its own row's version; the check asks for another row")
	}
	got := rewriteRefs("x.go:3 and x.go:4, not xx.go:3", map[string]string{"x.go:3": "x.go:4", "x.go:4": "x.go:5"})
	if want := "x.go:4 and x.go:5, not xx.go:3"; got != want {
		t.Errorf("rewrite: %q, want %q", got, want)
	}
}
