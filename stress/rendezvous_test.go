package stress

import (
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedRendezvous: each round a task spawns one task per worker into its
// own ring, and each of those blocks in its poll until all of them have
// started. They can finish only if every worker runs one at the same time,
// so every worker must be woken while work waits: by the pusher's notify
// (Rule 1), by the last searcher that found work waking the next (Rule 2),
// or by a parker's re-check. The parkers' re-check alone cannot do it here:
// the first worker woken takes a task and then stays inside its poll, so
// nobody parks again to look. Every fourth round starts from a runtime whose
// workers are all parked. A worker left asleep hangs the round, and the
// watchdog fails it with the Metrics dump. (Blocking in a poll is against
// the rules for real tasks; here it makes lost parallelism visible.)
func TestSchedRendezvous(t *testing.T) { forSizes(t, []int{2, 4, 64}, schedRendezvous) }

func schedRendezvous(t *testing.T, cfg sched.Config) {
	// The idle protocol alone must wake every worker: the monitor's help,
	// which would wake the sleepers a millisecond after the others
	// blocked, is off (TestSchedRendezvousBeyondWorkers runs with it).
	cfg.LongPoll = -1
	e := newSchedEnv(t, cfg)
	n := cfg.Workers
	rounds := 40 * stressScale()
	if n > 8 {
		rounds = 8 * stressScale()
	}
	for round := range rounds {
		if round%4 == 0 {
			e.until(func() bool { return e.rt.Metrics().Parked == n }, "every worker parked")
		}
		var started atomic.Int32
		all := make(chan struct{})
		hs := make([]*sched.JoinHandle, 0, n)
		root := e.spawn(func(cx *sched.Context) sched.Poll {
			for range n {
				h, err := cx.Spawn(e.task(func(*sched.Context) sched.Poll {
					if started.Add(1) == int32(n) {
						close(all)
					}
					select {
					case <-all:
					case <-e.ctx.Done(): // the watchdog: waitAll below reports it
					}
					return sched.Ready
				}))
				if err != nil {
					t.Errorf("Context.Spawn: %v", err)
					return sched.Ready
				}
				hs = append(hs, h)
			}
			return sched.Ready
		})
		e.waitAll([]*sched.JoinHandle{root}, "rendezvous root")
		e.waitAll(hs, "a rendezvous task (a worker was never woken)")
	}
}
