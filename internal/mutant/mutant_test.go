package mutant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseApplyAndStaleness(t *testing.T) {
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/m\n")
	write(t, root, "a/a.go", "package a\n\nfunc F() int {\n\treturn 1\n}\n")
	cat := filepath.Join(root, "mutants")
	p := write(t, cat, "one.mutant", `# a comment
file: a/a.go
what: F returns 2
caught-by: unit, rapid
--- original
	return 1
--- replacement
	return 2
--- end
`)
	m, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "one" || m.File != "a/a.go" || len(m.CaughtBy) != 2 || m.Original != "\treturn 1" {
		t.Fatalf("parsed %+v", m)
	}
	cp, err := CopyModule(root)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cp)
	if err := m.Apply(cp); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(cp, "a/a.go"))
	if !strings.Contains(string(got), "return 2") {
		t.Fatalf("mutant not applied: %s", got)
	}
	orig, _ := os.ReadFile(filepath.Join(root, "a/a.go"))
	if strings.Contains(string(orig), "return 2") {
		t.Fatal("the working tree was modified")
	}
	// Applied once, the original text is gone: applying again must fail.
	if err := m.Apply(cp); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("want a stale-catalog error, got %v", err)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"noend":   "file: x.go\nwhat: w\n--- original\na\n--- replacement\nb\n",
		"nofile":  "what: w\n--- original\na\n--- replacement\nb\n--- end\n",
		"same":    "file: x.go\nwhat: w\n--- original\na\n--- replacement\na\n--- end\n",
		"badhead": "file x.go\n--- original\na\n--- end\n",
	} {
		if _, err := Parse(write(t, dir, name+".mutant", body)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
