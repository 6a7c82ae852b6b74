// Package atomic is sync/atomic for code the explorer checks: the same
// types, under the same names, whose every operation names the C11 memory
// ordering it needs (LoadAcquire, StoreRelease,
// CompareAndSwapAcqRelRelaxed; ordering.go), plus the fences (FenceSeqCst;
// fence.go) and Cell, a plain variable the weak-memory mode checks for
// data races. wsched's impl/ uses it for every atomic it has; any module
// may use it the same way (docs/checking-your-own-code.md), as a Rust
// crate uses loom's atomics under cfg(loom).
//
// In a normal build every type has its sync/atomic namesake's layout and
// every method is the sync/atomic method's body (off.go, written by
// gen.go): the production code compiles to exactly what it would with
// sync/atomic (docs/explore.md, "Production code unchanged"; the
// benchmark in this package), the orderings are claims for a reader and a
// checker. Built with the explore tag, each type is a wrapper whose every
// operation is first a scheduling point of the explorer (its engine,
// explore/internal/engine): the explorer decides which goroutine performs the
// next operation, and records the value read or written for its trace
// (instrument.go).
//
// The Stat types have sync/atomic's layout and instructions in the normal
// build and are never scheduling points. They hold counters and snapshots
// that Metrics and diagnostics read, and values read often and written
// at every transition (a worker's state, its tick count), where a
// scheduling point at each access would only multiply the schedules.
// Their bare Load, Store, Add... name no ordering: for counters nothing
// decides by (TestNoDecisionByAStat fails on a bare read that feeds a
// branch). A value code decides by is read and written with their ordered
// operations (LoadSeqCst, StoreRelaxed...), as the other types' are,
// which the explorer's weak-memory mode runs as operations of its model.
// Under the explore tag each access is recorded (explorer.Touch) for the
// reduced search, which must order a step that reads one against the
// steps that write it.
//
// This package is not a general-purpose atomic library: it has the types
// and methods impl/ uses (Int32, Int64, Uint32, Uint64, Bool, Pointer,
// the Stat types, Cell), each with every ordering C11 allows it.
package atomic

//go:generate go run gen.go
