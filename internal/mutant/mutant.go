package mutant

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Mutant is one deliberate bug.
type Mutant struct {
	ID          string  // file name without .mutant
	File        string  // path relative to the module root
	What        string  // one line: what the bug is
	CaughtBy    []Catch // the checks that catch it
	Scope       string  // "impl" (the default) or "spec": which tree File is in
	Original    string  // exact text in File, occurring once
	Replacement string  // what replaces it
	Source      string  // the catalog file this came from

	// Problem says why the catalog entry cannot be run as written (a
	// caught-by line that is not machine-readable), or is "". The mutant
	// can still be applied by hand; Validate reports the problem.
	Problem string
}

// Validate reports the entry's problem, if any, as an error.
func (m *Mutant) Validate() error {
	if m.Problem != "" {
		return fmt.Errorf("mutant %s: %s", m.ID, m.Problem)
	}
	return nil
}

// Parse reads one catalog file. The format is a few "key: value" header lines
// (file, what, caught-by), then a "--- original" section and a
// "--- replacement" section, closed by "--- end".
func Parse(path string) (*Mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &Mutant{ID: strings.TrimSuffix(filepath.Base(path), ".mutant"), Source: path}
	var section string
	var orig, repl []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ended := false
	for sc.Scan() {
		line := sc.Text()
		switch strings.TrimRight(line, " ") {
		case "--- original":
			section = "original"
			continue
		case "--- replacement":
			section = "replacement"
			continue
		case "--- end":
			ended = true
		}
		if ended {
			break
		}
		switch section {
		case "original":
			orig = append(orig, line)
		case "replacement":
			repl = append(repl, line)
		default:
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("%s: header line without a colon: %q", path, line)
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "file":
				m.File = v
			case "what":
				m.What = v
			case "caught-by":
				cs, err := ParseCatches(v)
				if err != nil && m.Problem == "" {
					m.Problem = err.Error()
				}
				m.CaughtBy = append(m.CaughtBy, cs...)
			case "scope":
				m.Scope = v
			default:
				return nil, fmt.Errorf("%s: unknown header %q", path, k)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	switch {
	case !ended:
		return nil, fmt.Errorf("%s: no '--- end' line", path)
	case m.File == "" || m.What == "":
		return nil, fmt.Errorf("%s: 'file' and 'what' are required", path)
	case len(orig) == 0:
		return nil, fmt.Errorf("%s: empty original section", path)
	}
	if len(m.CaughtBy) == 0 && m.Problem == "" {
		m.Problem = "no caught-by entry; name at least one layer:package:test-regexp that kills it"
	}
	if m.Scope == "" {
		m.Scope = "impl"
	}
	if top, _, _ := strings.Cut(m.File, "/"); top != m.Scope {
		return nil, fmt.Errorf("%s: scope %q but the file is in %s/ (set 'scope: %s')", path, m.Scope, top, top)
	}
	m.Original = strings.Join(orig, "\n")
	m.Replacement = strings.Join(repl, "\n")
	if m.Original == m.Replacement {
		return nil, fmt.Errorf("%s: replacement equals original", path)
	}
	return m, nil
}

// Catalog reads every *.mutant file in dir, sorted by ID.
func Catalog(dir string) ([]*Mutant, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.mutant"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var ms []*Mutant
	for _, p := range paths {
		m, err := Parse(p)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// Check reports an error unless the mutant's original text occurs exactly
// once in its file under root.
func (m *Mutant) Check(root string) error {
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		return fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	switch n := strings.Count(string(src), m.Original); n {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("mutant %s: original text not found in %s (the catalog is stale)", m.ID, m.File)
	default:
		return fmt.Errorf("mutant %s: original text occurs %d times in %s; make it unique", m.ID, n, m.File)
	}
}

// Apply rewrites the mutant's file under root (a copy of the module).
func (m *Mutant) Apply(root string) error {
	if err := m.Check(root); err != nil {
		return err
	}
	p := filepath.Join(root, m.File)
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	out := strings.Replace(string(src), m.Original, m.Replacement, 1)
	return os.WriteFile(p, []byte(out), 0o644)
}

// CopyModule copies the module at root into a new temporary directory,
// leaving out .git and testdata failure files that are not the mutant's
// concern, and returns the copy's path. The caller removes it.
func CopyModule(root string) (string, error) {
	dst, err := os.MkdirTemp("", "wsched-mutant-")
	if err != nil {
		return "", err
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bench") && rel != "." {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		os.RemoveAll(dst)
		return "", err
	}
	return dst, nil
}

// ErrNoCatalog is returned when the catalog directory has no mutants.
var ErrNoCatalog = errors.New("mutant: no *.mutant files in the catalog")
