// Package orderings reads the ordered atomic operations of impl/ from the
// source: each call whose method names its C11 ordering
// (explore/atomic), with the comment that argues for it and the
// catalog mutants that change it. cmd/orderings renders them as
// docs/orderings.md; cmd/orderaudit weakens them one at a time.
package orderings

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/wsched/wsched/internal/mutant"
)

// OpName splits an ordered operation's name: the operation, then the
// ordering (and, for a compare-and-swap, the failure ordering).
var OpName = regexp.MustCompile(`^(Load|Store|Swap|Add|And|Or|CompareAndSwap|Fence)(Relaxed|Acquire|Release|AcqRel|SeqCst)(Relaxed|Acquire|SeqCst)?$`)

// Op is one ordered operation in impl/.
type Op struct {
	File, Func, Code, Comment string
	Line                      int
	Op, Ordering, Failure     string
	Mutants                   []string
	// Offset is the byte offset of the call in File, Name the offset
	// of its method name (what an audit rewrites).
	Offset, NameOffset int
	// NoExplore is set when File's build constraint leaves it out of
	// every explore build (globallock_race.go: race builds only), so no
	// weak-mode scenario can run the operation.
	NoExplore bool
}

// Collect reads impl/ under root (tests and explore/atomic aside) and
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
		attributeMutants(fops, rel, src, catalog)
		if ExcludesExplore(src) {
			for i := range fops {
				fops[i].NoExplore = true
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

// attributeMutants fills in the catalog mutants whose original text
// covers each operation of file rel. When one of them is applied (the
// checks running on a mutated copy), the others are found in the source
// with it reverted, and each operation takes the mutants of the same
// function, code and occurrence there, plus the applied one's if its
// replacement covers it: the page then changes only where the applied
// mutant changed an operation.
func attributeMutants(fops []Op, rel string, src []byte, catalog []*mutant.Mutant) {
	covers := func(ops []Op, src []byte, text string, id string) {
		at := bytes.Index(src, []byte(text))
		for i := range ops {
			if at >= 0 && ops[i].Offset >= at && ops[i].Offset < at+len(text) {
				ops[i].Mutants = append(ops[i].Mutants, id)
			}
		}
	}
	var applied *mutant.Mutant
	for _, m := range catalog {
		if m.File == rel && m.Scope != "spec" && m.Replacement != "" && !bytes.Contains(src, []byte(m.Original)) && bytes.Count(src, []byte(m.Replacement)) == 1 {
			applied = m
		}
	}
	if applied == nil {
		for _, m := range catalog {
			if m.File == rel && m.Scope != "spec" {
				covers(fops, src, m.Original, m.ID)
			}
		}
		return
	}
	orig := bytes.Replace(src, []byte(applied.Replacement), []byte(applied.Original), 1)
	oops, err := collectFile(rel, orig)
	if err != nil {
		return
	}
	for _, m := range catalog {
		if m.File == rel && m.Scope != "spec" {
			covers(oops, orig, m.Original, m.ID)
		}
	}
	key := func(ops []Op) []string {
		keys := make([]string, len(ops))
		n := map[string]int{}
		for i, o := range ops {
			k := o.Func + "\x00" + o.Code
			keys[i] = fmt.Sprintf("%s\x00%d", k, n[k])
			n[k]++
		}
		return keys
	}
	byKey := map[string][]string{}
	for i, k := range key(oops) {
		byKey[k] = slices.DeleteFunc(oops[i].Mutants, func(id string) bool { return id == applied.ID })
	}
	for i, k := range key(fops) {
		fops[i].Mutants = slices.Clone(byKey[k])
	}
	covers(fops, src, applied.Replacement, applied.ID)
	for i := range fops {
		slices.Sort(fops[i].Mutants)
		fops[i].Mutants = slices.Compact(fops[i].Mutants)
	}
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
			fname = RecvName(fn.Recv.List[0].Type) + "." + fname
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
			m := OpName.FindStringSubmatch(s.Sel.Name)
			if m == nil || m[1] == "CompareAndSwap" && m[3] == "" || m[1] != "CompareAndSwap" && m[3] != "" {
				return true
			}
			pos := fset.Position(c.Pos())
			var code bytes.Buffer
			code.Write(src[pos.Offset:fset.Position(c.End()).Offset])
			comment := commentFor(lines, pos.Line)
			if comment == "" && fn.Doc != nil {
				comment = "(the function's comment) " + shorten(OneLine(fn.Doc.Text()))
			}
			ops = append(ops, Op{
				File: name, Func: fname, Line: pos.Line, Code: OneLine(code.String()),
				Op: m[1], Ordering: m[2], Failure: m[3], Offset: pos.Offset, NameOffset: fset.Position(s.Sel.Pos()).Offset,
				Comment: comment,
			})
			return true
		})
	}
	return ops, nil
}

// RecvName is the name of a method's receiver type, without a pointer
// or type arguments: "Ring" for (r *Ring[T]).
func RecvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return RecvName(t.X)
	case *ast.IndexExpr:
		return RecvName(t.X)
	case *ast.IndexListExpr:
		return RecvName(t.X)
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
		return OneLine(l[i+2:])
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
	return shorten(OneLine(strings.Join(block, " ")))
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

func OneLine(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// ExcludesExplore reports whether src's build constraint is false
// whenever the explore tag is set, whatever the other tags are.
func ExcludesExplore(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false
		}
		others := constraintTags(expr, nil)
		for set := 0; set < 1<<len(others); set++ {
			if expr.Eval(func(tag string) bool {
				i := slices.Index(others, tag)
				return tag == "explore" || i >= 0 && set&(1<<i) != 0
			}) {
				return false
			}
		}
		return true
	}
	return false
}

// constraintTags appends to tags the tags of x other than explore.
func constraintTags(x constraint.Expr, tags []string) []string {
	switch x := x.(type) {
	case *constraint.TagExpr:
		if x.Tag != "explore" && !slices.Contains(tags, x.Tag) {
			tags = append(tags, x.Tag)
		}
	case *constraint.NotExpr:
		tags = constraintTags(x.X, tags)
	case *constraint.AndExpr:
		tags = constraintTags(x.Y, constraintTags(x.X, tags))
	case *constraint.OrExpr:
		tags = constraintTags(x.Y, constraintTags(x.X, tags))
	}
	return tags
}
