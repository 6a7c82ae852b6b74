// Package instrument is what a data structure outside wsched calls so that
// the explorer sees its shared state: before each operation on a shared
// location, a scheduling point that names it (PointAt); after it, what the
// operation did, for the trace (Note, when Tracing).
//
// It plays the part that explore/atomic plays for wsched's own code,
// for a module that wraps its own atomics (examples/treiber's Pointer).
// Outside an exploration every call passes straight through: an atomic
// load or two.
//
// What it is not: a scenario API (scenarios use package explore), nor a
// checker of what it is told. A PointAt that names the wrong location, or
// an operation on shared state without one, makes the explorer miss
// interleavings without a word; every operation on a shared location must
// go through one.
package instrument
