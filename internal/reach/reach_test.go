package reach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes a module of one impl/ file (two shared-state functions and
// a plain one), a profile in which only T.Ran ran, and exempt as the
// exemption list; it returns the root and the profile.
func tree(t *testing.T, exempt string) (root, prof string) {
	root = t.TempDir()
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
	write := func(name, s string) {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "x.go"), src)
	if exempt != "" {
		write(filepath.Join(root, ExemptFile), exempt)
	}
	prof = filepath.Join(root, "p.cover")
	write(prof, "mode: set\n"+
		"github.com/wsched/wsched/impl/x/x.go:7.26,9.2 1 1\n"+
		"github.com/wsched/wsched/impl/x/x.go:11.22,13.2 1 0\n"+
		"github.com/wsched/wsched/impl/x/x.go:15.22,17.2 1 0\n")
	return root, prof
}

// TestGateFailsOnAnUnreachedProtocol: a function of impl/ that touches
// shared state and that no block of the mode's profile ran fails the
// gate, with its name and what to do; the plain function does not.
func TestGateFailsOnAnUnreachedProtocol(t *testing.T) {
	root, prof := tree(t, "")
	for _, mode := range []string{"plain", "weak"} {
		bad, err := Check(root, mode, []string{prof})
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) != 1 || !strings.Contains(bad[0], "impl/x/x.go: T.Missed touches shared state and no "+mode+"-mode scenario enters it") ||
			!strings.Contains(bad[0], "write a scenario") || !strings.Contains(bad[0], ExemptFile) {
			t.Errorf("%s: gate says %q, want T.Missed alone, with how to fix it", mode, bad)
		}
	}
}

// TestGateTakesAnExemptionWithItsMode: a row for T.Missed passes the gate
// in its mode only.
func TestGateTakesAnExemptionWithItsMode(t *testing.T) {
	root, prof := tree(t, "# comment\nimpl/x/x.go\tT.Missed\tweak\tno weak scenario can; the unit tests check it\n")
	if bad, err := Check(root, "weak", []string{prof}); err != nil || len(bad) != 0 {
		t.Errorf("weak gate with T.Missed exempt: %q, %v; want a pass", bad, err)
	}
	if bad, _ := Check(root, "plain", []string{prof}); len(bad) != 1 || !strings.Contains(bad[0], "T.Missed") {
		t.Errorf("plain gate with T.Missed exempt in the weak mode only: %q, want T.Missed", bad)
	}
}

// TestGateFailsOnAStaleExemption: a row for a function a scenario enters,
// or for no shared-state function at all, fails the gate.
func TestGateFailsOnAStaleExemption(t *testing.T) {
	root, prof := tree(t, "impl/x/x.go\tT.Missed\tboth\tr\nimpl/x/x.go\tT.Ran\tboth\tr\nimpl/x/x.go\tplain\tplain\tr\n")
	bad, err := Check(root, "plain", []string{prof})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 2 || !strings.Contains(bad[0], ":2: impl/x/x.go T.Ran is exempt in the plain mode but a plain-mode scenario enters it") ||
		!strings.Contains(bad[1], ":3: impl/x/x.go plain is no shared-state function") {
		t.Errorf("gate says %q, want the rows of T.Ran and plain as stale", bad)
	}
}

// TestGateLongSaysAnExemptionEnteredPastTheDefaultBounds: under -long a
// row whose function a scenario enters is said, not failed (the rows are
// for the default run); a function neither entered nor exempt, and a row
// that names no shared-state function, still fail.
func TestGateLongSaysAnExemptionEnteredPastTheDefaultBounds(t *testing.T) {
	root, prof := tree(t, "impl/x/x.go\tT.Ran\tboth\tr\nimpl/x/x.go\tplain\tplain\tr\n")
	bad, entered, err := CheckLong(root, "plain", []string{prof})
	if err != nil {
		t.Fatal(err)
	}
	if len(entered) != 1 || !strings.Contains(entered[0], ":1: impl/x/x.go T.Ran, exempt in the plain mode at the default bounds, is entered") {
		t.Errorf("long gate says entered %q, want the row of T.Ran", entered)
	}
	if len(bad) != 2 || !strings.Contains(bad[0], ":2: impl/x/x.go plain is no shared-state function") ||
		!strings.Contains(bad[1], "T.Missed touches shared state and no plain-mode scenario enters it") {
		t.Errorf("long gate says bad %q, want T.Missed unreached and the row of plain stale", bad)
	}
	if bad, _ := Check(root, "plain", []string{prof}); len(bad) != 3 {
		t.Errorf("default gate says %q, want T.Missed, and the rows of T.Ran and plain as stale", bad)
	}
}

// TestGateRefusesAnEmptyProfile: profiles without impl/'s statements
// (written without -coverpkg, or none at all) fail rather than pass.
func TestGateRefusesAnEmptyProfile(t *testing.T) {
	root, _ := tree(t, "")
	empty := filepath.Join(root, "empty.cover")
	os.WriteFile(empty, []byte("mode: set\n"), 0o644)
	if bad, err := Check(root, "plain", []string{empty}); err != nil || len(bad) != 1 || !strings.Contains(bad[0], "hold no statement") {
		t.Errorf("gate on an empty profile: %q, %v", bad, err)
	}
	if _, err := Check(root, "plain", []string{filepath.Join(root, "absent.cover")}); err == nil {
		t.Errorf("gate on an absent profile: no error")
	}
}

// TestTableCountsPerFile: the table's row for the file and the line
// naming what no scenario enters.
func TestTableCountsPerFile(t *testing.T) {
	root, prof := tree(t, "")
	fns, err := Functions(root)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ReadProfiles(prof)
	if err != nil {
		t.Fatal(err)
	}
	Attribute(fns, bs, bs)
	var b strings.Builder
	Table(&b, fns, true, nil)
	if !strings.Contains(b.String(), "| x/x.go | 3 | 33% | 33% | 2 | 1 | 1 |") || !strings.Contains(b.String(), "no plain scenario enters T.Missed") {
		t.Errorf("table:\n%s", b.String())
	}
}
