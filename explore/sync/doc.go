// Package sync is sync for code the explorer checks (wsched's impl/, or
// any module's: docs/checking-your-own-code.md), and the other ways such
// code can wait, start a goroutine or read the clock; Released and
// Acquired tell the weak-memory mode about a hand-over it cannot see.
//
// In a normal build Mutex, Once and WaitGroup are aliases of the standard
// library's, and every function here is what it says in one line (Go is a
// go statement, Gosched is runtime.Gosched, Recv a receive, Point nothing),
// small enough to inline: the production code compiles to what it was.
// Built with the explore tag, each is controlled by the explorer (its
// engine, explore/internal/engine): a lock, a wait on a channel, a goroutine
// start, a Gosched is a scheduling point; a blocked goroutine is one the
// explorer knows is waiting, and what for; the clock is the explorer's
// virtual clock. Code in impl/ must therefore use this package, not sync,
// runtime.Gosched, time.Now or a bare channel wait, wherever goroutines of
// a runtime meet.
//
// Channel waits go through Recv, Select2 and Select3, which only take
// channels that are closed and never sent on (a done signal): under the
// explorer they check readiness without receiving. Every close of such a
// channel comes after PointOn (the explorer sees it; a wait that finds a
// channel closed where it did not fails the schedule), except a context's
// Done channel: nil for context.Background, which is never closed, or
// cancelled through explore.WithCancel in a scenario. A token channel
// (one slot, a waker's token) is waited on through TokenWait.
//
// What it is not: a general replacement for sync. It has what impl/ uses.
// A goroutine that blocks on something this package does not offer (a
// plain channel, a sync.Mutex) under the explorer stops the run, and the
// explorer says so rather than hang.
package sync
