// Package edgeoff switches off the happens-before annotations impl/ makes
// for the race detector (impl/internal/raceedge), so that a race build of
// impl/'s own tests judges impl/'s atomics alone.
//
// Why it exists. The annotations give a user's race build the edges the
// scheduler promises (a spawn before the task's first poll, a wake before
// the poll it causes, ...) even when impl/ is compiled outside the
// detector. In the fully instrumented race build they are redundant while
// impl/'s atomics are right, and they hide a wrong one: a wake that no
// longer publishes through the task's state is still ordered before the
// poll by its annotation, so the detector reports nothing. Tests that
// check impl/'s publications through the public API (stress/, impl/sched,
// impl/forkjoin) call Set from an init function of a test file; then the
// detector sees only what the atomics order.
//
// What it is not: a switch for users, or for a build that compiles impl/
// outside the detector (the fast race recipe, stress/racerecipe), where
// the annotations are the only edges the detector sees and switching them
// off makes every hand-off a reported race.
package edgeoff

// off is written by Set during package initialisation, before any
// goroutine that reads it starts; the go statements order the read.
var off bool

// Set switches the annotations off for the rest of the process. Call it
// from an init function of a test package, before any runtime starts.
func Set() { off = true }

// Off reports whether Set was called.
func Off() bool { return off }
