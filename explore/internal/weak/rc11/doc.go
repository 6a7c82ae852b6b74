// Package rc11 is an RC11 oracle for litmus programs: it enumerates every
// candidate execution of a small program (each read's store, each
// location's modification order) and keeps those that satisfy the axioms
// of RC11 (Lahav, Vafeiadis, Kang, Hur and Dreyer, "Repairing sequential
// consistency in C/C++11", PLDI 2017, as herd7's rc11.cat states them),
// with C++20's release sequences (P0982: only read-modify-writes continue
// one). It returns each allowed outcome with the number of consistent
// executions that give it.
//
// It exists to check explore/internal/weak from outside: it is written from the
// paper's definitions, relation by relation, and shares no code or idea of
// implementation with the model (which runs an execution forwards with
// views and frontiers). It is exhaustive and slow (modification orders are
// permutations), meant for programs of a few threads and a dozen events.
//
// The axioms, over the events of an execution (relations.go builds them):
//
//	coherence     hb;eco? is irreflexive
//	atomicity     rmw ∩ (fr;mo) is empty
//	SC            psc = psc_base ∪ psc_F is acyclic
//	no-thin-air   sb ∪ rf is acyclic
//
// No-thin-air is enforced by construction: an execution's values are
// computed along sb ∪ rf (execution.go), and an assignment of stores to
// reads with a cycle there has no such order, so it is dropped.
//
// What it is not: a C parser (programs are Go values, Program), a model of
// consume, mixed-size or non-atomic accesses to atomic locations, or of
// locks and goroutine joins. Plain (non-atomic) cells carry no values: an
// outcome records only whether two conflicting plain accesses are
// unordered by happens-before (a data race).
package rc11
