// Package racerecipe tests the fast race build a user of wsched can make:
// `go test -race -gcflags='github.com/wsched/wsched/impl/...=-race=false'`
// compiles the scheduler's packages outside the race detector, as Go's own
// scheduler is, and wsched tells the detector about the happens-before
// edges its users rely on (impl/internal/raceedge).
//
// Its tests are user code. The TestEdge tests hand plain data across each
// edge (a spawn, a poll's end, a wake, a task's finish, Shutdown, a
// fork-join fork and join): written before the edge, read after it. They
// pass in every build; the one that matters is the recipe's, where only the
// annotations order those accesses, and TestRaceRecipe (race builds only)
// builds this package's tests that way once and runs them in a child
// process: the edges must not be reported, and TestRacyTasks, two tasks
// writing one variable with nothing between them, must be.
//
// What the edge tests catch. With one annotation removed, the recipe's
// build reports a race in: TestEdgeWake (the wake's release, the poll's
// acquire), TestEdgeFinishWait (a poll's end, Wait's acquire), TestEdgeGoexit
// (a Goexit's end), TestEdgeShutdown (a worker's exit, Shutdown's acquire),
// TestEdgeJoin (a job's end, Join's acquire), TestEdgeScopeAndRun (a scope
// job's end, the scope's acquire). Not caught, because the detector sees
// another edge there anyway: Runtime.Spawn and Go (the global queue's lock,
// a sync.Mutex, which the detector always sees), Pool.Run (its injector's
// lock and done channel), and a spawn inside a poll, a poll to the next
// poll on another worker, a fork to the job's run. For those last three the
// edge comes from the scheduler's generic types (the rings, the LIFO slot,
// the deque, the atomics on pointers): Go compiles their methods into every
// package that imports the scheduler, this one included, and the linker
// keeps the importing package's copy, which is instrumented, so those queue
// operations stay visible to the detector. The annotations there are what a
// build without that copy needs.
package racerecipe
