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
// The Stat types are sync/atomic's in the normal build and never
// scheduling points. They hold counters and snapshots that Metrics,
// diagnostics and the monitor's look at progress read: an interleaving at
// them would change nothing the explorer checks, and making them
// scheduling points would only multiply the schedules. Under the explore
// tag each access is recorded (explore.Touch) for the reduced search,
// which must order a step that reads one against the steps that write it.
//
// This package is not a general-purpose atomic library: it has the types
// and methods impl/ uses, no more.
package atomic
