package racerecipe

import (
	"os"
	"sync/atomic"
	"testing"
)

// racyEnv runs TestRacyTasks: TestRaceRecipe sets it in its child.
const racyEnv = "WSCHED_RACERECIPE_RACY"

// TestRacyTasks is a real race: two tasks write one variable with nothing
// ordering the writes. They meet first (each announces itself and waits for
// the other, so they run on the two workers at once), then both write. A
// race build must report it, the recipe's included: TestRaceRecipe asserts
// the report. It runs only when asked, since it fails under -race.
func TestRacyTasks(t *testing.T) {
	if os.Getenv(racyEnv) != "1" {
		t.Skip("a deliberate data race; TestRaceRecipe runs it in a child process (set " + racyEnv + "=1 to run it here)")
	}
	rt := newRuntime(t)
	var shared int
	var here [2]atomic.Bool
	for i := range 2 {
		if err := rt.Go(func() {
			here[i].Store(true)
			waitFor(t, "the other task", here[1-i].Load)
			racyWrite(&shared, i)
		}); err != nil {
			t.Fatal(err)
		}
	}
	completed(t, rt, 2)
}

// racyWrite is the racing write, a function of its own so that the
// detector's report names it.
//
//go:noinline
func racyWrite(p *int, v int) { *p = v }
