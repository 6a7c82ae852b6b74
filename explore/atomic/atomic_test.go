package atomic_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	stdatomic "sync/atomic"
	"testing"
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
)

// BenchmarkUint64 shows that a normal build pays nothing for the package:
//
//	go test -bench . ./explore/atomic
//
// Load, Store, CompareAndSwap and Add through it cost what they cost
// through sync/atomic (the same method bodies); under -tags explore each is
// a call into the explorer.
func BenchmarkUint64(b *testing.B) {
	b.Run("impl", func(b *testing.B) {
		var x atomic.Uint64
		for b.Loop() {
			v := x.LoadRelaxed()
			x.StoreRelaxed(v + 1)
			x.CompareAndSwapRelaxedRelaxed(v+1, v+2)
			x.AddRelaxed(1)
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
	x.StoreRelaxed(5)
	if x.LoadRelaxed() != 5 || x.AddRelaxed(3) != 8 || x.SwapRelaxed(1) != 8 || !x.CompareAndSwapRelaxedRelaxed(1, 0xF0) || x.CompareAndSwapRelaxedRelaxed(1, 2) ||
		x.AndRelaxed(0x30) != 0xF0 || x.OrRelaxed(0x1) != 0x30 || x.LoadRelaxed() != 0x31 {
		t.Fatalf("Uint64 ops disagree with sync/atomic: %#x", x.LoadRelaxed())
	}
	var b atomic.Bool
	if b.SwapRelaxed(true) || !b.LoadRelaxed() || !b.CompareAndSwapRelaxedRelaxed(true, false) || b.LoadRelaxed() {
		t.Fatal("Bool ops disagree with sync/atomic")
	}
	var p atomic.Pointer[int]
	n := 7
	if p.SwapRelaxed(&n) != nil || *p.LoadRelaxed() != 7 || !p.CompareAndSwapRelaxedRelaxed(&n, nil) || p.LoadRelaxed() != nil {
		t.Fatal("Pointer ops disagree with sync/atomic")
	}
	var i atomic.Int32
	if i.AddRelaxed(-2) != -2 || i.AndRelaxed(-4) != -2 || i.LoadRelaxed() != -4 {
		t.Fatalf("Int32 ops disagree: %d", i.LoadRelaxed())
	}
}

// TestEveryUserImportsSyncAtomic: every package of impl/ that uses this
// package also imports sync/atomic (a blank import will do), because the
// compiler prices atomic methods as intrinsics only in packages that
// import sync/atomic; without it a normal build inlines less than it would
// with sync/atomic, and the aliases would not be free.
func TestEveryUserImportsSyncAtomic(t *testing.T) {
	const self = "github.com/wsched/wsched/explore/atomic"
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
			t.Errorf("%s uses explore/atomic but does not import sync/atomic: add intrinsics.go with import _ \"sync/atomic\"", dir)
		}
	}
}

// TestLayoutMatchesSyncAtomic: each type has its sync/atomic namesake's
// size and alignment (64-bit values 8-aligned on 32-bit platforms too), so
// that structs holding them are laid out as they would be with sync/atomic.
func TestLayoutMatchesSyncAtomic(t *testing.T) {
	check := func(name string, size, align, wantSize, wantAlign uintptr) {
		if size != wantSize || align != wantAlign {
			t.Errorf("%s: size %d align %d, sync/atomic's: size %d align %d", name, size, align, wantSize, wantAlign)
		}
	}
	check("Int32", unsafe.Sizeof(atomic.Int32{}), unsafe.Alignof(atomic.Int32{}), unsafe.Sizeof(stdatomic.Int32{}), unsafe.Alignof(stdatomic.Int32{}))
	check("Int64", unsafe.Sizeof(atomic.Int64{}), unsafe.Alignof(atomic.Int64{}), unsafe.Sizeof(stdatomic.Int64{}), unsafe.Alignof(stdatomic.Int64{}))
	check("Uint32", unsafe.Sizeof(atomic.Uint32{}), unsafe.Alignof(atomic.Uint32{}), unsafe.Sizeof(stdatomic.Uint32{}), unsafe.Alignof(stdatomic.Uint32{}))
	check("Uint64", unsafe.Sizeof(atomic.Uint64{}), unsafe.Alignof(atomic.Uint64{}), unsafe.Sizeof(stdatomic.Uint64{}), unsafe.Alignof(stdatomic.Uint64{}))
	check("Bool", unsafe.Sizeof(atomic.Bool{}), unsafe.Alignof(atomic.Bool{}), unsafe.Sizeof(stdatomic.Bool{}), unsafe.Alignof(stdatomic.Bool{}))
	check("Pointer", unsafe.Sizeof(atomic.Pointer[int]{}), unsafe.Alignof(atomic.Pointer[int]{}), unsafe.Sizeof(stdatomic.Pointer[int]{}), unsafe.Alignof(stdatomic.Pointer[int]{}))
}
