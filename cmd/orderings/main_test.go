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
	if !bytes.Equal(cur, Render(ops, audit)) {
		t.Fatalf("%s is not current: run go run ./cmd/orderings", out)
	}
}
