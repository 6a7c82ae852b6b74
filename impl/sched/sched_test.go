package sched

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// Every task spawned from outside runs exactly once, with every parker and
// with stealing on and off; the poll counters are exact.
func TestExactlyOnceFromOutside(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
	}{
		{"w1", testConfig(1)},
		{"w2", testConfig(2)},
		{"w4", testConfig(4)},
		{"w4-nosteal", Config{Workers: 4, DisableStealing: true}},
		{"w3-futex", Config{Workers: 3, Parker: ParkerFutex}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.cfg.Parker == ParkerFutex && !futexSupported() {
				t.Skip("no futex on this system")
			}
			rt := start(t, c.cfg)
			const spawners, per = 4, 1500
			runs := make([]atomic.Int32, spawners*per)
			hs := make([]*JoinHandle, spawners*per)
			var wg sync.WaitGroup
			for g := 0; g < spawners; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g * per; i < (g+1)*per; i++ {
						var err error
						if i%2 == 0 {
							hs[i], err = rt.Spawn(Func(func() { runs[i].Add(1) }))
						} else {
							hs[i], err = rt.Spawn(TaskFunc(func(*Context) Poll {
								runs[i].Add(1)
								return Ready
							}))
						}
						if err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			mustNil(t, waitAll(t, rt, hs))
			for i := range runs {
				if n := runs[i].Load(); n != 1 {
					t.Fatalf("task %d ran %d times", i, n)
				}
			}
			shutdown(t, rt)
			m := rt.Metrics()
			if m.Spawned != uint64(len(hs)) || m.Completed != uint64(len(hs)) || m.TotalPolls() != uint64(len(hs)) || m.Cancelled != 0 {
				t.Fatalf("metrics after %d tasks:\n%s", len(hs), m)
			}
		})
	}
}

// Tasks spawned from inside tasks (a tree, through Context.Spawn and
// Context.Go) run exactly once, and the work spreads by stealing.
func TestExactlyOnceFromInside(t *testing.T) {
	rt := start(t, testConfig(4))
	const fanout, depth = 4, 6 // 1+4+...+4^6 = 5461 tasks
	var total int
	for d, p := 0, 1; d <= depth; d, p = d+1, p*fanout {
		total += p
	}
	runs := make([]atomic.Int32, total)
	var hsMu sync.Mutex
	var hs []*JoinHandle
	var next atomic.Int32
	var spawn func(cx *Context, level int)
	node := func(level int) TaskFunc {
		id := next.Add(1) - 1
		return func(cx *Context) Poll {
			runs[id].Add(1)
			if level < depth {
				spawn(cx, level+1)
			}
			return Ready
		}
	}
	spawn = func(cx *Context, level int) {
		for i := 0; i < fanout; i++ {
			var h *JoinHandle
			var err error
			if i == 0 && level == depth {
				id := next.Add(1) - 1
				h, err = cx.Spawn(Func(func() { runs[id].Add(1) }))
			} else {
				h, err = cx.Spawn(node(level))
			}
			if err != nil {
				t.Error(err)
				return
			}
			hsMu.Lock()
			hs = append(hs, h)
			hsMu.Unlock()
		}
	}
	root, err := rt.Spawn(node(0))
	if err != nil {
		t.Fatal(err)
	}
	mustNil(t, waitAll(t, rt, []*JoinHandle{root}))
	waitUntil(t, rt, "all tasks spawned", func() bool {
		hsMu.Lock()
		defer hsMu.Unlock()
		return len(hs) == total-1
	})
	hsMu.Lock()
	all := append([]*JoinHandle(nil), hs...)
	hsMu.Unlock()
	mustNil(t, waitAll(t, rt, all))
	for i := range runs {
		if n := runs[i].Load(); n != 1 {
			t.Fatalf("task %d ran %d times", i, n)
		}
	}
	shutdown(t, rt)
	if m := rt.Metrics(); m.TotalPolls() != uint64(total) || m.Completed != uint64(total) {
		t.Fatalf("want %d polls and completions:\n%s", total, m)
	}
}

// A wake that arrives while the task is being polled re-runs it exactly
// once: the poll hands its waker out, waits until the wake happened, and
// returns Pending; the second poll returns Ready. A lost wake hangs (the
// watchdog reports it); a doubled one shows in the poll count.
func TestWakeDuringPollRerunsOnce(t *testing.T) {
	for _, how := range []string{"remote", "self"} {
		t.Run(how, func(t *testing.T) {
			rt := start(t, testConfig(2))
			const n = 300
			polls := make([]atomic.Int32, n)
			hs := make([]*JoinHandle, n)
			for i := range hs {
				var err error
				hs[i], err = rt.Spawn(TaskFunc(func(cx *Context) Poll {
					switch polls[i].Add(1) {
					case 1:
						if how == "self" {
							cx.Wake(cx.Waker())
						} else {
							done := make(chan struct{})
							go func() { cx.Waker().Wake(); close(done) }()
							<-done
						}
						return Pending
					default:
						return Ready
					}
				}))
				if err != nil {
					t.Fatal(err)
				}
			}
			mustNil(t, waitAll(t, rt, hs))
			shutdown(t, rt)
			for i := range polls {
				if p := polls[i].Load(); p != 2 {
					t.Fatalf("task %d polled %d times, want 2", i, p)
				}
			}
			if m := rt.Metrics(); m.TotalPolls() != 2*n {
				t.Fatalf("want %d polls:\n%s", 2*n, m)
			}
		})
	}
}

// Many concurrent wakes of a waiting task schedule it once: it is never
// polled by two workers at once, and one poll absorbs any number of wakes
// that arrived before it.
func TestConcurrentWakesScheduleOnce(t *testing.T) {
	rt := start(t, testConfig(4))
	const rounds = 200
	var inPoll, polls, overlap atomic.Int32
	wakerCh := make(chan Waker, 1)
	h, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if inPoll.Add(1) != 1 {
			overlap.Add(1)
		}
		defer inPoll.Add(-1)
		p := polls.Add(1)
		if p == 1 {
			wakerCh <- cx.Waker()
		}
		if p > rounds {
			return Ready
		}
		return Pending
	}))
	if err != nil {
		t.Fatal(err)
	}
	w := <-wakerCh
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for polls.Load() <= rounds {
				w.Wake()
				// Let the workers run: four wakers spinning on two
				// loaded cores starve the polls they race with.
				runtime.Gosched()
			}
		}()
	}
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	wg.Wait()
	for i := 0; i < 100; i++ {
		w.Wake() // after completion: no-op
	}
	shutdown(t, rt)
	if overlap.Load() != 0 {
		t.Fatalf("task polled concurrently %d times", overlap.Load())
	}
	if p := polls.Load(); p != rounds+1 {
		t.Fatalf("polled %d times after Ready at poll %d", p, rounds+1)
	}
	if m := rt.Metrics(); m.TotalPolls() != rounds+1 {
		t.Fatalf("want %d polls:\n%s", rounds+1, m)
	}
}

// Waking a finished task does nothing: no poll, no error.
func TestWakeAfterCompletionIsNoop(t *testing.T) {
	rt := start(t, testConfig(2))
	var polls atomic.Int32
	var w Waker
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		polls.Add(1)
		w = cx.Waker()
		return Ready
	}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	for i := 0; i < 1000; i++ {
		w.Wake()
	}
	// A later task on the same runtime runs, and the finished one is
	// never polled again.
	h2, _ := rt.Spawn(Func(func() {}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{h2}))
	shutdown(t, rt)
	if polls.Load() != 1 || rt.Metrics().TotalPolls() != 2 {
		t.Fatalf("polls: task %d, total %d", polls.Load(), rt.Metrics().TotalPolls())
	}
}

// A storm of yielding tasks: every yield is exactly one more poll.
func TestYieldStorm(t *testing.T) {
	rt := start(t, testConfig(4))
	const n, yields = 400, 50
	hs := make([]*JoinHandle, n)
	counts := make([]int, n) // touched only by the task's own polls
	for i := range hs {
		hs[i], _ = rt.Spawn(TaskFunc(func(cx *Context) Poll {
			counts[i]++
			if counts[i] <= yields {
				return cx.Yield()
			}
			return Ready
		}))
	}
	mustNil(t, waitAll(t, rt, hs))
	shutdown(t, rt)
	for i, c := range counts {
		if c != yields+1 {
			t.Fatalf("task %d polled %d times", i, c)
		}
	}
	if m := rt.Metrics(); m.TotalPolls() != n*(yields+1) {
		t.Fatalf("want %d polls:\n%s", n*(yields+1), m)
	}
}

// Yield puts the task at the BACK of the ring: three yielding tasks on one
// worker take turns in spawn order.
func TestYieldGoesToBackOfRing(t *testing.T) {
	// The order of one worker's polls: with the monitor's help on, a worker
	// it starts when the one worker looks stuck (descheduled for LongPoll
	// on a loaded machine) would poll some of the tasks, out of order and
	// racing on order.
	rt := start(t, unhelpedConfig(1))
	const k, rounds = 3, 4
	var order []int // touched only by polls on the single worker
	var hs []*JoinHandle
	var hsMu sync.Mutex
	root, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		for id := 0; id < k; id++ {
			n := 0
			h, _ := cx.Spawn(TaskFunc(func(cx *Context) Poll {
				order = append(order, id)
				n++
				if n < rounds {
					return cx.Yield()
				}
				return Ready
			}))
			hsMu.Lock()
			hs = append(hs, h)
			hsMu.Unlock()
		}
		return Ready
	}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{root}))
	hsMu.Lock()
	mustNil(t, waitAll(t, rt, hs))
	hsMu.Unlock()
	shutdown(t, rt)
	for i, id := range order {
		if id != i%k {
			t.Fatalf("poll order %v, want round-robin over %d tasks", order, k)
		}
	}
	if len(order) != k*rounds {
		t.Fatalf("%d polls, want %d", len(order), k*rounds)
	}
}

// A task that yields runs again only after the global queue had its turn:
// a task spawned from outside while the yielder polls runs before the
// yielder's next poll, even though the yielder is the only task in the
// ring (before yields were deferred, the ring came first and the global
// task waited a whole fairness interval).
func TestYieldRunsAfterGlobalQueue(t *testing.T) {
	rt := start(t, unhelpedConfig(1)) // one worker's order, as in TestYieldGoesToBackOfRing
	var order []string                // touched only by polls on the single worker
	var remote *JoinHandle
	polls := 0
	h, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		polls++
		order = append(order, "yielder")
		if polls == 1 {
			var err error
			// From inside a poll, but through the Runtime: the remote
			// path, into the global queue.
			remote, err = rt.Spawn(Func(func() { order = append(order, "remote") }))
			if err != nil {
				t.Errorf("Go: %v", err)
			}
			return cx.Yield()
		}
		return Ready
	}))
	if err != nil {
		t.Fatal(err)
	}
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{remote}))
	shutdown(t, rt)
	if want := "[yielder remote yielder]"; fmt.Sprint(order) != want {
		t.Fatalf("poll order %v, want %s", order, want)
	}
}
