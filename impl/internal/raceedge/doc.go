// Package raceedge tells the race detector about the happens-before edges
// the scheduler gives its users: a spawn before the task's first poll, a
// poll before the same task's next one, a wake before the poll it causes,
// a task's last poll before whoever sees it finished, a fork-join job's
// fork before its run and its run before its join.
//
// The scheduler makes those edges with atomics. In a race build that
// compiles wsched's own packages outside the detector (the fast recipe,
// docs/performance.md: -gcflags='github.com/wsched/wsched/impl/...=-race=false'),
// the detector no longer sees those atomics, as it never sees the Go
// runtime's own scheduler; without these annotations a user's data handed
// to a task would be reported as a race. Go's runtime does the same for
// its channels (runtime.RaceRelease, RaceReleaseMerge, RaceAcquire, which
// exist only in race builds).
//
// Each annotation is on the address of one record (a task, a job, a
// scope, a runtime), not on an atomic: the edge a user relies on, not the
// protocol that makes it. In a build without -race every function here is
// empty and inlines to nothing (cmd/samecode: impl/'s machine code is
// unchanged). In the fully instrumented race build they add edges the
// atomics already make, at a few tens of nanoseconds per call, when the
// atomics are right. When one is wrong (a publication missing), the
// annotation still makes the edge, and the detector cannot report what
// the atomic fails to order. So impl/'s own race-build tests (stress/,
// impl/sched, impl/forkjoin) switch them off (internal/edgeoff) and judge
// the atomics alone; stress/racerecipe tests the annotations themselves,
// in the build that needs them.
//
// Release starts an edge afresh (the record is new, or its previous use is
// over); ReleaseMerge adds to it (several wakers of one task, a poll's end
// after a wake that came during it); Acquire ends it.
package raceedge
