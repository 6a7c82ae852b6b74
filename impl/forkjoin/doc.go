// Package forkjoin is a fork-join pool in the style of Rayon and Blitz: each
// worker owns a Chase-Lev deque (impl/deque), Join pushes its second half for
// others to steal and runs the first half itself, and idle workers go to
// sleep in stages coordinated by a jobs event counter.
//
// # Entering the pool
//
// Code outside the pool enters it with Pool.Run, which hands a function to
// a worker and blocks until it (and everything it joined) has finished.
// Inside, the function receives a *Worker: Join and Scope are methods of the
// worker running the current code, because a push must go to that worker's
// own deque. A *Worker is only valid inside the call that received it, on
// its worker's goroutine; a worker passed to another goroutine, or kept
// after the call returned, is misuse ("Mistakes and what you get" below
// says what each slip does).
//
// # Join
//
// Join(a, b) pushes b, runs a, then takes b back. If b is still in the
// deque the worker runs it itself; if a thief took it, the worker helps:
// it steals and runs other jobs until b is done. A panic in a or b is
// carried to the joiner and re-raised there as a *PanicError once both
// halves have finished; Pool.Run returns it as an error.
//
// # Sleeping
//
// A worker that finds nothing yields for a number of rounds, then announces
// that it is sleepy (it bumps the jobs event counter and remembers the
// value), searches once more, and only then sleeps, provided the counter
// still has the value it remembered. Whoever publishes a job first bumps the
// counter if a sleepy announcement stands, then wakes a sleeping worker if
// there is one. Either the sleepy worker sees the bump and stays awake, or the
// publisher sees the sleeper and wakes it: a job pushed while a worker is
// getting sleepy is not missed. sleep.go has the argument in full.
//
// # What it is not
//
// It is not the task scheduler (impl/sched): jobs here are plain functions
// run to completion on the worker's stack, with no wakers, no timers and no
// I/O. A job that blocks blocks its worker. There is no fairness between
// Runs beyond the order of the injection queue.
//
// # Mistakes and what you get
//
//   - runtime.Goexit in a job (what t.FailNow does when an assertion fails
//     inside one): the job finishes with a *PanicError whose Value is
//     ErrGoexit, which the Join or Scope above it re-raises and Run returns
//     (errors.Is(err, ErrGoexit)); every job the ended goroutine was inside
//     finishes the same way, and the worker goes on in a new goroutine,
//     its deque untouched. Jobs the abandoned code had handed to other
//     workers still run, unobserved. (Goexit ends the goroutine whatever
//     its deferred calls do; the worker loop's deferred call tells it from
//     a return and starts the new goroutine.) TestGoexitInJob.
//   - panic(nil) under GODEBUG=panicnil=1: a panic like any other, with a
//     nil Value (before, it was swallowed). TestPanicNilInJob.
//   - A closure that captured the outer *Worker or *Scope and runs on
//     another worker, a Scope handed to a plain goroutine, a Worker kept
//     and used while the pool is busy: with the race detector on, the call
//     panics naming the mistake; the check compares the caller's
//     goroutine handle with the worker's (a register read and a load on
//     amd64 and arm64, at any depth). Without it the call is not checked:
//     Go has no portable goroutine identity (Rayon's answer, a
//     thread-local current worker, has no Go equivalent), and Join's plain
//     build stays as it is, so the slip is undefined there, as a
//     concurrent map write is. The checks every
//     build makes cost a load: a closed pool (ErrClosed) and a worker that
//     runs no job, such as one kept after its Run returned (ErrNotInWorker).
//     TestWorkerFromAnotherGoroutinePanics (race builds), TestMisuse.
//   - Scope.Spawn after the scope ended: ErrScopeDone, every time; the
//     function never runs. TestSpawnOnFinishedScopeAlwaysRefused.
//   - Pool.Close from inside a job: ErrInsideJob (it would wait for the
//     Run the job belongs to). Pool.Run from inside a job of a one-worker
//     pool: ErrInsideJob (it would wait for the only worker, which waits
//     for it). With more workers Run from a job works, blocking its worker
//     until another runs the function; telling a job from outside costs a
//     stack-trace read, about 2 µs, more than an empty Run, so Run asks
//     only when one worker makes the answer a deadlock.
//     TestRunAndCloseInsideJob.
//   - The zero Pool: Run and Close panic saying to make one with New.
//     TestZeroPoolPanics.
//
// Each fix has a mutant in mutants/ that brings the old behaviour back.
//
// In a race build with wsched compiled outside the detector (impl/sched's
// package doc), a fork happens before the job's run and the run before
// Join, Scope or Run returns, for the detector too (impl/internal/raceedge).
package forkjoin
