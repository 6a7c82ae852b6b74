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
// Spawn starts a Task and returns a JoinHandle to wait for it. Go runs a
// plain func like a go statement, with no handle and its panic recovered
// and counted in Metrics.Panicked; Spawn(Func(f)) runs f with a handle.
// Context.Spawn and Context.Go do the same from inside a poll, onto the
// worker's ring. The record of a Go task is reused by a later Go once the
// task ran, and handles spawned from inside a poll come from per-worker
// slabs, so in the steady state only a spawn from outside allocates a
// record of its own (docs/scheduler.md, "Spawning and the task record").
//
// The worker loop, the order in which a worker looks for work, the idle
// protocol and every place where this code departs from the designs it
// follows are explained in docs/scheduler.md. The tuning constants are in
// constants.go, each with its reason.
//
// What it is not: an async I/O runtime (there is no reactor), a preemptive
// scheduler (a task gives the worker back only by returning from Poll), or a
// general timer wheel (Sleep is a heap polled by worker 0, accurate to about
// one tick).
//
// A poll that blocks holds up more than its own worker. A worker keeps
// tasks where only it can take them (the prefetch buffer of a global batch,
// the LIFO slot, the tasks that yielded in this tick, and, on worker 0, the
// timers), and while its poll blocks they wait, even with other workers
// idle. The first program a Go user tends to write shows it: Go a consumer
// that ranges over an unbuffered channel, then Go a producer that sends into
// it. One worker can take both from the global queue in one batch, run the
// consumer, which blocks, and keep the producer in its buffer: the program
// hangs, and Shutdown cannot finish. Until that is fixed, a task must not
// block inside Poll on something another task of the same runtime has to do.
//
// spec/sched implements the same API with one mutex, one FIFO queue and a
// condition variable; a behaviour test suite runs against both.
package sched
