// Package reach says which of impl/'s protocols the explorer's scenarios
// reach, in the plain and in the weak-memory mode, from the coverage
// profiles of the explore and weak layers' runs (cmd/verify writes them
// with -coverpkg=./impl/... -covermode=set on the runs it does anyway;
// the counters cost nothing the layers' times show). cmd/verify gates
// each of the two layers on it (Gate); cmd/reach prints the table per
// file (Table).
//
// A function touches shared state when its body performs an ordered
// operation of explore/atomic (LoadAcquire, FenceSeqCst...), names the
// explore/atomic or explore/sync package (a lock, a wait, a goroutine
// start), or calls Lock, Unlock, RLock, RUnlock or TryLock. One that no
// scenario enters is a protocol the explorer never checked: the gate
// fails on it unless ExemptFile lists it with the reason no scenario can
// reach it and what checks it instead, and fails on a row of ExemptFile
// whose function a scenario does reach (the list is stale).
package reach

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wsched/wsched/internal/orderings"
)

const module = "github.com/wsched/wsched/"

// ExemptFile lists the shared-state functions no scenario needs to reach:
// file, function, mode (plain, weak or both), and the reason with what
// checks it instead, tab-separated; # starts a comment line.
const ExemptFile = "docs/reach-exempt.tsv"

// Func is one function of impl/ (a method named Type.Name).
type Func struct {
	File, Name        string
	Start, End        int // lines
	Shared            bool
	Stmts             int // statements of the profiles' blocks
	PlainRan, WeakRan int // statements run in each mode
}

// Block is one block of a coverage profile.
type Block struct {
	File       string
	Start, End int
	Stmts      int
	Count      int
}

// Functions lists the functions of impl/'s non-test files under root
// that the explore build compiles.
func Functions(root string) ([]*Func, error) {
	var out []*Func
	err := filepath.WalkDir(filepath.Join(root, "impl"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// A file no explore build compiles (the plain build's only,
		// !explore; the race builds' lock, race && !explore) is not
		// what the explorer runs.
		if orderings.ExcludesExplore(src) {
			return nil
		}
		fns, err := fileFunctions(rel, src)
		out = append(out, fns...)
		return err
	})
	return out, err
}

func fileFunctions(rel string, src []byte) ([]*Func, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, 0)
	if err != nil {
		return nil, err
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
	var out []*Func
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name = orderings.RecvName(fd.Recv.List[0].Type) + "." + name
		}
		g := &Func{File: rel, Name: name, Start: fset.Position(fd.Pos()).Line, End: fset.Position(fd.End()).Line}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := s.X.(*ast.Ident); ok && pkgs[id.Name] {
				g.Shared = true
			}
			switch s.Sel.Name {
			case "Lock", "Unlock", "RLock", "RUnlock", "TryLock":
				g.Shared = true
			}
			if orderings.OpName.MatchString(s.Sel.Name) {
				g.Shared = true
			}
			return true
		})
		out = append(out, g)
	}
	return out, nil
}

// ReadProfiles reads go test -coverprofile files; an empty name reads
// nothing. Blocks of a file listed twice (several packages' runs, or one
// test binary each under -coverpkg) are kept apart; Attribute sums them.
func ReadProfiles(paths ...string) ([]Block, error) {
	var out []Block
	for _, p := range paths {
		if p == "" {
			continue
		}
		bs, err := readProfile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

func readProfile(path string) ([]Block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "mode:") || l == "" {
			continue
		}
		// name.go:12.34,15.2 3 1
		colon := strings.LastIndex(l, ":")
		if colon < 0 {
			return nil, fmt.Errorf("%s: bad line %q", path, l)
		}
		fields := strings.Fields(l[colon+1:])
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s: bad line %q", path, l)
		}
		var b Block
		b.File = strings.TrimPrefix(l[:colon], module)
		var sc1, sc2 int
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.Start, &sc1, &b.End, &sc2); err != nil {
			return nil, fmt.Errorf("%s: bad block %q", path, fields[0])
		}
		b.Stmts, _ = strconv.Atoi(fields[1])
		b.Count, _ = strconv.Atoi(fields[2])
		out = append(out, b)
	}
	return out, sc.Err()
}

// key is a block without its count: the same block in several profiles
// is one block.
func key(b Block) Block { b.Count = 0; return b }

func holder(byFile map[string][]*Func, b Block) *Func {
	for _, f := range byFile[b.File] {
		if b.Start >= f.Start && b.End <= f.End {
			return f
		}
	}
	return nil
}

// Attribute sets each function's statement total (over every profile's
// blocks) and the statements each mode ran (a block run by any test
// binary of that mode's profiles).
func Attribute(fns []*Func, plain, weak []Block) {
	byFile := map[string][]*Func{}
	for _, f := range fns {
		byFile[f.File] = append(byFile[f.File], f)
	}
	all := map[Block]bool{}
	for _, bs := range [][]Block{plain, weak} {
		for _, b := range bs {
			all[key(b)] = true
		}
	}
	for b := range all {
		if f := holder(byFile, b); f != nil {
			f.Stmts += b.Stmts
		}
	}
	for _, m := range []struct {
		bs  []Block
		add func(*Func, int)
	}{{plain, func(f *Func, n int) { f.PlainRan += n }}, {weak, func(f *Func, n int) { f.WeakRan += n }}} {
		ran := map[Block]bool{}
		for _, b := range m.bs {
			if b.Count > 0 {
				ran[key(b)] = true
			}
		}
		for b := range ran {
			if f := holder(byFile, b); f != nil {
				m.add(f, b.Stmts)
			}
		}
	}
}

// Exemption is a row of ExemptFile.
type Exemption struct {
	File, Func, Mode, Reason string
	Line                     int
}

func (e Exemption) covers(mode string) bool { return e.Mode == mode || e.Mode == "both" }

// LoadExempt reads ExemptFile under root (none: no rows).
func LoadExempt(root string) ([]Exemption, error) {
	b, err := os.ReadFile(filepath.Join(root, ExemptFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Exemption
	for i, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns (file, function, mode, reason and what checks it instead)", ExemptFile, i+1)
		}
		if c[2] != "plain" && c[2] != "weak" && c[2] != "both" {
			return nil, fmt.Errorf("%s:%d: mode %q: want plain, weak or both", ExemptFile, i+1, c[2])
		}
		if strings.TrimSpace(c[3]) == "" {
			return nil, fmt.Errorf("%s:%d: no reason given", ExemptFile, i+1)
		}
		out = append(out, Exemption{File: c[0], Func: c[1], Mode: c[2], Reason: c[3], Line: i + 1})
	}
	return out, nil
}

func exemptFor(exempt []Exemption, f *Func, mode string) *Exemption {
	for i, e := range exempt {
		if e.File == f.File && e.Func == f.Name && e.covers(mode) {
			return &exempt[i]
		}
	}
	return nil
}

// Gate returns what fails the layer of mode ("plain": the explore layer,
// "weak": the weak layer), whose profiles Attribute read: each
// shared-state function no scenario of the mode entered and ExemptFile
// does not list for the mode, and each row of ExemptFile for the mode
// whose function a scenario entered, or that names no shared-state
// function. A function with no statement in the profiles is not in the
// mode's build; profiles with no statement of impl/ at all are an error.
func Gate(fns []*Func, mode string, exempt []Exemption) []string {
	bad, _ := gate(fns, mode, exempt, false)
	return bad
}

// GateLong is Gate for a run past the layers' default bounds and budgets
// (verify -long, whose weak layer also runs scenarios the default one
// does not: scenarioset.WeakLongScenarios), which may enter what the
// default run does not: the
// rows of ExemptFile are for the default run, the one CI gates, so a row
// whose function a scenario entered is not stale there. It is returned
// in entered, to be said, not in bad.
func GateLong(fns []*Func, mode string, exempt []Exemption) (bad, entered []string) {
	return gate(fns, mode, exempt, true)
}

// gate is Gate, and with long GateLong.
func gate(fns []*Func, mode string, exempt []Exemption, long bool) (bad, entered []string) {
	stmts := 0
	for _, f := range fns {
		stmts += f.Stmts
	}
	if stmts == 0 {
		return []string{fmt.Sprintf("the %s mode's coverage profiles hold no statement of impl/: nothing to gate on (were they written with -coverpkg=./impl/...?)", mode)}, nil
	}
	layer := map[string]string{"plain": "explore", "weak": "weak"}[mode]
	known := map[string]bool{}
	for _, f := range fns {
		if !f.Shared || f.Stmts == 0 {
			continue
		}
		known[f.File+"\x00"+f.Name] = true
		ran := f.PlainRan
		if mode == "weak" {
			ran = f.WeakRan
		}
		e := exemptFor(exempt, f, mode)
		switch {
		case ran == 0 && e == nil:
			bad = append(bad, fmt.Sprintf("%s: %s touches shared state and no %s-mode scenario enters it: write a scenario that runs it (in a package of internal/scenarioset, named so that the %s layer runs it), or add a row to %s: file, function, mode, why no scenario can reach it and what checks it instead",
				f.File, f.Name, mode, layer, ExemptFile))
		case ran > 0 && e != nil && long:
			entered = append(entered, fmt.Sprintf("%s:%d: %s %s, exempt in the %s mode at the default bounds, is entered by a %s-mode scenario past them (a higher bound or budget, or a scenario only -long runs)",
				ExemptFile, e.Line, f.File, f.Name, mode, mode))
		case ran > 0 && e != nil:
			bad = append(bad, fmt.Sprintf("%s:%d: %s %s is exempt in the %s mode but a %s-mode scenario enters it: the row is stale, remove it (or its %s half)",
				ExemptFile, e.Line, f.File, f.Name, mode, mode, mode))
		}
	}
	for _, e := range exempt {
		if e.covers(mode) && !known[e.File+"\x00"+e.Func] {
			bad = append(bad, fmt.Sprintf("%s:%d: %s %s is no shared-state function of impl/ that the %s mode's build compiles: the row is stale, remove it", ExemptFile, e.Line, e.File, e.Func, mode))
		}
	}
	sort.Strings(bad)
	sort.Strings(entered)
	return bad, entered
}

// Table writes the coverage table per file of impl/ (statements run, and
// shared-state functions entered, in each mode), then the shared-state
// functions each mode misses, exempt ones marked.
func Table(w io.Writer, fns []*Func, weak bool, exempt []Exemption) {
	type row struct {
		stmts, plain, weak              int
		shared, sharedPlain, sharedWeak int
		missPlain, missWeak             []string
	}
	rows := map[string]*row{}
	var files []string
	miss := func(f *Func, mode string) string {
		if e := exemptFor(exempt, f, mode); e != nil {
			return f.Name + " (exempt)"
		}
		return f.Name
	}
	for _, f := range fns {
		r := rows[f.File]
		if r == nil {
			r = &row{}
			rows[f.File] = r
			files = append(files, f.File)
		}
		r.stmts += f.Stmts
		r.plain += f.PlainRan
		r.weak += f.WeakRan
		if !f.Shared || f.Stmts == 0 {
			continue
		}
		r.shared++
		if f.PlainRan > 0 {
			r.sharedPlain++
		} else {
			r.missPlain = append(r.missPlain, miss(f, "plain"))
		}
		if f.WeakRan > 0 {
			r.sharedWeak++
		} else if weak {
			r.missWeak = append(r.missWeak, miss(f, "weak"))
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
}

// Check is the gate of mode ("plain" or "weak") for the module at root,
// on the coverage profiles of that mode's runs: Gate's failures.
func Check(root, mode string, profiles []string) ([]string, error) {
	bad, _, err := check(root, mode, profiles, false)
	return bad, err
}

// CheckLong is Check for a run past the default bounds (GateLong).
func CheckLong(root, mode string, profiles []string) (bad, entered []string, err error) {
	return check(root, mode, profiles, true)
}

// check is Check, and with long CheckLong.
func check(root, mode string, profiles []string, long bool) (bad, entered []string, err error) {
	fns, err := Functions(root)
	if err != nil {
		return nil, nil, err
	}
	bs, err := ReadProfiles(profiles...)
	if err != nil {
		return nil, nil, err
	}
	if mode == "weak" {
		Attribute(fns, nil, bs)
	} else {
		Attribute(fns, bs, nil)
	}
	exempt, err := LoadExempt(root)
	if err != nil {
		return nil, nil, err
	}
	bad, entered = gate(fns, mode, exempt, long)
	return bad, entered, nil
}
