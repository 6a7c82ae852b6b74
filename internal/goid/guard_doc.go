// Package owner checks single-owner rules in builds with the race
// detector: a Guard that a structure's owner-only operations enter and
// leave, which panics, naming the rule, when a second goroutine enters
// while the first is inside (two pushers on a ring or a deque, two
// parkers on one futex word). Without the race detector a Guard is empty
// and its methods compile to nothing: the check costs a CAS and a store
// per operation, too much for the hot paths it sits on, and the race
// detector is where users run their tests.
//
// It catches two owners at the same time, not one owner handing over to
// another (a worker goroutine replaced after a Goexit, an extra worker's
// slot reused), which is allowed.
package goid
