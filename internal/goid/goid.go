// Package goid tells which goroutine is running, two ways. Current
// returns the number Go prints in a goroutine's stack trace ("goroutine
// 18 [running]"), never reused, read from runtime.Stack: a call whose
// cost grows with the depth of the stack (a microsecond shallow, a
// hundred and more at depth under the race detector), so it is for calls
// off every hot path (Shutdown, Close). Handle returns a number that is
// the goroutine's only while it lives, for a register read: what a check
// made on every call uses (handle.go). Owner keeps one goroutine's
// handle, in a build with the race detector, for such a check: is the
// caller the goroutine that owns this worker (owner_race.go)?
//
// Go keeps goroutine identity private on purpose; wsched uses it only to
// say which rule a caller broke (a Context used from a goroutine other
// than the one running its poll), never to decide anything else.
//
// Under the explore build tag, a goroutine the explorer runs is named by
// the explorer instead (its engine's GoroutineID, a negative number, which
// the engine hands this package with NameBy): the same promise, one
// goroutine one number, without the stack trace that would otherwise cost
// a sixth of a whole-runtime scenario's time.
//
// Guard checks single-owner rules in builds with the race detector: a Guard that a structure's owner-only operations enter and
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
//
// It is the one package of the module that knows goroutine identity:
// impl/, spec/ and the explorer's engine all ask it, and it imports
// nothing of theirs.
package goid

import "runtime"

// fromStack returns the calling goroutine's number, read from the first
// line of its stack trace.
func fromStack() int64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	// "goroutine 18 [running]:..."
	const prefix = len("goroutine ")
	var id int64
	for _, c := range buf[prefix:n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// explorerName is the explorer's name for the calling goroutine, ok while
// a schedule runs; the explorer's engine sets it as the program starts
// (NameBy), so that this package, which the engine and impl/ both use,
// imports nothing above it. Only the explore build's Current asks it.
var explorerName func() (id int64, ok bool)

// NameBy makes f the explorer's name for a goroutine, which Current
// returns in the explore build while f reports ok. The engine calls it
// once, from an init function, before any goroutine asks.
func NameBy(f func() (id int64, ok bool)) { explorerName = f }
