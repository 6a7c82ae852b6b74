//go:build explore

package scenarios

import (
	"testing"

	"github.com/wsched/wsched/explore"
)

// The reduced search against the plain one on real code: each scenario
// below runs under both (explore.ClassesEnv), and a Mazurkiewicz trace
// that the plain search reaches and the reduced one, having ended, never
// did fails the test. These are the scenarios the reduced search is known
// to cover; docs/explore.md says which it does not yet.
func TestExploreReductionMissesNoTrace(t *testing.T) {
	inPartZeroOnly(t) // the class comparison does not split
	t.Setenv(explore.ClassesEnv, "1")
	for _, sc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"ring basic", TestExploreRingBasic},
		{"ring two thieves", TestExploreRingTwoThieves},
		{"ring steal during overflow", TestExploreRingStealDuringOverflow},
		{"global queue", TestExploreGlobalQueue},
		{"deque push pop steal", TestExploreDequePushPopSteal},
		{"deque two thieves", TestExploreDequeTwoThieves},
		{"deque last element", TestExploreDequeLastElementRaceThenPush},
		{"slot two thieves", TestExploreSlotTwoThieves},
		{"remote spawn, one worker", TestExploreRemoteSpawnOneWorker},
		{"remote spawn, one worker, timed park", TestExploreRemoteSpawnOneWorkerTimedPark},
		// A worker takes one lock three times while the other waits
		// for it: the reversal's first place is over the bound.
		{"go recycling", TestExploreGoRecycling},
		// The Selects of JoinHandle.Wait and Shutdown, ordered against
		// the channels' closes (explore/sync), a context cancelled by a
		// goroutine of the scenario among them.
		{"panic", TestExplorePanicReachesHandle},
		{"shutdown with a blocked poll", TestExploreShutdownWithBlockedPoll},
	} {
		t.Run(sc.name, sc.f)
	}
}
