// Package chaos holds the yield points that the stress suite uses to widen
// race windows inside impl/.
//
// Code in impl/ calls Point() between a load and the CAS that depends on it,
// and around each publish. In a normal build (no build tags) Point is an empty
// function that the compiler inlines away, so the hot paths pay nothing; the
// benchmark in this package shows it. Built with -tags chaos, Point yields the
// processor or spins for a few iterations at random, so interleavings that the
// scheduler alone rarely produces happen often.
//
// The points are placed by hand, at the windows a bug needs, rather than
// built into every operation of explore/atomic. Builds of the atomics
// with a point inside every operation, or inside a chosen kind of them,
// were measured against the catalog's chaos entries, and each lost a kill
// that the hand-placed points make (docs/auditing.md, "Chaos points"): a
// point inside every operation widens no one window more than the paths
// around it, and a point inside an operation goes with it when a mutant
// turns that operation into another.
//
// This package is not a fault injector: it never changes what the code
// computes, only when it runs.
package chaos
