// Package sched is the reference scheduler: the public API of the
// production work-stealing scheduler in impl/sched, implemented with one
// mutex, one FIFO queue and one condition variable.
//
// Read this package first. Every rule the production scheduler keeps with
// atomics, rings, LIFO slots and parkers is kept here by a single lock, so
// each rule can be checked by reading a few lines:
//
//   - A task moves through the states idle, scheduled, running, notified,
//     done and cancelled (see task.go). Every transition happens with
//     Runtime.mu held.
//   - A task is in the queue exactly when it is scheduled, so it is never in
//     the queue twice and never polled by two workers at once.
//   - A wake while the task runs sets notified; the worker puts the task back
//     at the tail of the queue when its poll returns Pending. Further wakes
//     are absorbed until the task runs again.
//   - Shutdown cancels every task that is not running; a task that is running
//     is cancelled (or completed) by its worker when its poll returns.
//
// The package is also a differential oracle: internal/schedtest runs the
// same behaviour suite against this package and against impl/sched.
//
// What it is not: it is not fast and does not try to be. There is no work
// stealing, no LIFO slot, no local ring, no budget, no adaptive global
// interval and no parking protocol; workers simply wait on the condition
// variable. Config.ParkTimeout, Config.DisableStealing and Config.Parker are
// validated exactly as impl/sched validates them and otherwise ignored.
// Metrics fills in Polls, State, Spawned, Completed, Cancelled, Panicked
// and GlobalQueueLen (the length of the single queue); every other field is
// always zero. Go is Spawn(Func(f)) with the handle dropped: every spawn
// allocates its record, none is recycled.
package sched
