// Package tlatrace records, under the tlatrace build tag, the actions of the
// TLA+ specs (tla/) that impl/ performs, in the order they happen, for TLA+
// trace validation (tla/Trace*.tla, docs/tla.md "Trace validation").
//
// impl/ calls it only inside `if tlatrace.On { ... }`. Without the tag On
// is the constant false, every such block is dead code that the compiler
// drops (and that the inliner does not count), and the plain build's
// machine code is what it was (go run ./cmd/samecode checks it).
//
// The order is total and faithful. At each logged action impl/ calls Lock
// before the atomic operation (or the slot access) and Done after it, with
// what the action read and wrote:
//
//   - in a plain or chaos build, Lock takes one mutex that every logged
//     action of every goroutine holds from its atomic operation to the
//     append of its record. The atomic operations on the logged state
//     (a ring's head, tail and slots; the idle state's counters and
//     bitmap, and the monitor's idle flag, each of whose writes is
//     logged) happen in the order of the log: two
//     of them are never inside the mutex at once, so the log's order is a
//     total order of them that each goroutine's program order and every
//     read's value agree with. The mutex serializes only the logged
//     steps; between them the goroutines run in parallel as before.
//   - under the explorer (the explore tag), one goroutine runs at a time
//     and switches happen only at scheduling points, each before its
//     access (explore/atomic); Lock takes nothing, since no switch
//     can come between an access and the append that follows it.
//
// Actions that touch no shared state (an operation's start, which only
// sets the spec's program counter) are recorded with Note.
package tlatrace
