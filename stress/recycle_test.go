package stress

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedRecycleChurn: several tasks spawn Go funcs in bursts larger than
// a worker's spare list holds, yielding between bursts, while the other
// workers steal and run most of them. The records of Go funcs are recycled
// (impl/sched/recycle.go), and here they travel: a thief's list overflows
// into the shared stack, a spawner whose children were stolen runs dry and
// takes a batch from it. Every func must run exactly once, and none may
// panic: a record handed to two owners at once
// is queued twice, so one func is lost and another runs twice, or a
// finished record is polled again with no func in it.
func TestSchedRecycleChurn(t *testing.T) { forSizes(t, []int{2, 4, 64}, schedRecycleChurn) }

func schedRecycleChurn(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	spawners, rounds, burst := 4, 25*stressScale(), 300
	n := spawners * rounds * burst
	ran := make(once, n)
	var left atomic.Int64
	left.Store(int64(n))
	var twice atomic.Bool // a func ran more than once: stop waiting
	hs := make([]*sched.JoinHandle, spawners)
	for s := range spawners {
		round := 0
		hs[s] = e.spawn(func(cx *sched.Context) sched.Poll {
			base := (s*rounds + round) * burst
			for i := base; i < base+burst; i++ {
				err := cx.Go(e.fn(func() {
					if ran[i].Add(1) != 1 {
						twice.Store(true)
					}
					left.Add(-1)
				}))
				if err != nil {
					t.Errorf("Go from inside: %v", err)
					return sched.Ready
				}
			}
			if round++; round < rounds {
				return cx.Yield()
			}
			return sched.Ready
		})
	}
	e.waitAll(hs, "spawner")
	// A lost func leaves left above zero for good; a duplicate usually
	// shows first, and a record polled without a func shows as a panic.
	for left.Load() > 0 && !twice.Load() && e.rt.Metrics().Panicked == 0 {
		if e.ctx.Err() != nil {
			e.hang("waiting for the last Go funcs (%d left)", left.Load())
		}
		time.Sleep(time.Millisecond)
	}
	ran.check(t, "Go funcs", 1)
	e.shutdown()
	if m := e.rt.Metrics(); m.Panicked != 0 {
		t.Errorf("%d Go funcs panicked, none does\n%s", m.Panicked, m)
	}
	if t.Failed() {
		t.Logf("%d spawners, %d rounds of %d Go funcs", spawners, rounds, burst)
	}
}
