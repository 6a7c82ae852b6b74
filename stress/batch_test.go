package stress

import (
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedBatchMateOfLongPoll: two tasks spawned from outside, the first
// of which keeps its worker busy until the second has run. The design
// guarantees that the second runs meanwhile: no queued task waits behind a
// poll while another worker could run it (docs/scheduler.md, "Stranding").
// A worker may take both from the global queue in one batch; the second
// then waits in its ring, where the other worker (searching, or woken by
// the monitor once the first poll has lasted LongPoll) takes it. Before the
// ring took the batch, a private prefetch buffer kept the second task out
// of everyone's reach for as long as the first poll ran. The first poll
// gives up after five seconds, so the check fails rather than hangs.
func TestSchedBatchMateOfLongPoll(t *testing.T) {
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
