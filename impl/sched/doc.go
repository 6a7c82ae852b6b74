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
// A poll that calls runtime.Goexit ends only itself: its task finishes
// with ErrGoexit and the worker goes on in a new goroutine.
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
// general timer wheel (Sleep is a heap polled by the workers at each tick
// and by the monitor, accurate to about a tick, or LongPoll/2 while every
// worker is busy).
//
// A poll may block, as a goroutine may: on a channel, a lock, a sleep, or a
// long computation. It holds its own worker, and nothing else: every task a
// worker has queued is where another worker can take it (the global queue,
// the rings, and a LIFO slot once its owner is flagged stuck), and a monitor
// goroutine watches the workers. When a worker has been in one poll for
// Config.LongPoll (1 ms by default) while tasks wait, the monitor wakes a
// parked worker to take them, or, when every running worker is stuck,
// starts an extra worker (at most Config.ExtraWorkers at once; they retire
// when not needed). A busy worker takes from stuck ones at its fairness
// turn. So a consumer task blocked on a channel whose producer is queued
// behind it does not hang. With LongPoll < 0 the help is off, and a poll
// that blocks can hold up the tasks queued behind it. Shutdown cannot stop
// a poll that does not return: it cancels every queued task, and if ctx
// ends first it returns a *StillRunningError naming the polls still running.
// docs/scheduler.md, "Stranding", explains the design; tla/Stranding.tla and
// the explorer check it. Config.DisableStealing does not switch that help
// off (only LongPoll < 0 does).
//
// A Context is valid only during its poll, on the goroutine running it;
// kept and called later it panics, naming the mistake (Waker excepted: it
// works anywhere). Shutdown called from inside a task begins the shutdown
// and returns ErrShutdownInsideTask. docs/scheduler.md, "Mistakes and what
// you get", lists each misuse, what it does, and the test that shows it.
//
// Under the race detector a module that uses wsched can compile wsched
// outside it, as Go's own scheduler is: go test -race
// -gcflags='github.com/wsched/wsched/impl/...=-race=false'. The happens-before
// edges tasks rely on are annotated for the detector (a spawn before the
// task's first poll, a poll's end before its next poll, a Wake before the
// poll it causes, a task's last poll before Wait and Shutdown return), so
// data handed through them is not reported, and a race between tasks still
// is; the scheduler's own code is then not checked (docs/performance.md,
// "Race build, wsched outside the detector").
//
// spec/sched implements the same API with one mutex, one FIFO queue and a
// condition variable; a behaviour test suite runs against both.
package sched
