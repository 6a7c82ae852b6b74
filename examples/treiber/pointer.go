package treiber

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/wsched/wsched/explore/instrument"
)

// Pointer is an atomic pointer whose every operation is a scheduling point
// of the explorer (and just sync/atomic's outside an exploration).
type Pointer[T any] struct{ v atomic.Pointer[T] }

func (p *Pointer[T]) addr() uintptr { return uintptr(unsafe.Pointer(&p.v)) }

// Load returns the pointer.
func (p *Pointer[T]) Load() *T {
	instrument.PointAt(p.addr(), false)
	v := p.v.Load()
	if instrument.Tracing() {
		instrument.Note("Load", "->", name(v), "at", caller())
	}
	return v
}

// Store sets the pointer.
func (p *Pointer[T]) Store(v *T) {
	instrument.PointAt(p.addr(), true)
	p.v.Store(v)
	if instrument.Tracing() {
		instrument.Note("Store", name(v), "at", caller())
	}
}

// CompareAndSwap sets the pointer to new if it is old, and reports whether
// it did.
func (p *Pointer[T]) CompareAndSwap(old, new *T) bool {
	instrument.PointAt(p.addr(), true)
	ok := p.v.CompareAndSwap(old, new)
	if instrument.Tracing() {
		instrument.Note("CompareAndSwap", name(old), name(new), "->", ok, "at", caller())
	}
	return ok
}

// name prints a node as the value it holds now, so a trace reads as the
// stack's contents, not as addresses.
func name[T any](v *T) string {
	if v == nil {
		return "nil"
	}
	if s, ok := any(v).(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%p", v)
}

// caller is the line of the stack's code that called the operation (the
// trace's own location is this file's).
func caller() string {
	_, file, line, _ := runtime.Caller(2)
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}
