// Package treiber is a lock-free stack (Treiber's, 1986) written to be
// checked by wsched's explorer from a module of its own: an example of
// explore.Check on a data structure that is not wsched's.
//
// Stack is the classic: Push links a new node above the head with a
// compare-and-swap, Pop swings the head to the node below. Recycling is
// the same stack with one change made for speed: popped nodes go to a free
// list and Push reuses them instead of allocating. That change has a bug,
// and docs/learn/09-your-own-structure.md asks you to find it before the
// explorer does.
//
// How it is checked. Every operation on the shared head goes through
// Pointer, whose methods tell the explorer that a goroutine is about to
// touch shared state (instrument.PointAt) and, when a trace is being
// recorded, what it did (instrument.Note). Outside an exploration they do
// what sync/atomic does, after one check. That is all the explorer needs: it runs
// one goroutine at a time and, at every such point, decides which one goes
// next, so a test can run a scenario under every interleaving up to a
// number of preemptions (stack_test.go).
//
// What it is not: a production stack (use a slice under a mutex), nor
// checked in the weak-memory mode: Go's sync/atomic is sequentially
// consistent, and so is every schedule here.
package treiber
