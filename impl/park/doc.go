// Package park holds the parkers a scheduler worker sleeps on when it has no
// work: a goroutine blocks in Park until another goroutine calls Unpark, or
// until a timeout passes.
//
// Both parkers keep a sticky token: an Unpark that lands before the Park it is
// meant for is not lost, the next Park consumes it and returns at once. A
// stale token therefore shows up as a spurious wake, and callers must treat
// every return from Park as "look again", never as proof that somebody
// handed them work.
//
// Two implementations sit behind one interface:
//
//   - Chan, a one-slot buffered channel. Works everywhere, costs no OS thread
//     while parked, and is the faster of the two in Go (see the benchmarks).
//   - Futex (Linux only), a 32-bit word and the futex system call, as the
//     seeds do it. A goroutine parked on a futex blocks its OS thread; the
//     system call is entered as a blocking one, so its P goes to another
//     thread at once (before, it stayed with the sleeping thread until
//     sysmon retook it, which cost the futex parker up to 10 ms per wake
//     and most of its throughput on ChainedSpawn and PingPong). A wake
//     still costs an OS thread's wake-up where the channel's costs a
//     goroutine switch. It need not, and should not, lock its OS thread.
//     On other systems NewFutex returns ErrUnsupported.
//
// This package is not a condition variable or a semaphore: a Parker has one
// owner (the goroutine calling Park) and the token does not count.
package park
