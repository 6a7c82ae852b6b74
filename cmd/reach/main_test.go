package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReachCountsAndFlags: a function of impl/ that touches shared state
// and that no block of the profile ran is reported, and counts toward
// -check's failure unless exempt; one that ran is counted as entered.
func TestReachCountsAndFlags(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "impl", "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package x

import "github.com/wsched/wsched/explore/atomic"

type T struct{ n atomic.Int32 }

func (t *T) Ran() int32 {
	return t.n.LoadAcquire()
}

func (t *T) Missed() {
	t.n.StoreRelease(1)
}

func plain(a int) int {
	return a + 1
}
`
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fns, err := functions(root)
	if err != nil {
		t.Fatal(err)
	}
	shared := map[string]bool{}
	for _, f := range fns {
		shared[f.name] = f.shared
	}
	if !shared["T.Ran"] || !shared["T.Missed"] || shared["plain"] {
		t.Fatalf("shared-state functions %v, want T.Ran and T.Missed only", shared)
	}
	prof := filepath.Join(root, "p.out")
	os.WriteFile(prof, []byte("mode: set\n"+
		"github.com/wsched/wsched/impl/x/x.go:7.26,9.2 1 1\n"+
		"github.com/wsched/wsched/impl/x/x.go:11.22,13.2 1 0\n"+
		"github.com/wsched/wsched/impl/x/x.go:15.22,17.2 1 0\n"), 0o644)
	bs, err := readProfiles(prof)
	if err != nil {
		t.Fatal(err)
	}
	attribute(fns, bs, bs)
	out, err := os.CreateTemp(root, "report")
	if err != nil {
		t.Fatal(err)
	}
	if bad := report(out, fns, true, nil); bad != 2 {
		t.Errorf("%d unreached, want 2 (T.Missed in each mode)", bad)
	}
	if bad := report(out, fns, true, map[string]exemption{"impl/x/x.go\x00T.Missed": {mode: "both", reason: "r"}}); bad != 0 {
		t.Errorf("%d unreached with T.Missed exempt, want 0", bad)
	}
	out.Close()
	b, _ := os.ReadFile(out.Name())
	if !strings.Contains(string(b), "| x/x.go | 3 | 33% | 33% | 2 | 1 | 1 |") || !strings.Contains(string(b), "no plain scenario enters T.Missed") {
		t.Errorf("report:\n%s", b)
	}
}
