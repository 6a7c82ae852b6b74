package main

import (
	"bytes"
	"os"
	"path/filepath"
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
