package stress

import (
	"os"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedBatchMateOfLongPoll: two tasks spawned from outside, the first
// of which keeps its worker busy until the second has run. An idle worker
// should pick the second one up. A worker that takes both from the global
// queue in one batch keeps the second in its private prefetch buffer, which
// no other worker can take from, so it waits for the first poll to end
// while the other worker stays parked.
//
// The contract does not promise this (a poll is expected to be short), so
// the check runs only with WSCHED_STRICT=1. The first poll gives up after
// five seconds, so the check fails rather than hangs.
func TestSchedBatchMateOfLongPoll(t *testing.T) {
	if os.Getenv("WSCHED_STRICT") != "1" {
		t.Skip("a design question, not a contract property: run with WSCHED_STRICT=1")
	}
	e := newSchedEnv(t, sched.Config{Workers: 2})
	for round := range 50 {
		ran := make(chan struct{})
		long := e.spawn(func(*sched.Context) sched.Poll {
			select {
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Errorf("round %d: the second task did not run during a 5 s poll while a worker was idle\n%s",
					round, e.rt.Metrics())
			}
			return sched.Ready
		})
		mate := e.spawn(func(*sched.Context) sched.Poll { close(ran); return sched.Ready })
		e.waitAll([]*sched.JoinHandle{long, mate}, "the long poll and its batch-mate")
		if t.Failed() {
			return
		}
	}
}
