package atomic_test

import (
	"bytes"
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

	"github.com/wsched/wsched/impl/internal/atomic"
)

// orderedName is the name of an operation with its orderings (ordering.go).
var orderedName = regexp.MustCompile(`^(?:` +
	`Load(?:Relaxed|Acquire|SeqCst)|` +
	`Store(?:Relaxed|Release|SeqCst)|` +
	`(?:Swap|Add|And|Or)(?:Relaxed|Acquire|Release|AcqRel|SeqCst)|` +
	`CompareAndSwap(?:Relaxed|Acquire|Release|AcqRel|SeqCst)(?:Relaxed|Acquire|SeqCst)|` +
	`Fence(?:Acquire|Release|AcqRel|SeqCst))$`)

// TestEveryOperationNamesItsOrdering: the atomic types have no operation
// that does not name its ordering (Peek, the explorer's look that is no
// operation, aside), and every ordering an operation may have exists, so
// that an audit can weaken any call to the next weaker name.
func TestEveryOperationNamesItsOrdering(t *testing.T) {
	types := []any{new(atomic.Int32), new(atomic.Int64), new(atomic.Uint32), new(atomic.Uint64), new(atomic.Bool), new(atomic.Pointer[int])}
	want := map[string]int{"Load": 3, "Store": 3, "Swap": 5, "CompareAndSwap": 15, "Add": 5, "And": 5, "Or": 5}
	for _, v := range types {
		typ := reflect.TypeOf(v)
		got := map[string]int{}
		for i := range typ.NumMethod() {
			name := typ.Method(i).Name
			if name == "Peek" {
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

// TestGeneratedFilesAreCurrent: off.go and on.go are what gen.go writes
// (run go generate after changing it).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "gen.go", "-o", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
	for _, name := range []string{"off.go", "on.go"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what gen.go writes: run go generate ./impl/internal/atomic", name)
		}
	}
}
