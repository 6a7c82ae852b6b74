// Package explorer is the engine of wsched's explorer: it runs a scenario
// under one schedule after another and decides, before each operation on
// shared state, which goroutine performs it, and in the weak-memory mode
// which store a load reads.
//
// It holds the run (run.go: one goroutine at a time, handoffs, blocking,
// virtual time), the searches that pick the schedules (search.go: the
// depth-first search with a preemption bound and PCT; por.go: the reduced
// search; estimate.go: what a budget left), the weak-memory mode
// (weakmode.go, over the model of explore/internal/weak), the replay token and its
// replay (token.go, replay.go), and the traced schedule as text and as data
// (trace.go, tracefmt.go, weaktrace.go).
//
// Its callers are of two kinds. The instrumented code calls the hooks
// (hooks.go: Point, PointAt, Touch, Note, Block, BlockOn, Gosched, Now,
// GoroutineID and the Weak* functions): explore/atomic and
// explore/sync under the explore build tag, internal/goid, and the
// scenarios of wsched's own packages that name what a step touches. The
// public package explore calls Explore, Classes and the scenario's
// helpers (Go, Assert, Failf, Event, Block, Now) for the scenario writer,
// and adds what a test needs around them: Check, the run record, the
// counterexample page, the claims that share scenarios between
// processes.
//
// What it is not: an API for scenarios. A hook called out of place (a
// PointAt that names the wrong location, a Touch after the operation it
// belongs to, a Weak* call the code does not perform) corrupts the run
// without a word; the hooks are for code that plays the part of an atomic
// or a lock. It does not link the testing package, so that the explore
// build of impl/ does not either (deps_test.go checks it). It is internal
// to the module: code outside it uses explore.
package engine
