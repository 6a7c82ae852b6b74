// Package schedtest is the behaviour suite shared by the two schedulers,
// spec/sched and impl/sched.
//
// The two packages export the same API with distinct types, so the suite
// talks to them through the small interfaces in adapter.go (Runtime, Ctx,
// Waker, Handle). Each scheduler package has a behaviour_test.go that wraps
// its types in those interfaces and calls Run. Every check is written once
// and holds both implementations to the same contract:
//
//   - every task's body runs exactly once (per-task counters), whether it was
//     spawned from outside or from inside a task;
//   - wakes follow the task state machine: a wake during a poll re-runs the
//     task once after the poll, wakes coalesce, a wake after completion or
//     after Shutdown does nothing, a task is never polled concurrently;
//   - Yield costs exactly one extra poll; Sleep fires and never early;
//   - a panic reaches the join handle as the implementation's PanicError and
//     the runtime keeps running;
//   - every misuse gets the documented error;
//   - Shutdown cancels queued and waiting tasks, is idempotent and safe to
//     call concurrently, honours its context, and leaves no goroutine behind.
//
// Every runtime is built with ParkTimeout 0, so a lost wakeup is a hang. A
// watchdog turns a hang into a test failure carrying the runtime's Metrics
// dump; no check relies on the go test timeout.
//
// What it is not: not a stress test (stress/ drives impl/sched hard) and not
// a benchmark. Timing appears only as "at least": a Sleep must not fire early.
package schedtest
