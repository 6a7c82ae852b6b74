// Package orderings reads the ordered atomic operations of impl/ from the
// source: each call whose method names its C11 ordering
// (explore/atomic), with the comment that argues for it and the
// catalog mutants that change it. cmd/orderings renders them as
// docs/orderings.md; cmd/orderaudit weakens them one at a time.
package orderings

import (
	"bytes"
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
		for i := range fops {
			for _, m := range catalog {
				if m.File != rel || m.Scope == "spec" {
					continue
				}
				at := bytes.Index(src, []byte(m.Original))
				if at >= 0 && fops[i].Offset >= at && fops[i].Offset < at+len(m.Original) {
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
