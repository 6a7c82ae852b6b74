// Package model holds pure sequential models of wsched's data structures:
// plain values and functions, no goroutines, no atomics, no locks.
//
// A model says which results an operation may return in a given state and
// what state follows. The same Step functions drive two kinds of checks:
// rapid state-machine tests, which run impl/ and spec/ one operation at a
// time and compare every result with the model, and porcupine, which asks
// whether a concurrent history recorded from impl/ or spec/ can be ordered
// into a sequence the model accepts (linearizability).
//
// Models are values: Step never changes the state it is given, it returns a
// new one, sharing whatever did not change. That is what porcupine needs,
// and it makes rapid failures easy to replay.
//
// What model is not: an implementation. Models hold task ids, not tasks, and
// nothing here is meant to be fast.
package model
