package stress

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedSpawnStormOutside: goroutines outside the runtime spawn many
// one-poll tasks at once (a TaskFunc and a Func alternately) into the global queue.
// Every body runs exactly once and every handle returns nil.
func TestSchedSpawnStormOutside(t *testing.T) { forSizes(t, stressSizes, schedSpawnStormOutside) }

func schedSpawnStormOutside(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	spawners, per := 8, 3000*stressScale()
	ran := make(once, spawners*per)
	hs := make([]*sched.JoinHandle, len(ran))
	var wg sync.WaitGroup
	for s := range spawners {
		wg.Go(func() {
			for i := s * per; i < (s+1)*per; i++ {
				var err error
				if i%2 == 0 {
					hs[i], err = e.rt.Spawn(e.task(func(*sched.Context) sched.Poll { ran[i].Add(1); return sched.Ready }))
				} else {
					hs[i], err = e.rt.Spawn(sched.Func(e.fn(func() { ran[i].Add(1) })))
				}
				if err != nil {
					t.Errorf("spawn: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	e.waitAll(hs, "task")
	ran.check(t, "bodies", 1)
}

// TestSchedSpawnStormInside: tasks spawn many children from inside their
// polls (onto their worker's ring), a few per poll, yielding between
// batches, while idle workers steal. A third of the children are Go funcs,
// whose records the runtime recycles: each must run once, like the rest.
func TestSchedSpawnStormInside(t *testing.T) { forSizes(t, stressSizes, schedSpawnStormInside) }

func schedSpawnStormInside(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	roots, perRoot, perPoll := 16, 1500*stressScale(), 7
	ran := make(once, roots*perRoot)
	var mu sync.Mutex
	var children []*sched.JoinHandle
	// Go funcs have no handle: they count down, the last one closes goDone.
	var goLeft atomic.Int64
	goLeft.Store(1) // released after the roots, so goDone closes only once all were spawned
	goDone := make(chan struct{})
	goFinished := func() {
		if goLeft.Add(-1) == 0 {
			close(goDone)
		}
	}
	rootHs := make([]*sched.JoinHandle, roots)
	for r := range roots {
		next := 0
		rootHs[r] = e.spawn(func(cx *sched.Context) sched.Poll {
			for k := 0; k < perPoll && next < perRoot; k, next = k+1, next+1 {
				id := r*perRoot + next
				if id%3 == 0 {
					goLeft.Add(1)
					if err := cx.Go(e.fn(func() { ran[id].Add(1); goFinished() })); err != nil {
						t.Errorf("Go from inside: %v", err)
						return sched.Ready
					}
					continue
				}
				h, err := cx.Spawn(e.task(func(*sched.Context) sched.Poll { ran[id].Add(1); return sched.Ready }))
				if err != nil {
					t.Errorf("spawn from inside: %v", err)
					return sched.Ready
				}
				mu.Lock()
				children = append(children, h)
				mu.Unlock()
			}
			if next == perRoot {
				return sched.Ready
			}
			return cx.Yield()
		})
	}
	e.waitAll(rootHs, "root")
	mu.Lock()
	hs := children
	mu.Unlock()
	e.waitAll(hs, "child")
	goFinished()
	select {
	case <-goDone:
	case <-e.ctx.Done():
		e.hang("waiting for the last Go func (%d left)", goLeft.Load())
	}
	ran.check(t, "children", 1)
}

// TestSchedSpawnTrees grows random spawn trees (fan-out 2..8) from inside
// tasks. An inner node returns Pending until all its children have
// finished; each child records its completion before waking its parent
// (through Context.Wake, the LIFO slot, or Waker.Wake). A lost wake hangs a
// root; a lost or duplicated task breaks a counter.
func TestSchedSpawnTrees(t *testing.T) { forSizes(t, stressSizes, schedSpawnTrees) }

func schedSpawnTrees(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const trees = 4
	budget := 6000 * stressScale() // nodes per tree: a node of size s has children summing to s-1
	// Ids start at 1; one more than every node of every tree, at any
	// WSCHED_STRESS_SCALE (a fixed 1<<16 overflowed at the -long scale).
	maxNodes := trees*budget + 1
	var nextID atomic.Int64
	started := make(once, maxNodes)
	finished := make(once, maxNodes)

	type node struct {
		pending atomic.Int32
		waker   sched.Waker
	}
	var grow func(id int, size int, rng *rand.Rand, parent *node) sched.Task
	grow = func(id int, size int, rng *rand.Rand, parent *node) sched.Task {
		me := &node{}
		polls := 0
		return e.task(func(cx *sched.Context) sched.Poll {
			polls++
			if polls == 1 {
				started[id].Add(1)
				if size > 1 {
					fan := min(2+rng.IntN(7), size-1)
					me.pending.Store(int32(fan))
					me.waker = cx.Waker()
					rest := size - 1
					for k := range fan {
						sub := rest / (fan - k)
						rest -= sub
						cid := int(nextID.Add(1))
						if cid >= maxNodes {
							t.Errorf("tree larger than %d nodes", maxNodes)
							return sched.Ready
						}
						child := grow(cid, sub, rand.New(rand.NewPCG(rng.Uint64(), uint64(cid))), me)
						if _, err := cx.Spawn(child); err != nil {
							t.Errorf("Context.Spawn: %v", err)
						}
					}
				}
			}
			if me.pending.Load() != 0 {
				return sched.Pending
			}
			finished[id].Add(1)
			if parent != nil {
				parent.pending.Add(-1)
				if id%2 == 0 {
					cx.Wake(parent.waker)
				} else {
					parent.waker.Wake()
				}
			}
			return sched.Ready
		})
	}
	hs := make([]*sched.JoinHandle, trees)
	for i := range trees {
		id := int(nextID.Add(1))
		h, err := e.rt.Spawn(grow(id, budget, rand.New(rand.NewPCG(uint64(i), 7)), nil))
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	e.waitAll(hs, "tree root")
	n := int(nextID.Load()) + 1
	started[1:n].check(t, "tree nodes started", 1)
	finished[1:n].check(t, "tree nodes finished", 1)
}

// TestSchedSpawnBurstOverflow: single polls that spawn far more than the
// 256-slot ring holds, so the ring overflows half of itself into the global
// queue again and again while thieves steal from it. With one worker nobody
// else drains the ring during the poll, so overflow is certain.
func TestSchedSpawnBurstOverflow(t *testing.T) { forSizes(t, stressSizes, schedSpawnBurstOverflow) }

func schedSpawnBurstOverflow(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	bursts, perBurst := 8, 1500*stressScale()
	ran := make(once, bursts*perBurst)
	hs := make([][]*sched.JoinHandle, bursts)
	burstHs := make([]*sched.JoinHandle, bursts)
	for b := range bursts {
		burstHs[b] = e.spawn(func(cx *sched.Context) sched.Poll {
			for i := range perBurst {
				id := b*perBurst + i
				h, err := cx.Spawn(e.task(func(*sched.Context) sched.Poll { ran[id].Add(1); return sched.Ready }))
				if err != nil {
					t.Errorf("burst spawn: %v", err)
					return sched.Ready
				}
				hs[b] = append(hs[b], h)
			}
			return sched.Ready
		})
	}
	e.waitAll(burstHs, "burst")
	for b := range bursts {
		e.waitAll(hs[b], fmt.Sprintf("task of burst %d", b))
	}
	ran.check(t, "burst tasks", 1)
	// The extra workers' counts too: a burst's poll may run on one (the
	// monitor starts one when a poll looks long, as any may under load).
	var overflows, steals uint64
	m := e.rt.Metrics()
	for _, w := range append(m.Workers, m.Extra...) {
		overflows += w.Overflows
		steals += w.Steals
	}
	t.Logf("overflows %d, steals %d", overflows, steals)
	if e.workers == 1 && overflows == 0 {
		t.Errorf("one worker spawned %d tasks in one poll and its ring never overflowed\n%s", perBurst, e.rt.Metrics())
	}
}
