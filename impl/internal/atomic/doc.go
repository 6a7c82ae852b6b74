// Package atomic is the sync/atomic of impl/: the same types, under the
// same names, so that impl code reads as it would with the standard
// package.
//
// In a normal build every type here is an alias of its sync/atomic
// namesake: the production code compiles to exactly what it would with
// sync/atomic (see the benchmark in this package). Built with the explore
// tag, each type is a wrapper whose every operation is first a scheduling
// point of the explorer (package explore): the explorer decides which
// goroutine performs the next operation, and records the value read or
// written for its trace.
//
// The Stat types are sync/atomic's in both builds. They hold counters and
// snapshots that only Metrics and diagnostics read: no decision of the
// scheduler depends on them, so an interleaving at them would change
// nothing the explorer checks, and making them scheduling points would only
// multiply the schedules.
//
// This package is not a general-purpose atomic library: it has the types
// and methods impl/ uses, no more.
package atomic
