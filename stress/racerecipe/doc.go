// Package racerecipe tests the fast race build a user of wsched can make:
// `go test -race -gcflags='github.com/wsched/wsched/...=-race=false'`
// compiles wsched's own packages outside the race detector, as Go's own
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
package racerecipe
