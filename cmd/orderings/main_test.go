package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsched/wsched/internal/orderings"
)

// TestOrderingsDocIsCurrent: docs/orderings.md is what the code says now.
func TestOrderingsDocIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	ops, err := orderings.Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) < 150 {
		t.Fatalf("found only %d ordered operations: the walk is broken", len(ops))
	}
	cur, err := os.ReadFile(filepath.Join(root, out))
	if err != nil {
		t.Fatal(err)
	}
	audit, err := LoadAudit(root)
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := LoadSeeds(root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cur, Render(ops, audit, seeds)) {
		t.Fatalf("%s is not current: run go run ./cmd/orderings", out)
	}
}

// TestSeedRowsMatchOperations: every row of docs/orderings-seeds.tsv names
// an operation of impl/ as it is now.
func TestSeedRowsMatchOperations(t *testing.T) {
	root := filepath.Join("..", "..")
	ops, err := orderings.Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := LoadSeeds(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 30 {
		t.Fatalf("only %d rows in %s", len(rows), SeedsFile)
	}
	if _, stale := seedCells(ops, rows); len(stale) > 0 {
		for _, r := range stale {
			t.Errorf("%s:%d: no operation %s in %s of %s", SeedsFile, r.line, r.code, r.fn, r.file)
		}
	}
}

// TestAMovedLineLeavesThePage: the page keys its rows by function and
// operation, so lines moved (every operation of a file ten lines down, as
// a change above them does) render the same page.
func TestAMovedLineLeavesThePage(t *testing.T) {
	root := filepath.Join("..", "..")
	ops, err := orderings.Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	audit, _ := LoadAudit(root)
	seeds, _ := LoadSeeds(root)
	moved := append([]orderings.Op(nil), ops...)
	for i := range moved {
		if moved[i].File == ops[0].File {
			moved[i].Line += 10
			moved[i].Offset += 200
		}
	}
	if !bytes.Equal(Render(ops, audit, seeds), Render(moved, audit, seeds)) {
		t.Fatalf("moving the lines of %s changed the page", ops[0].File)
	}
}

// TestASeedRowFollowsAnOrderingChange: a row written for LoadRelaxed
// still names the operation after it became LoadAcquire; a row whose code
// is gone says what the function has instead.
func TestASeedRowFollowsAnOrderingChange(t *testing.T) {
	ops := []orderings.Op{{File: "impl/x/x.go", Func: "F", Code: "x.head.LoadAcquire()", Ordering: "Acquire"},
		{File: "impl/x/x.go", Func: "F", Code: "atomic.FenceSeqCst()", Ordering: "SeqCst"}}
	rows := []seedRow{{file: "impl/x/x.go", fn: "F", code: "x.head.LoadRelaxed()", ordering: "monotonic", where: "004 pop"},
		{file: "impl/x/x.go", fn: "F", code: "atomic.FenceRelease()", ordering: "release", where: "004 pop"},
		{file: "impl/x/x.go", fn: "F", code: "x.tail.LoadRelaxed()", ordering: "monotonic", where: "004 pop"}}
	cells, stale := seedCells(ops, rows)
	if cells[0] != "monotonic (004 pop)" || cells[1] != "release (004 pop)" {
		t.Errorf("cells %q: want each row on its operation despite the changed ordering", cells)
	}
	if len(stale) != 1 || stale[0].code != "x.tail.LoadRelaxed()" {
		t.Fatalf("stale %v: want the row whose location is gone", stale)
	}
	if h := staleHelp(ops, stale[0]); !strings.Contains(h, "x.head.LoadAcquire(); atomic.FenceSeqCst()") {
		t.Errorf("help %q: want the function's operations now", h)
	}
}
