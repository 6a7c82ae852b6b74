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
// This package is not a fault injector: it never changes what the code
// computes, only when it runs.
package chaos
