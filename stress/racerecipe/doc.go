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
// build reports a race in: TestEdgeRemoteSpawn and TestEdgeRemoteSpawnStolen
// (Runtime.Spawn's release, for a task run by the worker that took it
// from the global queue, and by another), TestEdgeLocalSpawn (a spawn inside a poll),
// TestEdgePollToPoll (a poll's end, the next poll's start, on another
// worker), TestEdgeWake (the wake's release, the poll's acquire),
// TestEdgeRemoteWakeAfterPoll (a poll's end before the next poll, through
// a remote wake and the global queue), TestEdgeExtraWorkerSlot (an extra
// worker's slot, from the goroutine that retired to the next: Yield,
// inlined into the user's package, writes the worker under the detector),
// TestEdgeFinishWait (a poll's end, Wait's acquire), TestEdgeGoexit (a
// Goexit's end), TestEdgeShutdown (a worker's exit, Shutdown's acquire),
// TestEdgeJoin (a fork, a job's end, Join's acquire), TestEdgeScopeAndRun
// (a scope's spawn, a scope job's end, the scope's acquire). Not caught,
// because the detector sees another edge there anyway: Pool.Run (its
// injector's lock and done channel). The global queue's lock is out of
// the detector's sight in the recipe's build (impl/queue's own lock in
// race builds, globallock_race.go); were it a sync.Mutex, which the
// detector sees from any caller, TestEdgeRemoteSpawn would miss the
// release Runtime.Spawn and Go share (the worker that runs a task has
// nearly always locked the queue after the task was pushed), and only
// TestEdgeRemoteSpawnStolen, whose stealing worker's last lock of the
// queue came before the spawns, would see it.
//
// The scheduler's queues are generic (impl/queue's ring, LIFO slot and
// global queue, impl/deque's deque), and Go compiles the methods of an
// instantiated generic type into every package that reads the type, this
// one included, with the detector; the linker keeps the largest copy, the
// instrumented one. A race build of impl/sched and impl/forkjoin therefore
// names those queues by types of its own (queuetypes_race.go,
// dequetype_race.go) that no importer sees through, and TestRaceRecipe
// checks with objdump that the queue methods linked into the recipe's
// binary call nothing of the detector's (hotQueueMethods).
package racerecipe
