package atomic_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore/atomic"
)

// orderedName is the name of an operation with its orderings (ordering.go).
var orderedName = regexp.MustCompile(`^(?:` +
	`Load(?:Relaxed|Acquire|SeqCst)|` +
	`Store(?:Relaxed|Release|SeqCst)|` +
	`(?:Swap|Add|And|Or)(?:Relaxed|Acquire|Release|AcqRel|SeqCst)|` +
	`CompareAndSwap(?:Relaxed|Acquire|Release|AcqRel|SeqCst)(?:Relaxed|Acquire|SeqCst)|` +
	`Fence(?:Acquire|Release|AcqRel|SeqCst))$`)

// statBare are the Stat types' operations that name no ordering: for
// counters and snapshots nothing decides by (TestNoDecisionByAStat).
var statBare = map[string]bool{"Load": true, "Store": true, "Swap": true, "CompareAndSwap": true, "Add": true}

// TestEveryOperationNamesItsOrdering: the atomic types have no operation
// that does not name its ordering (Peek, the explorer's look that is no
// operation, aside; and the Stat types' bare operations, for counters),
// and every ordering an operation may have exists, so that an audit can
// weaken any call to the next weaker name.
func TestEveryOperationNamesItsOrdering(t *testing.T) {
	types := []any{new(atomic.Int32), new(atomic.Int64), new(atomic.Uint32), new(atomic.Uint64), new(atomic.Bool), new(atomic.Pointer[int]),
		new(atomic.StatInt32), new(atomic.StatInt64), new(atomic.StatUint32), new(atomic.StatUint64), new(atomic.StatBool)}
	want := map[string]int{"Load": 3, "Store": 3, "Swap": 5, "CompareAndSwap": 15, "Add": 5, "And": 5, "Or": 5}
	for _, v := range types {
		typ := reflect.TypeOf(v)
		stat := strings.Contains(typ.String(), ".Stat")
		got := map[string]int{}
		for i := range typ.NumMethod() {
			name := typ.Method(i).Name
			if name == "Peek" || stat && statBare[name] {
				continue
			}
			if !orderedName.MatchString(name) {
				t.Errorf("%v.%s names no ordering", typ, name)
				continue
			}
			for op := range want {
				if strings.HasPrefix(name, op) {
					got[op]++
				}
			}
		}
		for op, n := range want {
			arith := strings.Contains(typ.String(), "Int") || strings.Contains(typ.String(), "Uint")
			if !arith && (op == "Add" || op == "And" || op == "Or") {
				n = 0
			}
			if got[op] != n {
				t.Errorf("%v has %d %s methods, want %d (one per ordering it may have)", typ, got[op], op, n)
			}
		}
	}
}

// TestOrderingCensus counts the ordered operations of impl/ by name, from
// the source (the normal build's files and the explore build's), and
// fails if the walk finds too few to be looking at the right files. With
// -v it prints the census docs/orderings.md starts from.
func TestOrderingCensus(t *testing.T) {
	counts := map[string]int{}
	total := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, filepath.Join("internal", "atomic")) {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok && orderedName.MatchString(s.Sel.Name) {
					counts[s.Sel.Name]++
					total++
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < 150 {
		t.Fatalf("found only %d ordered operations under impl/: the walk is broken", total)
	}
	var names []string
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-32s %d", n, counts[n])
	}
	t.Logf("%-32s %d", "total", total)
}

// TestGeneratedFilesAreCurrent: every file gen.go writes (off.go, on.go,
// types_on.go, stat_on.go) is what it writes now, and every file of the
// package that says it was generated is one of them (run go generate
// after changing gen.go).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "gen.go", "-o", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
	written, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(written) < 4 {
		t.Fatalf("gen.go wrote %v (%v), want off.go, on.go, types_on.go and stat_on.go at least", written, err)
	}
	generated := map[string]bool{}
	for _, w := range written {
		name := filepath.Base(w)
		generated[name] = true
		want, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what gen.go writes: run go generate ./explore/atomic", name)
		}
	}
	mine, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range mine {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(src, []byte("// Code generated by gen.go")) && !generated[name] {
			t.Errorf("%s says gen.go wrote it, but gen.go writes no such file", name)
		}
	}
}

// TestNoDecisionByAStat: no code of impl/ decides by a bare operation of
// a Stat type (Load, Swap, CompareAndSwap, Add: no ordering named, no
// operation of the weak-memory model, listed by neither cmd/orderings nor
// cmd/orderaudit). A value that feeds a branch is read with an ordered
// operation (LoadSeqCst, LoadRelaxed...), which says what it observes and
// is checked like any other. The check is syntactic, per package: a bare
// read of a field declared with a Stat type that stands in the condition
// of an if, a for or a switch, in a case, in a comparison or a logical
// operation, or in a variable that one of those then reads. Files built
// only for the explorer (//go:build explore: its own checks, which read
// without a scheduling point by design) are exempt.
func TestNoDecisionByAStat(t *testing.T) {
	found := statDecisions(t, "../..")
	for _, f := range found {
		t.Errorf("%s: decides by a bare Stat read; name its ordering (LoadRelaxed...)", f)
	}
}

// TestNoDecisionByAStatCatches: the check finds what it is for, in a
// package written for it.
func TestNoDecisionByAStatCatches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package p

import "github.com/wsched/wsched/explore/atomic"

type w struct {
	state atomic.StatUint32
	count atomic.StatUint64
}

func (x *w) a() bool { return x.state.Load() == 1 }
func (x *w) b() { if s := x.state.Load(); s != 0 { panic(s) } }
func (x *w) c() { n := x.count.Add(1); for n > 3 { n-- } }
func (x *w) d() { switch x.state.Load() { case 1: } }
func (x *w) ok() uint64 { x.count.Add(1); return x.count.Load() }
func (x *w) named() bool { return x.state.LoadRelaxed() == 1 }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	found := statDecisions(t, dir)
	want := []string{"p.go:10 x.state.Load", "p.go:11 x.state.Load", "p.go:12 x.count.Add", "p.go:13 x.state.Load"}
	var got []string
	for _, f := range found {
		got = append(got, filepath.Base(f))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// statDecisions returns "file:line field.Method" for every bare Stat read
// under root that feeds a branch (TestNoDecisionByAStat).
func statDecisions(t *testing.T, root string) []string {
	t.Helper()
	type file struct {
		path string
		fset *token.FileSet
		f    *ast.File
	}
	pkgs := map[string][]file{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, filepath.Join("internal", "atomic")) {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], file{path, fset, f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, files := range pkgs {
		// The package's fields of a Stat type.
		stat := map[string]bool{}
		for _, fl := range files {
			ast.Inspect(fl.f, func(n ast.Node) bool {
				if fd, ok := n.(*ast.Field); ok {
					if s, ok := fd.Type.(*ast.SelectorExpr); ok && strings.HasPrefix(s.Sel.Name, "Stat") {
						if x, ok := s.X.(*ast.Ident); ok && x.Name == "atomic" {
							for _, name := range fd.Names {
								stat[name.Name] = true
							}
						}
					}
				}
				return true
			})
		}
		for _, fl := range files {
			if exploreOnly(fl.f) {
				continue
			}
			for _, decl := range fl.f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				for _, c := range decidingStatReads(fn.Body, stat) {
					sel := c.Fun.(*ast.SelectorExpr)
					p := fl.fset.Position(c.Pos())
					found = append(found, fmt.Sprintf("%s:%d %s.%s", fl.path, p.Line, exprString(sel.X), sel.Sel.Name))
				}
			}
		}
	}
	sort.Strings(found)
	return found
}

// exploreOnly reports whether f is built only with the explore tag.
func exploreOnly(f *ast.File) bool {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if c.Text == "//go:build explore" {
				return true
			}
		}
		if cg.Pos() > f.Package {
			break
		}
	}
	return false
}

// decidingStatReads returns the bare reads of a Stat field (of the set
// stat) in body that feed a branch: directly, or through a variable.
func decidingStatReads(body *ast.BlockStmt, stat map[string]bool) []*ast.CallExpr {
	isRead := func(n ast.Node) (*ast.CallExpr, bool) {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || !statBare[sel.Sel.Name] || sel.Sel.Name == "Store" {
			return nil, false
		}
		field, ok := sel.X.(*ast.SelectorExpr)
		return c, ok && stat[field.Sel.Name]
	}
	// Variables assigned a bare read, and the read.
	vars := map[string]*ast.CallExpr{}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if c, ok := isRead(r); ok {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						vars[id.Name] = c
					}
				}
			}
		}
		return true
	})
	seen := map[*ast.CallExpr]bool{}
	var out []*ast.CallExpr
	// within reports the reads in e, and the reads of the variables e uses.
	within := func(e ast.Node) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := isRead(n); ok && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
			if id, ok := n.(*ast.Ident); ok {
				if c := vars[id.Name]; c != nil && !seen[c] {
					seen[c] = true
					out = append(out, c)
				}
			}
			return true
		})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.IfStmt:
			within(s.Cond)
		case *ast.ForStmt:
			within(s.Cond)
		case *ast.SwitchStmt:
			within(s.Tag)
		case *ast.CaseClause:
			for _, e := range s.List {
				within(e)
			}
		case *ast.BinaryExpr:
			switch s.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
				within(s)
			}
		case *ast.UnaryExpr:
			if s.Op == token.NOT {
				within(s)
			}
		}
		return true
	})
	return out
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return exprString(x.X) + "[...]"
	case *ast.CallExpr:
		return exprString(x.Fun) + "()"
	}
	return "?"
}
