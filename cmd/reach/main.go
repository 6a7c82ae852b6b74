// Command reach says which of impl/'s protocols the explorer's scenarios
// reach, in the plain and in the weak-memory mode: it reads the coverage
// profiles of the two explore layers' runs (go test -coverpkg=./impl/...
// under -tags explore, and -tags explore,weak) and prints, per file of
// impl/, how many of its statements ran and which of its functions that
// touch shared state no scenario entered.
//
//	go test -tags explore -coverpkg=./impl/... -coverprofile=plain.out -run '^TestExplore' ./explore/scenarios ./impl/park ./impl/sched ./impl/forkjoin
//	go test -tags explore,weak -coverpkg=./impl/... -coverprofile=weak.out -run "$WEAK" ...   # the weak layer's scenarios
//	go run ./cmd/reach -plain plain.out -weak weak.out
//	go run ./cmd/reach -plain plain.out -weak weak.out -check   # exit 1 on an unreached protocol not in docs/reach-exempt.tsv
//
// A function touches shared state when its body performs an ordered
// operation of explore/atomic (LoadAcquire, FenceSeqCst...), names the
// explore/atomic or explore/sync package (a lock, a wait, a goroutine
// start), or calls Lock, Unlock, RLock, RUnlock or TryLock. A function no
// scenario enters is a protocol the explorer never checked: -check fails
// on one unless docs/reach-exempt.tsv lists it with the reason and what
// checks it instead.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wsched/wsched/internal/orderings"
)

const module = "github.com/wsched/wsched/"

// ExemptFile lists the shared-state functions no scenario needs to reach:
// file, function, mode (plain, weak or both), the reason and what checks
// it instead, tab-separated.
const ExemptFile = "docs/reach-exempt.tsv"

type fn struct {
	file, name        string
	start, end        int // lines
	shared            bool
	stmts             int
	plainRan, weakRan int // statements run in each mode
}

type block struct {
	file       string
	start, end int
	stmts      int
	count      int
}

func main() {
	plain := flag.String("plain", "", "coverage profiles of the plain explore runs (comma-separated)")
	weakP := flag.String("weak", "", "coverage profiles of the weak-memory runs (comma-separated)")
	check := flag.Bool("check", false, "exit 1 if a shared-state function is unreached and not exempt")
	flag.Parse()
	fns, err := functions(".")
	if err != nil {
		fail(err)
	}
	pb, err := readProfiles(*plain)
	if err != nil {
		fail(err)
	}
	wb, err := readProfiles(*weakP)
	if err != nil {
		fail(err)
	}
	attribute(fns, pb, wb)
	exempt, err := loadExempt(".")
	if err != nil {
		fail(err)
	}
	bad := report(os.Stdout, fns, *weakP != "", exempt)
	if *check && bad > 0 {
		fmt.Fprintf(os.Stderr, "reach: %d shared-state function(s) no scenario reaches and %s does not list\n", bad, ExemptFile)
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "reach:", err)
	os.Exit(2)
}

// functions lists the functions of impl/'s non-test files.
func functions(root string) ([]*fn, error) {
	var out []*fn
	err := filepath.WalkDir(filepath.Join(root, "impl"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		// The build tags of impl/'s files: a file for the plain build
		// only (!explore) is not what the explorer runs.
		src, _ := os.ReadFile(path)
		if strings.Contains(string(src), "//go:build !explore") {
			return nil
		}
		pkgs := map[string]bool{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == module+"explore/atomic" || p == module+"explore/sync" {
				name := filepath.Base(p)
				if im.Name != nil {
					name = im.Name.Name
				}
				pkgs[name] = true
			}
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = orderings.RecvName(fd.Recv.List[0].Type) + "." + name
			}
			g := &fn{file: rel, name: name, start: fset.Position(fd.Pos()).Line, end: fset.Position(fd.End()).Line}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				s, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := s.X.(*ast.Ident); ok && pkgs[id.Name] {
					g.shared = true
				}
				switch s.Sel.Name {
				case "Lock", "Unlock", "RLock", "RUnlock", "TryLock":
					g.shared = true
				}
				if orderings.OpName.MatchString(s.Sel.Name) {
					g.shared = true
				}
				return true
			})
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// readProfiles reads the comma-separated profiles of paths.
func readProfiles(paths string) ([]block, error) {
	var out []block
	for _, p := range strings.Split(paths, ",") {
		bs, err := readProfile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// readProfile reads a go test -coverprofile file ("" reads nothing). Blocks
// of a file listed twice (several packages' runs appended, or -coverpkg
// writing one block per test binary) are kept apart; attribute sums them.
func readProfile(path string) ([]block, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "mode:") || l == "" {
			continue
		}
		// name.go:12.34,15.2 3 1
		colon := strings.LastIndex(l, ":")
		fields := strings.Fields(l[colon+1:])
		if colon < 0 || len(fields) != 3 {
			return nil, fmt.Errorf("%s: bad line %q", path, l)
		}
		var b block
		b.file = strings.TrimPrefix(l[:colon], module)
		var sc1, sc2 int
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.start, &sc1, &b.end, &sc2); err != nil {
			return nil, fmt.Errorf("%s: bad block %q", path, fields[0])
		}
		b.stmts, _ = strconv.Atoi(fields[1])
		b.count, _ = strconv.Atoi(fields[2])
		out = append(out, b)
	}
	return out, sc.Err()
}

// key is a block without its count: the same block in several profiles
// (one per test binary under -coverpkg) is one block.
func key(b block) block { b.count = 0; return b }

// holder returns the function of fns holding block b, or nil.
func holder(byFile map[string][]*fn, b block) *fn {
	for _, f := range byFile[b.file] {
		if b.start >= f.start && b.end <= f.end {
			return f
		}
	}
	return nil
}

// attribute sets each function's statement total (over every profile's
// blocks) and the statements each mode ran (a block run by any test
// binary of that mode's profile).
func attribute(fns []*fn, plain, weak []block) {
	byFile := map[string][]*fn{}
	for _, f := range fns {
		byFile[f.file] = append(byFile[f.file], f)
	}
	all := map[block]bool{}
	for _, bs := range [][]block{plain, weak} {
		for _, b := range bs {
			all[key(b)] = true
		}
	}
	for b := range all {
		if f := holder(byFile, b); f != nil {
			f.stmts += b.stmts
		}
	}
	for _, m := range []struct {
		bs  []block
		add func(*fn, int)
	}{{plain, func(f *fn, n int) { f.plainRan += n }}, {weak, func(f *fn, n int) { f.weakRan += n }}} {
		ran := map[block]bool{}
		for _, b := range m.bs {
			if b.count > 0 {
				ran[key(b)] = true
			}
		}
		for b := range ran {
			if f := holder(byFile, b); f != nil {
				m.add(f, b.stmts)
			}
		}
	}
}

type exemption struct{ mode, reason string }

func loadExempt(root string) (map[string]exemption, error) {
	b, err := os.ReadFile(filepath.Join(root, ExemptFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]exemption{}
	for i, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns (file, function, mode, reason)", ExemptFile, i+1)
		}
		out[c[0]+"\x00"+c[1]] = exemption{mode: c[2], reason: c[3]}
	}
	return out, nil
}

// report prints the table and returns how many shared-state functions are
// unreached (in the plain mode, and in the weak one if a weak profile was
// given) and not exempt.
func report(w *os.File, fns []*fn, weak bool, exempt map[string]exemption) int {
	type row struct {
		stmts, plain, weak              int
		shared, sharedPlain, sharedWeak int
		missPlain, missWeak             []string
	}
	rows := map[string]*row{}
	var files []string
	bad := 0
	for _, f := range fns {
		r := rows[f.file]
		if r == nil {
			r = &row{}
			rows[f.file] = r
			files = append(files, f.file)
		}
		r.stmts += f.stmts
		r.plain += f.plainRan
		r.weak += f.weakRan
		if !f.shared || f.stmts == 0 {
			continue
		}
		r.shared++
		ex, isEx := exempt[f.file+"\x00"+f.name]
		if f.plainRan > 0 {
			r.sharedPlain++
		} else {
			note := ""
			if isEx && (ex.mode == "plain" || ex.mode == "both") {
				note = " (exempt: " + ex.reason + ")"
			} else {
				bad++
			}
			r.missPlain = append(r.missPlain, f.name+note)
		}
		if f.weakRan > 0 {
			r.sharedWeak++
		} else if weak {
			note := ""
			if isEx && (ex.mode == "weak" || ex.mode == "both") {
				note = " (exempt: " + ex.reason + ")"
			} else {
				bad++
			}
			r.missWeak = append(r.missWeak, f.name+note)
		}
	}
	sort.Strings(files)
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	fmt.Fprintln(w, "| file | statements | run (plain) | run (weak) | shared-state functions | entered (plain) | entered (weak) |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	var tot row
	for _, file := range files {
		r := rows[file]
		if r.stmts == 0 {
			continue
		}
		tot.stmts += r.stmts
		tot.plain += r.plain
		tot.weak += r.weak
		tot.shared += r.shared
		tot.sharedPlain += r.sharedPlain
		tot.sharedWeak += r.sharedWeak
		fmt.Fprintf(w, "| %s | %d | %s | %s | %d | %d | %d |\n", strings.TrimPrefix(file, "impl/"), r.stmts, pct(r.plain, r.stmts), pct(r.weak, r.stmts), r.shared, r.sharedPlain, r.sharedWeak)
	}
	fmt.Fprintf(w, "| total | %d | %s | %s | %d | %d | %d |\n", tot.stmts, pct(tot.plain, tot.stmts), pct(tot.weak, tot.stmts), tot.shared, tot.sharedPlain, tot.sharedWeak)
	fmt.Fprintln(w)
	for _, file := range files {
		r := rows[file]
		if len(r.missPlain) > 0 {
			fmt.Fprintf(w, "%s: no plain scenario enters %s\n", file, strings.Join(r.missPlain, ", "))
		}
		if weak && len(r.missWeak) > 0 {
			fmt.Fprintf(w, "%s: no weak-mode scenario enters %s\n", file, strings.Join(r.missWeak, ", "))
		}
	}
	return bad
}
