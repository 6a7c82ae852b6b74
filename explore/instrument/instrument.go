package instrument

import "github.com/wsched/wsched/explore/internal/engine"

// PointAt is a scheduling point before an operation on the shared
// location loc (an address): a write if write is set, else a read.
// Another goroutine may run first. Two operations conflict when they are
// on one location and one writes; the reduced search reorders only
// conflicting ones, so whatever the goroutine touches after the operation
// and before its next scheduling point must be its own.
func PointAt(loc uintptr, write bool) { engine.PointAt(loc, write) }

// Tracing reports whether the running schedule records a trace, so that a
// caller formats the values it passes to Note only when they are shown.
func Tracing() bool { return engine.Tracing() }

// Note describes the operation that follows the last scheduling point, for
// the trace: op names it ("Load", "CompareAndSwap"), args are the values
// read or written. Call it only when Tracing reports true.
func Note(op string, args ...any) { engine.Note(op, args...) }
