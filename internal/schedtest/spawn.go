package schedtest

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// checkExactlyOnceFromOutside spawns many one-poll tasks from several
// goroutines at once, half through Spawn and half through Go, and requires
// every body to run exactly once and every handle to return nil.
func checkExactlyOnceFromOutside(e *env) {
	const spawners, perSpawner = 4, 500
	const n = spawners * perSpawner
	ran := make(counters, n)
	hs := make([]Handle, n)
	var wg sync.WaitGroup
	for s := range spawners {
		wg.Go(func() {
			for i := s * perSpawner; i < (s+1)*perSpawner; i++ {
				var err error
				if i%2 == 0 {
					hs[i], err = e.rt.Spawn(e.guard(func(Ctx) Poll { ran[i].Add(1); return Ready }))
				} else {
					hs[i], err = e.rt.SpawnFunc(e.counted(func() { ran[i].Add(1) }))
				}
				if err != nil {
					e.t.Errorf("spawn %d: %v", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if e.t.Failed() {
		return
	}
	for i, h := range hs {
		e.waitOK(h, fmt.Sprintf("task %d", i))
	}
	ran.check(e.t, "bodies", 1)
	// The counters are final once the workers have exited: a handle may be
	// released a moment before its worker records the completion.
	e.shutdownClean()
	m := e.rt.Metrics()
	if m.Spawned != n || m.Completed != n || m.Cancelled != 0 || m.Polls != n {
		e.t.Errorf("Metrics: Spawned %d Completed %d Cancelled %d Polls %d, want %d %d 0 %d\n%s",
			m.Spawned, m.Completed, m.Cancelled, m.Polls, n, n, n, m.Dump)
	}
}

// checkExactlyOnceGo runs waves of Go funcs, each wave spawned from inside
// a task with Context.Go and some from outside with Runtime.Go, and
// requires every func to run exactly once. A wave starts only when the
// last one finished, so an implementation that reuses the records of
// finished Go funcs (impl/sched does) reuses them wave after wave: a
// record run twice, or reused while still queued, shows as a func run
// twice or never.
func checkExactlyOnceGo(e *env) {
	const waves, perWave = 30, 300
	ran := make(counters, waves*perWave)
	for w := range waves {
		var left atomic.Int32
		left.Store(perWave)
		done := make(chan struct{})
		body := func(i int) func() {
			return e.counted(func() {
				ran[i].Add(1)
				if left.Add(-1) == 0 {
					close(done)
				}
			})
		}
		base := w * perWave
		// A tenth from outside, the rest from inside one task.
		for i := base; i < base+perWave/10; i++ {
			if err := e.rt.Go(body(i)); err != nil {
				e.t.Fatalf("Go: %v", err)
			}
		}
		e.waitOK(e.spawn(func(cx Ctx) Poll {
			for i := base + perWave/10; i < base+perWave; i++ {
				if err := cx.Go(body(i)); err != nil {
					e.t.Errorf("Context.Go: %v", err)
				}
			}
			return Ready
		}), fmt.Sprintf("the spawner of wave %d", w))
		recv(e, done, fmt.Sprintf("the last Go func of wave %d", w))
	}
	ran.check(e.t, "Go funcs", 1)
	e.shutdownClean()
	const n = waves * (perWave + 1)
	m := e.rt.Metrics()
	if m.Spawned != n || m.Completed != n || m.Cancelled != 0 || m.Polls != n {
		e.t.Errorf("Metrics: Spawned %d Completed %d Cancelled %d Polls %d, want %d %d 0 %d\n%s",
			m.Spawned, m.Completed, m.Cancelled, m.Polls, n, n, n, m.Dump)
	}
}

// treeNode is one task of a spawn tree: it counts the children that have
// not finished yet, and each child decrements the count before it wakes
// its parent.
type treeNode struct {
	pending atomic.Int32
	waker   Waker
}

// checkExactlyOnceTree grows spawn trees from inside tasks. Each inner node
// spawns its children (Spawn for inner nodes, Go for every other leaf),
// returns Pending, and finishes once all children have finished and woken
// it (through Context.Wake or Waker.Wake). A lost wake leaves a root
// unfinished; a duplicated or lost task breaks a per-node counter.
func checkExactlyOnceTree(e *env) {
	const roots, fanout, depth = 4, 4, 4
	perRoot := 0
	for l, w := 0, 1; l <= depth; l, w = l+1, w*fanout {
		perRoot += w
	}
	started := make([]counters, roots)
	finished := make([]counters, roots)
	for r := range roots {
		started[r] = make(counters, perRoot)
		finished[r] = make(counters, perRoot)
	}

	// leaf is a Go body: it has no poll of its own to wait in.
	leaf := func(r, id int, parent *treeNode) func() {
		return func() {
			started[r][id].Add(1)
			finished[r][id].Add(1)
			parent.pending.Add(-1)
			parent.waker.Wake()
		}
	}
	var node func(r, id, level int, parent *treeNode) PollFunc
	node = func(r, id, level int, parent *treeNode) PollFunc {
		me := &treeNode{}
		polls := 0 // touched only by this task's polls, which the scheduler orders
		return func(cx Ctx) Poll {
			polls++
			if polls == 1 {
				started[r][id].Add(1)
				if level < depth {
					me.pending.Store(fanout)
					me.waker = cx.Waker()
					for k := range fanout {
						child := id*fanout + k + 1
						var err error
						if level+1 == depth && k%2 == 1 {
							err = cx.Go(e.counted(leaf(r, child, me)))
						} else {
							_, err = cx.Spawn(e.guard(node(r, child, level+1, me)))
						}
						if err != nil {
							e.t.Errorf("spawn from inside: %v", err)
						}
					}
				}
			}
			if level < depth && me.pending.Load() != 0 {
				return Pending
			}
			// Every poll after the first was caused by one of the fanout
			// wakes.
			if level < depth && polls > fanout+1 {
				e.t.Errorf("node %d/%d polled %d times, at most %d wakes", r, id, polls, fanout)
			}
			finished[r][id].Add(1)
			if parent != nil {
				parent.pending.Add(-1)
				if id%2 == 0 {
					cx.Wake(parent.waker)
				} else {
					parent.waker.Wake()
				}
			}
			return Ready
		}
	}

	hs := make([]Handle, roots)
	for r := range roots {
		hs[r] = e.spawn(node(r, 0, 0, nil))
	}
	for r, h := range hs {
		e.waitOK(h, fmt.Sprintf("root %d", r))
	}
	for r := range roots {
		started[r].check(e.t, fmt.Sprintf("root %d started", r), 1)
		finished[r].check(e.t, fmt.Sprintf("root %d finished", r), 1)
	}
	// A leaf may still be returning from its last poll when its root is
	// released; after Shutdown every count is final.
	e.shutdownClean()
	m := e.rt.Metrics()
	if want := uint64(roots * perRoot); m.Spawned != want || m.Completed != want {
		e.t.Errorf("Metrics: Spawned %d Completed %d, want %d\n%s", m.Spawned, m.Completed, want, m.Dump)
	}
}
