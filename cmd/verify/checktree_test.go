package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// .ci/check-tree, CI's first step, names every tracked file that is a built
// binary, is marked executable without being a script, is over 1 MiB or is
// a TLC trace, and fails; untracked, the same files pass. Run on a git
// repository of such files made for the test.
func TestCheckTreeNamesEachBadFile(t *testing.T) {
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	script, err := filepath.Abs("../../.ci/check-tree")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", ".")
	files := []struct {
		name    string
		content string
		mode    os.FileMode
		says    string // "" for a file that passes
	}{
		{"elf.bin", "\x7fELF\x02\x01\x01", 0o644, "compiled executable: elf.bin"},
		{"mach o", "\xcf\xfa\xed\xfe\x07", 0o644, "compiled executable: mach o"},
		{"fat", "\xca\xfe\xba\xbe", 0o644, "compiled executable: fat"},
		{"pe.exe", "MZ\x90\x00", 0o644, "compiled executable: pe.exe"},
		{"run", "hello", 0o755, "marked executable but is not a script: run"},
		{"comment", "# not a script", 0o755, "marked executable but is not a script: comment"},
		{"hidden", "\x00#!/bin/sh", 0o755, "marked executable but is not a script: hidden"},
		{"big.dat", strings.Repeat("x", 1<<20+1), 0o644, "larger than 1 MiB: big.dat (1048577 bytes)"},
		{"Spec_TTrace_1.tla", "x", 0o644, "TLC trace left by a run by hand: Spec_TTrace_1.tla"},
		{"ok.sh", "#!/bin/sh\necho\n", 0o755, ""},
		{"nul.dat", "\x00\x00\x00\x00MZ", 0o644, ""},
		{"exactly.dat", strings.Repeat("x", 1<<20), 0o644, ""},
		{"a b.go", "package a", 0o644, ""},
		{"empty", "", 0o644, ""},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.content), f.mode); err != nil {
			t.Fatal(err)
		}
		git("add", f.name)
	}
	check := func() (string, error) {
		cmd := exec.Command("bash", script)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	out, err := check()
	if err == nil {
		t.Errorf("check-tree passed a tree of bad files:\n%s", out)
	}
	for _, f := range files {
		switch {
		case f.says != "" && !strings.Contains(out, f.says):
			t.Errorf("check-tree did not say %q:\n%s", f.says, out)
		case f.says == "" && strings.Contains(out, ": "+f.name+"\n"):
			t.Errorf("check-tree named %s, a good file:\n%s", f.name, out)
		}
	}
	for _, f := range files {
		if f.says != "" {
			git("rm", "-q", "--cached", f.name)
		}
	}
	if out, err := check(); err != nil || !strings.Contains(out, "tree clean: 5 tracked files") {
		t.Errorf("check-tree on the good files: %v\n%s", err, out)
	}
}
