// Package sched is wsched's production scheduler: a Tokio-style
// work-stealing runtime for poll-based tasks.
//
// A Runtime has a fixed number of workers (1..64), each a goroutine with a
// LIFO slot and a 256-slot ring (impl/queue), one global queue shared by
// all, and the idle protocol (impl/idle) that wakes a parked worker when
// work appears and nobody is searching. A Task is polled until it returns
// Ready; a Pending task runs again after its Waker is called, after
// Context.Yield, or after Context.Sleep's timer.
//
// The worker loop, the order in which a worker looks for work, the idle
// protocol and every place where this code departs from the designs it
// follows are explained in docs/scheduler.md. The tuning constants are in
// constants.go, each with its reason.
//
// What it is not: an async I/O runtime (there is no reactor; a task that
// blocks in Poll blocks its worker), a preemptive scheduler (a task gives
// the worker back only by returning from Poll), or a general timer wheel
// (Sleep is a heap polled by worker 0, accurate to about one tick).
//
// spec/sched implements the same API with one mutex, one FIFO queue and a
// condition variable; a behaviour test suite runs against both.
package sched
