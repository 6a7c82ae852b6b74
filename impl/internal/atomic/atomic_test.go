package atomic_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	stdatomic "sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/internal/atomic"
)

// BenchmarkUint64 shows that a normal build pays nothing for the package:
//
//	go test -bench . ./impl/internal/atomic
//
// Load, Store, CompareAndSwap and Add through it cost what they cost
// through sync/atomic (the types are aliases); under -tags explore each is
// a call into the explorer.
func BenchmarkUint64(b *testing.B) {
	b.Run("impl", func(b *testing.B) {
		var x atomic.Uint64
		for b.Loop() {
			v := x.Load()
			x.Store(v + 1)
			x.CompareAndSwap(v+1, v+2)
			x.Add(1)
		}
	})
	b.Run("sync", func(b *testing.B) {
		var x stdatomic.Uint64
		for b.Loop() {
			v := x.Load()
			x.Store(v + 1)
			x.CompareAndSwap(v+1, v+2)
			x.Add(1)
		}
	})
}

// The wrappers compute what sync/atomic computes, in both builds.
func TestSameResults(t *testing.T) {
	var x atomic.Uint64
	x.Store(5)
	if x.Load() != 5 || x.Add(3) != 8 || x.Swap(1) != 8 || !x.CompareAndSwap(1, 0xF0) || x.CompareAndSwap(1, 2) ||
		x.And(0x30) != 0xF0 || x.Or(0x1) != 0x30 || x.Load() != 0x31 {
		t.Fatalf("Uint64 ops disagree with sync/atomic: %#x", x.Load())
	}
	var b atomic.Bool
	if b.Swap(true) || !b.Load() || !b.CompareAndSwap(true, false) || b.Load() {
		t.Fatal("Bool ops disagree with sync/atomic")
	}
	var p atomic.Pointer[int]
	n := 7
	if p.Swap(&n) != nil || *p.Load() != 7 || !p.CompareAndSwap(&n, nil) || p.Load() != nil {
		t.Fatal("Pointer ops disagree with sync/atomic")
	}
	var i atomic.Int32
	if i.Add(-2) != -2 || i.And(-4) != -2 || i.Load() != -4 {
		t.Fatalf("Int32 ops disagree: %d", i.Load())
	}
}

// TestEveryUserImportsSyncAtomic: every package of impl/ that uses this
// package also imports sync/atomic (a blank import will do), because the
// compiler prices atomic methods as intrinsics only in packages that
// import sync/atomic; without it a normal build inlines less than it would
// with sync/atomic, and the aliases would not be free.
func TestEveryUserImportsSyncAtomic(t *testing.T) {
	const self = "github.com/wsched/wsched/impl/internal/atomic"
	uses, imports := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		for _, im := range f.Imports {
			switch strings.Trim(im.Path.Value, `"`) {
			case self:
				uses[dir] = true
			case "sync/atomic":
				imports[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) < 5 {
		t.Fatalf("found only %d users of the package under impl/: the walk is broken", len(uses))
	}
	for dir := range uses {
		if !imports[dir] && !strings.HasSuffix(dir, filepath.Join("internal", "atomic")) {
			t.Errorf("%s uses impl/internal/atomic but does not import sync/atomic: add intrinsics.go with import _ \"sync/atomic\"", dir)
		}
	}
}
