// Package treiber is a lock-free stack (Treiber's, 1986) written to be
// checked by wsched's explorer from a module of its own: an example of
// explore.Check on a data structure that is not wsched's
// (docs/checking-your-own-code.md).
//
// Stack is the classic: Push links a new node above the head with a
// compare-and-swap, Pop swings the head to the node below. Recycling is
// the same stack with one change made for speed: popped nodes go to a free
// list and Push reuses them instead of allocating. That change has a bug,
// and docs/learn/09-your-own-structure.md asks you to find it before the
// explorer does.
//
// How it is checked. The head is an atomic.Pointer of explore/atomic and
// a node's value and link are atomic.Cells: plain memory that only the
// head's orderings make safe to share. Every operation names its C11
// ordering (Push's CompareAndSwapReleaseRelaxed, Pop's LoadAcquire). In
// a normal build they are sync/atomic and plain reads and writes; built
// with -tags explore each is a scheduling point of the explorer, which
// runs the scenarios of explore_test.go under every interleaving up to
// two preemptions; with -tags explore,weak each runs only as strong as
// its ordering says, and a Cell read that no release and acquire orders
// after the write it reads is a data race.
//
// The planted bug. Built with the buggy tag, Push publishes its node with
// a relaxed CAS (order_buggy.go): every interleaving still works, so
// -tags explore,buggy passes, but a Pop in another goroutine may read the
// node's value before it is visible, which -tags explore,weak,buggy
// reports as a data race on the value's cell.
//
// What it is not: a production stack (use a slice under a mutex).
package treiber
