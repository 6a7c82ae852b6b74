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
// own deque. A *Worker is only valid inside the call that received it; a
// worker passed to another goroutine, or kept after the call returned, is
// misuse (Join and Scope detect the cases they can and return an error).
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
// I/O. A job that blocks blocks its worker, and a job must not call
// runtime.Goexit (it would end the worker). There is no fairness between
// Runs beyond the order of the injection queue.
package forkjoin
