// Package mpmc is a bounded multi-producer multi-consumer queue
// (Vyukov's): a ring of slots, each with a sequence number that says
// whose turn the slot is, checked by wsched's explorer from a module of
// its own (docs/checking-your-own-code.md).
//
// Slot i of lap k is free for the producer of position p = k*n+i when its
// sequence is p, and full for the consumer of position p when it is p+1;
// the consumer frees it for the next lap by storing p+n. A producer
// claims a position with a CAS on the tail, writes the value and
// publishes it with a release store of the sequence; a consumer claims a
// position with a CAS on the head after an acquire load of the sequence
// has seen p+1, and reads the value that store published. The positions'
// CASes order nothing but the counters: the slot's sequence carries the
// value.
//
// The value is an atomic.Cell of explore/atomic (plain memory), the rest
// ordered atomics. Built with -tags explore the scenarios of
// explore_test.go run under every interleaving up to two preemptions, with
// -tags explore,weak also under every stale read the orderings allow.
//
// The planted bug. Built with the buggy tag, the producer publishes the
// sequence with a relaxed store (order_buggy.go). Under sequential
// consistency that is no bug, so -tags explore,buggy passes; in the weak
// mode a consumer that sees the new sequence has not seen the value,
// and -tags explore,weak,buggy reports the data race on the slot's cell.
package mpmc
