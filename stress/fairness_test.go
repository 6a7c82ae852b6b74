package stress

import (
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/sched"
)

// globalWaitBound is the most local polls a task in the global queue may
// wait on a busy single worker before it is polled. The design checks the
// global queue, before the local queues, at least once every interval
// polls, and the adaptive interval never exceeds 255; one poll of slack
// covers where exactly the counters are read.
const globalWaitBound = 255 + 1

// fairnessRounds is how many global tasks each fairness scenario injects.
// Each costs a few hundred polls; many rounds let the injection land at
// every phase of the worker's fairness clock.
const fairnessRounds = 200

// measureGlobalWait injects global tasks one at a time into a runtime whose
// only worker is kept busy by local tasks counting their polls in flood,
// and returns the largest number of local polls any of them waited, from
// the moment Spawn returned to the moment it was polled.
func measureGlobalWait(e *schedEnv, flood *atomic.Int64) int64 {
	e.t.Helper()
	var worst int64
	for range fairnessRounds {
		var polledAt atomic.Int64
		h := e.spawn(func(*sched.Context) sched.Poll {
			polledAt.Store(flood.Load())
			return sched.Ready
		})
		spawnedAt := flood.Load() // the task is in the global queue by now
		e.waitAll([]*sched.JoinHandle{h}, "global task under a local flood")
		worst = max(worst, polledAt.Load()-spawnedAt)
	}
	return worst
}

// TestSchedFairnessYieldFlood: one worker runs tasks that yield forever (its
// ring is never empty); tasks spawned from outside go to the global queue
// and must still be polled within globalWaitBound local polls.
func TestSchedFairnessYieldFlood(t *testing.T) { forSizes(t, []int{1}, schedFairnessYieldFlood) }

func schedFairnessYieldFlood(t *testing.T, cfg sched.Config) {
	cfg.LongPoll = -1 // one worker's fairness (see schedFairnessLIFOFlood)
	e := newSchedEnv(t, cfg)
	var flood atomic.Int64
	var stop atomic.Bool
	var floodHs []*sched.JoinHandle
	root := e.spawn(func(cx *sched.Context) sched.Poll {
		for range 16 {
			h, err := cx.Spawn(e.task(func(cx *sched.Context) sched.Poll {
				flood.Add(1)
				if stop.Load() {
					return sched.Ready
				}
				return cx.Yield()
			}))
			if err != nil {
				t.Errorf("Context.Spawn: %v", err)
			}
			floodHs = append(floodHs, h)
		}
		return sched.Ready
	})
	e.waitAll([]*sched.JoinHandle{root}, "flood root")
	e.until(func() bool { return flood.Load() > 5000 }, "the flood to get going")
	worst := measureGlobalWait(e, &flood)
	t.Logf("worst wait of a global task: %d local polls (bound %d)", worst, globalWaitBound)
	if worst > globalWaitBound {
		t.Errorf("a global task waited %d local polls under a yield flood, bound %d\n%s",
			worst, globalWaitBound, e.rt.Metrics())
	}
	stop.Store(true)
	e.waitAll(floodHs, "flood task")
}

// TestSchedFairnessLIFOFlood: the same with the worker kept busy by pairs
// of tasks that wake each other through the LIFO slot.
func TestSchedFairnessLIFOFlood(t *testing.T) { forSizes(t, []int{1}, schedFairnessLIFOFlood) }

func schedFairnessLIFOFlood(t *testing.T, cfg sched.Config) {
	// One worker's fairness: an extra worker the monitor starts (a worker
	// descheduled for over LongPoll under -race at GOMAXPROCS 1 looks
	// stuck) would run part of the flood, and its polls would count.
	cfg.LongPoll = -1
	e := newSchedEnv(t, cfg)
	var flood atomic.Int64
	const pairs = 2
	pps := make([]*pingPong, pairs)
	var hs []*sched.JoinHandle
	for i := range pps {
		pp := &pingPong{}
		pps[i] = pp
		counted := func(side int) func(cx *sched.Context) sched.Poll {
			body := pp.side(side)
			return func(cx *sched.Context) sched.Poll {
				flood.Add(1)
				return body(cx)
			}
		}
		hs = append(hs, e.spawn(counted(0)))
		e.until(func() bool { return pp.ready.Load() == 1 }, "ping side polled")
		hs = append(hs, e.spawn(counted(1)))
		e.until(func() bool { return pp.ready.Load() == 2 }, "pong side polled")
		pp.wakers[0].Wake()
	}
	e.until(func() bool { return flood.Load() > 5000 }, "the ping-pong to get going")
	worst := measureGlobalWait(e, &flood)
	t.Logf("worst wait of a global task: %d local polls (bound %d)", worst, globalWaitBound)
	if worst > globalWaitBound {
		t.Errorf("a global task waited %d local polls under a LIFO ping-pong, bound %d\n%s",
			worst, globalWaitBound, e.rt.Metrics())
	}
	for _, pp := range pps {
		pp.stop.Store(true)
		pp.wakers[0].Wake()
		pp.wakers[1].Wake()
	}
	e.waitAll(hs, "ping-pong side")
}
