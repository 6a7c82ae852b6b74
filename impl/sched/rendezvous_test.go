package sched

import (
	"sync"
	"testing"
)

// TestRendezvousNeedsEveryWorker: a task spawns n tasks into its own ring,
// each of which blocks in its poll until all n have started. They finish
// only if n workers run them at the same time, so every worker must be
// woken while work sits in a ring: by the pusher's notify (Rule 1), by the
// last searcher that found work (Rule 2), or by a parker's re-check. A
// worker left asleep is a hang the watchdog reports. The monitor's help is
// off (LongPoll < 0): it would wake a parked worker for the blocked ones
// after a millisecond and hide a lost wake of the idle protocol, which is
// what this test is about. (TestBehaviour/Rendezvous runs more tasks than
// workers with the monitor on.)
func TestRendezvousNeedsEveryWorker(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		cfg := testConfig(n)
		cfg.LongPoll = -1
		rt := start(t, cfg)
		for round := 0; round < 40; round++ {
			if round%4 == 0 {
				waitUntil(t, rt, "all workers parked", func() bool { return rt.Metrics().Parked == n })
			}
			var wg sync.WaitGroup
			wg.Add(n)
			var hs []*JoinHandle
			var mu sync.Mutex
			root, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
				for i := 0; i < n; i++ {
					h, err := cx.Spawn(Func(func() {
						wg.Done()
						wg.Wait()
					}))

					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					hs = append(hs, h)
					mu.Unlock()
				}
				return Ready
			}))
			mustNil(t, waitAll(t, rt, []*JoinHandle{root}))
			mu.Lock()
			all := hs
			mu.Unlock()
			mustNil(t, waitAll(t, rt, all))
		}
		shutdown(t, rt)
	}
}

// TestPushWhileSearcherParks: a task pushes a child into its own ring and
// then blocks until the child has run, so the child must be stolen. The
// other worker is typically searching at that moment (woken by Rule 2 when
// the parent was found), so the push sees a searcher and does not notify;
// if that searcher had already looked at the ring and then parks without
// re-checking the queues, the child is stranded and the watchdog reports a
// hang.
func TestPushWhileSearcherParks(t *testing.T) {
	for _, n := range []int{2, 3} {
		rt := start(t, testConfig(n))
		for round := 0; round < 300; round++ {
			ran := make(chan struct{})
			root, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
				if _, err := cx.Spawn(Func(func() { close(ran) })); err != nil {
					t.Error(err)
					return Ready
				}
				<-ran
				return Ready
			}))
			mustNil(t, waitAll(t, rt, []*JoinHandle{root}))
		}
		shutdown(t, rt)
	}
}
