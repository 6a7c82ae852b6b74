// Command orderings writes docs/orderings.md: every atomic operation and
// fence of impl/, with the C11 ordering its method names, what its comment
// says it publishes or observes, and the catalog mutants that change it.
//
//	go run ./cmd/orderings          # rewrite docs/orderings.md
//	go run ./cmd/orderings -check   # exit 1 if it is not current
//
// The table is read from the code, so it cannot drift from it: the
// ordering is the method's name (impl/internal/atomic), the comment is the
// one on the operation's line or the block just above its statement.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/wsched/wsched/internal/mutant"
)

const out = "docs/orderings.md"

// opName splits an ordered operation's name: the operation, then the
// ordering (and, for a compare-and-swap, the failure ordering).
var opName = regexp.MustCompile(`^(Load|Store|Swap|Add|And|Or|CompareAndSwap|Fence)(Relaxed|Acquire|Release|AcqRel|SeqCst)(Relaxed|Acquire|SeqCst)?$`)

// Op is one ordered operation in impl/.
type Op struct {
	File, Func, Code, Comment string
	Line                      int
	Op, Ordering, Failure     string
	Mutants                   []string
	offset                    int
}

func main() {
	check := flag.Bool("check", false, "report whether "+out+" is current instead of writing it")
	flag.Parse()
	ops, err := Collect(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderings:", err)
		os.Exit(2)
	}
	doc := Render(ops)
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

// Collect reads impl/ under root (tests and impl/internal/atomic aside) and
// the mutant catalog.
func Collect(root string) ([]Op, error) {
	catalog, err := mutant.Catalog(filepath.Join(root, "mutants"))
	if err != nil {
		return nil, err
	}
	var ops []Op
	err = filepath.WalkDir(filepath.Join(root, "impl"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, filepath.Join("internal", "atomic")) {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		fops, err := collectFile(rel, src)
		if err != nil {
			return err
		}
		for i := range fops {
			for _, m := range catalog {
				if m.File != rel || m.Scope == "spec" {
					continue
				}
				at := bytes.Index(src, []byte(m.Original))
				if at >= 0 && fops[i].offset >= at && fops[i].offset < at+len(m.Original) {
					fops[i].Mutants = append(fops[i].Mutants, m.ID)
				}
			}
		}
		ops = append(ops, fops...)
		return nil
	})
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].File != ops[j].File {
			return ops[i].File < ops[j].File
		}
		return ops[i].Line < ops[j].Line
	})
	return ops, err
}

func collectFile(name string, src []byte) ([]Op, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(src), "\n")
	var ops []Op
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		fname := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) > 0 {
			fname = recvName(fn.Recv.List[0].Type) + "." + fname
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			s, ok := c.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			m := opName.FindStringSubmatch(s.Sel.Name)
			if m == nil || m[1] == "CompareAndSwap" && m[3] == "" || m[1] != "CompareAndSwap" && m[3] != "" {
				return true
			}
			pos := fset.Position(c.Pos())
			var code bytes.Buffer
			code.Write(src[pos.Offset:fset.Position(c.End()).Offset])
			comment := commentFor(lines, pos.Line)
			if comment == "" && fn.Doc != nil {
				comment = "(the function's comment) " + shorten(oneLine(fn.Doc.Text()))
			}
			ops = append(ops, Op{
				File: name, Func: fname, Line: pos.Line, Code: oneLine(code.String()),
				Op: m[1], Ordering: m[2], Failure: m[3], offset: pos.Offset,
				Comment: comment,
			})
			return true
		})
	}
	return ops, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// commentFor is the comment on the line, else the comment block that ends
// just above it (skipping nothing: a blank or code line ends the search).
func commentFor(lines []string, line int) string {
	l := lines[line-1]
	if i := strings.Index(l, "//"); i >= 0 && !strings.Contains(l[:i], `"`) {
		return oneLine(l[i+2:])
	}
	var block []string
	for k := line - 2; k >= 0; k-- {
		t := strings.TrimSpace(lines[k])
		if len(block) == 0 && (strings.HasPrefix(t, "atomic.Fence") || t == "chaos.Point()") {
			continue // the comment above a fence, or above a yield point, is the operation's too
		}
		if !strings.HasPrefix(t, "//") {
			break
		}
		block = append([]string{strings.TrimSpace(strings.TrimPrefix(t, "//"))}, block...)
	}
	return shorten(oneLine(strings.Join(block, " ")))
}

// shorten keeps a long comment's first sentences, up to about 300
// characters: the table is an index, the code has the whole argument.
func shorten(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	cut := 0
	for i := 0; i < len(s) && i < max; i++ {
		if s[i] == '.' && (i+1 == len(s) || s[i+1] == ' ') {
			cut = i + 1
		}
	}
	if cut == 0 {
		return s[:max] + " ..."
	}
	return s[:cut] + " ..."
}

var spaces = regexp.MustCompile(`\s+`)

func oneLine(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Render writes the page.
func Render(ops []Op) []byte {
	var b bytes.Buffer
	b.WriteString(`# The orderings of impl/

Generated by ` + "`go run ./cmd/orderings`" + ` from the code; do not edit by hand (` + "`go run ./cmd/orderings -check`" + `
says whether it is current; ` + "`TestOrderingsDocIsCurrent`" + ` fails when it is not).

Every atomic operation of impl/ names the C11 ordering it needs in its method's name
(` + "`LoadAcquire`, `StoreRelease`, `CompareAndSwapAcqRelRelaxed`: success, then failure" + `), and
the fences of the design are operations too (` + "`FenceSeqCst`" + `): impl/internal/atomic, ordering.go. In
Go all of them are sequentially consistent and compile to what ` + "`sync/atomic`" + ` does; the name is
the claim a port to C, C++, Rust or Zig would rely on. The counters and snapshots of the ` + "`Stat`" + `
types are not listed: nothing decides anything by them.

The columns: where the operation is, the ordering its name claims, what its comment says it
publishes or observes, and the catalog mutants whose change covers it (` + "`mutants/`" + `). Most
mutants move, remove or replace the operation under sequential consistency; the ordering mutants
(the weak layer: ` + "`deque-take-no-fence`, `ring-tail-relaxed`" + `, ...) weaken its ordering, and
the explorer's weak-memory mode, which runs the code with each ordering as named, kills them
(docs/explore.md, "The weak-memory mode"). An operation whose ordering no mutant weakens has not
been shown to need it; the audit that weakens every one in turn is not built yet.

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
	file := ""
	for _, o := range ops {
		if o.File != file {
			file = o.File
			fmt.Fprintf(&b, "\n## %s\n\n| line | function | operation | ordering | publishes / observes | mutants |\n| ---: | --- | --- | --- | --- | --- |\n", strings.TrimPrefix(file, "impl/"))
		}
		ord := o.Ordering
		if o.Failure != "" {
			ord += ", " + o.Failure + " on failure"
		}
		muts := "none"
		if len(o.Mutants) > 0 {
			muts = "`" + strings.Join(o.Mutants, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %d | `%s` | `%s` | %s | %s | %s |\n", o.Line, o.Func, cell(o.Code), ord, cell(o.Comment), muts)
	}
	return b.Bytes()
}
