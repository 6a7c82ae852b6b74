package racerecipe

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/forkjoin"
	"github.com/wsched/wsched/impl/sched"
)

// newRuntime starts a two-worker runtime. On Linux its workers park on a
// futex: the channel parker's sends and receives are happens-before
// edges the detector sees, which could hide a missing annotation.
func newRuntime(t *testing.T) *sched.Runtime {
	t.Helper()
	return newRuntimeWith(t, 2, 0)
}

// newRuntimeWith is newRuntime with the given workers and extra workers (0:
// the default).
func newRuntimeWith(t *testing.T, workers, extra int) *sched.Runtime {
	t.Helper()
	cfg := sched.DefaultConfig()
	cfg.Workers, cfg.ExtraWorkers = workers, extra
	if runtime.GOOS == "linux" {
		cfg.Parker = sched.ParkerFutex
	}
	rt, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Shutdown(context.Background()) })
	return rt
}

// waitFor spins until cond holds, for at most a second.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after a second: still waiting for %s", what)
		}
		runtime.Gosched()
	}
}

// completed waits until the runtime counted n finished tasks. Metrics
// reads wsched's counters, which order nothing for the detector in the
// recipe's build: the edge under test is the only one.
func completed(t *testing.T, rt *sched.Runtime, n uint64) {
	t.Helper()
	waitFor(t, "the tasks to finish", func() bool { return rt.Metrics().Completed >= n })
}

// Runtime.Spawn and Runtime.Go: the spawner's writes before the first poll.
func TestEdgeRemoteSpawn(t *testing.T) {
	rt := newRuntime(t)
	const n = 32
	data := make([]int, 2*n)
	var bad atomic.Int32
	for i := range n {
		data[i] = i + 1 // before the spawn
		if _, err := rt.Spawn(sched.Func(func() {
			if data[i] != i+1 { // in the poll
				bad.Add(1)
			}
		})); err != nil {
			t.Fatal(err)
		}
		data[n+i] = i + 1
		if err := rt.Go(func() {
			if data[n+i] != i+1 {
				bad.Add(1)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	completed(t, rt, 2*n)
	if bad.Load() != 0 {
		t.Fatalf("%d tasks read a value other than the one written before their spawn", bad.Load())
	}
}

// Runtime.Spawn: the spawner's writes before the first poll of a task
// that runs on another worker than the one that took it from the global
// queue. Two tasks keep both workers busy while four tasks are spawned:
// the first to end (it waits for the spawns) frees its worker, which
// takes all four in one batch (the batch is at least four), polls the
// first, which keeps it until the other three ran, and queues three in
// its ring; the other busy task ends later, by the clock, which orders
// nothing, and its worker finds the global queue empty and steals the
// three. That worker's last lock of the queue came before the spawns, so
// the lock could not stand in for the tasks' own edge there even if the
// detector saw it. (In race builds the queue's lock is impl/queue's own,
// out of the detector's sight in this build, globallock_race.go, so
// TestEdgeRemoteSpawn alone misses no spawn edge; this test keeps the
// stolen path checked whatever the lock becomes.) The clock may
// run out before the spawns are done (a loaded machine): the other worker
// may then take some of them from the global queue itself, under the
// lock. Only a round whose counters show the path counts: one global
// batch since the spawns began and a steal (whichever worker took the
// batch, the other stole from it, its last lock of the queue before the
// spawns). Rounds go on until eight counted; the test fails if none did
// in 64.
func TestEdgeRemoteSpawnStolen(t *testing.T) {
	rt := newRuntime(t)
	const want, tries = 8, 64
	stolen := 0
	for i := 0; i < tries && stolen < want; i++ {
		var started [2]atomic.Bool
		var spawned atomic.Bool
		busyA, err := rt.Spawn(sched.Func(func() {
			started[0].Store(true)
			waitFor(t, "the other busy task", started[1].Load)
			waitFor(t, "the spawns", spawned.Load)
		}))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		busyB, err := rt.Spawn(sched.Func(func() {
			started[1].Store(true)
			waitFor(t, "the other busy task", started[0].Load)
			for time.Since(start) < 20*time.Millisecond { // by the clock: it orders nothing
				runtime.Gosched()
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the busy tasks", func() bool { return started[0].Load() && started[1].Load() })
		before := rt.Metrics() // wsched's counters: they order nothing for the detector here
		var data [4]int
		var ran [4]atomic.Bool
		var workers [4]int
		hs := make([]*sched.JoinHandle, 4)
		for j := range hs {
			data[j] = i + 1 // before the spawn
			h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				workers[j] = cx.Worker()
				if j == 0 {
					waitFor(t, "the other three", func() bool { return ran[1].Load() && ran[2].Load() && ran[3].Load() })
				} else if data[j] != i+1 {
					t.Errorf("task %d read %d, want %d", j, data[j], i+1)
				}
				ran[j].Store(true)
				return sched.Ready
			}))
			if err != nil {
				t.Fatal(err)
			}
			hs[j] = h
		}
		spawned.Store(true)
		waitHandles(t, append(hs, busyA, busyB)...)
		after := rt.Metrics()
		batches, steals := takes(after)
		batches0, steals0 := takes(before)
		if batches-batches0 == 1 && steals > steals0 && workers[1] != workers[0] {
			stolen++
		}
	}
	if stolen == 0 {
		t.Fatalf("in %d rounds no task taken from the global queue was stolen from its taker's ring: the edge was not exercised", tries)
	}
	t.Logf("%d rounds with the steal", stolen)
}

// takes sums the workers' global batches and steals (extra workers
// included).
func takes(m sched.Metrics) (batches, steals uint64) {
	for _, w := range append(m.Workers, m.Extra...) {
		batches += w.GlobalBatches
		steals += w.Steals
	}
	return batches, steals
}

// Context.Spawn and Context.Go: a poll's writes before the child's first
// poll. The parent keeps its worker until the child ran, so the child runs
// on the other worker.
func TestEdgeLocalSpawn(t *testing.T) {
	rt := newRuntime(t)
	const n = 8
	var bad atomic.Int32
	for i := range n {
		var data [2]int
		var ran [2]atomic.Bool
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			data[0] = i + 1 // before the spawn
			if _, err := cx.Spawn(sched.Func(func() {
				if data[0] != i+1 {
					bad.Add(1)
				}
				ran[0].Store(true)
			})); err != nil {
				t.Error(err)
				return sched.Ready
			}
			data[1] = i + 1
			if err := cx.Go(func() {
				if data[1] != i+1 {
					bad.Add(1)
				}
				ran[1].Store(true)
			}); err != nil {
				t.Error(err)
				return sched.Ready
			}
			waitFor(t, "the children", func() bool { return ran[0].Load() && ran[1].Load() })
			return sched.Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if bad.Load() != 0 {
		t.Fatalf("%d children read a value other than the one written before their spawn", bad.Load())
	}
}

// A poll's end before the same task's next poll, on another worker: the
// first poll wakes a task u into its worker's LIFO slot, writes, and
// yields; u, polled next there, keeps that worker until the second poll
// ran, so the other worker takes the yielder from the ring.
func TestEdgePollToPoll(t *testing.T) {
	rt := newRuntime(t)
	const n = 8
	crossed := 0
	for i := range n {
		wakers := make(chan sched.Waker, 1)
		var second atomic.Bool
		uPolls := 0
		u, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			uPolls++
			if uPolls == 1 {
				wakers <- cx.Waker()
				return sched.Pending
			}
			waitFor(t, "the second poll", second.Load)
			return sched.Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		uw := <-wakers
		var data int
		polls, workers := 0, [2]int{}
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			workers[polls] = cx.Worker()
			polls++
			if polls == 1 {
				cx.Wake(uw)
				data = i + 1 // after the wake: only the poll's end orders it
				return cx.Yield()
			}
			if data != i+1 {
				t.Errorf("second poll read %d, want %d", data, i+1)
			}
			second.Store(true)
			return sched.Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		waitHandles(t, h, u)
		if workers[0] != workers[1] {
			crossed++
		}
	}
	mustHaveCrossed(t, crossed, n)
}

// A poll's end before the next poll of the same task, through a remote
// wake and the global queue: the first poll spawns a blocker task into its
// worker's ring, hands out its waker, writes, and returns Pending; the test
// goroutine wakes the task after the poll ended. When the blocker keeps the
// first poll's worker busy, the other worker takes the task from the global
// queue. Its lock orders the waker before that worker, not the first
// poll's end (the waker received the Waker before the write, and sleeps
// rather than synchronise; the first worker took no lock since): only the
// task's edge does, so the lock cannot stand in for it.
func TestEdgeRemoteWakeAfterPoll(t *testing.T) {
	rt := newRuntime(t)
	const n = 16
	crossed := 0
	for i := range n {
		wakers := make(chan sched.Waker, 1)
		var data, polls int
		var workers [2]int
		var second atomic.Bool
		var blocker *sched.JoinHandle
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			workers[polls] = cx.Worker()
			polls++
			if polls == 1 {
				var err error
				if blocker, err = cx.Spawn(sched.Func(func() { waitFor(t, "the second poll", second.Load) })); err != nil {
					t.Error(err)
					return sched.Ready
				}
				wakers <- cx.Waker()
				data = i + 1 // after the send: only the poll's end orders it
				return sched.Pending
			}
			if data != i+1 {
				t.Errorf("second poll read %d, want %d", data, i+1)
			}
			second.Store(true)
			return sched.Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		w := <-wakers
		time.Sleep(2 * time.Millisecond) // the first poll ended, the blocker runs: almost surely, and ordering nothing
		w.Wake()
		waitHandles(t, h, blocker)
		if workers[0] != workers[1] {
			crossed++
		}
	}
	mustHaveCrossed(t, crossed, n)
}

// waitHandles waits for each task in turn.
func waitHandles(t *testing.T, hs ...*sched.JoinHandle) {
	t.Helper()
	for _, h := range hs {
		if err := h.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// mustHaveCrossed fails the test if none of its n tries ran a task's second
// poll on another worker than its first.
func mustHaveCrossed(t *testing.T, crossed, n int) {
	t.Helper()
	if crossed == 0 {
		t.Fatalf("no second poll ran on another worker in %d tries: the edge was not exercised", n)
	}
}

// An extra worker's slot, used by one goroutine after another: Yield,
// inlined into this package and so compiled with the detector, writes the
// worker of the poll; the goroutine that retired from the slot must be
// before the next one the monitor starts in it. The only worker is stuck
// in a poll that blocks until released, so the tasks that yield run on the
// extra worker, and the test waits for them through the runtime's counters
// only, which order nothing for the detector: no Wait, no spawn links the
// two goroutines.
func TestEdgeExtraWorkerSlot(t *testing.T) {
	rt := newRuntimeWith(t, 1, 1)
	const rounds, yielders = 3, 4
	var done uint64
	for range rounds {
		started, release := make(chan struct{}), make(chan struct{})
		if err := rt.Go(func() { close(started); <-release }); err != nil {
			t.Fatal(err)
		}
		<-started
		for range yielders {
			polls := 0
			if err := rt.Go(func() {}); err != nil { // a Go record; the yielder below has a handle
				t.Fatal(err)
			}
			if _, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
				if polls++; polls < 3 {
					return cx.Yield()
				}
				return sched.Ready
			})); err != nil {
				t.Fatal(err)
			}
		}
		done += 2 * yielders
		completed(t, rt, done) // on the extra worker: the only worker is stuck
		close(release)
		done++
		completed(t, rt, done)
		waitFor(t, "the extra worker to retire", func() bool { return rt.Metrics().ExtraRunning == 0 })
	}
	if m := rt.Metrics(); m.ExtraStarted < rounds {
		t.Fatalf("%d extra workers started in %d rounds: the slot was not reused", m.ExtraStarted, rounds)
	}
}

// Context.Sleep: the poll that slept before the poll the timer causes.
func TestEdgeSleep(t *testing.T) {
	rt := newRuntime(t)
	var data, polls int
	h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		polls++
		if polls == 1 {
			data = 1
			cx.Sleep(time.Millisecond)
			return sched.Pending
		}
		if data != 1 {
			t.Errorf("after the sleep: read %d, want 1", data)
		}
		return sched.Ready
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Waker.Wake and Context.Wake: the waker's writes before the poll the wake
// causes. The wake comes while the task is still in its first poll (it
// sleeps there), so the task is requeued by its own worker, not through
// the global queue, whose lock is an edge the detector sees.
func TestEdgeWake(t *testing.T) {
	for _, remote := range []bool{true, false} {
		name := map[bool]string{true: "Waker.Wake", false: "Context.Wake"}[remote]
		t.Run(name, func(t *testing.T) {
			rt := newRuntime(t)
			const n = 4
			for i := range n {
				wakers := make(chan sched.Waker, 1)
				var data, polls int
				h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
					polls++
					if polls == 1 {
						wakers <- cx.Waker()
						time.Sleep(5 * time.Millisecond) // the wake comes meanwhile
						return sched.Pending
					}
					if data != i+1 {
						t.Errorf("after the wake: read %d, want %d", data, i+1)
					}
					return sched.Ready
				}))
				if err != nil {
					t.Fatal(err)
				}
				w := <-wakers
				if remote {
					data = i + 1 // before the wake
					w.Wake()
				} else {
					g, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
						data = i + 1
						cx.Wake(w)
						return sched.Ready
					}))
					if err != nil {
						t.Fatal(err)
					}
					if err := g.Wait(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				if err := h.Wait(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// A task's finish before JoinHandle.Wait's return. The task has finished
// before Wait is called, so Wait takes its fast path (no channel).
func TestEdgeFinishWait(t *testing.T) {
	rt := newRuntime(t)
	const n = 16
	data := make([]int, n)
	hs := make([]*sched.JoinHandle, n)
	for i := range n {
		h, err := rt.Spawn(sched.Func(func() { data[i] = i + 1 }))
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	completed(t, rt, n)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, h := range hs {
		if err := h.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		if data[i] != i+1 { // after the Wait
			t.Fatalf("after Wait: read %d, want %d", data[i], i+1)
		}
	}
}

// A poll that calls runtime.Goexit before Wait's return (ErrGoexit): the
// worker's goroutine ends inside the poll, and a new one goes on.
func TestEdgeGoexit(t *testing.T) {
	rt := newRuntime(t)
	var data int
	h, err := rt.Spawn(sched.Func(func() {
		data = 1 // before the Goexit
		runtime.Goexit()
	}))
	if err != nil {
		t.Fatal(err)
	}
	// Finished by then, almost surely (the count of finished tasks is
	// published at a tick's end, which a Goexit postpones); if not, Wait
	// blocks on a channel and the test checks less, never wrongly.
	time.Sleep(20 * time.Millisecond)
	if err := h.Wait(context.Background()); !errors.Is(err, sched.ErrGoexit) {
		t.Fatalf("Wait: %v, want ErrGoexit", err)
	}
	if data != 1 {
		t.Fatalf("after Wait: read %d, want 1", data)
	}
}

// Every task's finish before Shutdown's return.
func TestEdgeShutdown(t *testing.T) {
	rt := newRuntime(t)
	const n = 16
	data := make([]int, n)
	for i := range n {
		if err := rt.Go(func() { data[i] = i + 1 }); err != nil {
			t.Fatal(err)
		}
	}
	completed(t, rt, n)
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if data[i] != i+1 {
			t.Fatalf("after Shutdown: read %d, want %d", data[i], i+1)
		}
	}
}

func newPool(t *testing.T) *forkjoin.Pool {
	t.Helper()
	p, err := forkjoin.New(forkjoin.Config{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Worker.Join: the fork before b's run, b's run before the join. a keeps
// its worker until b ran, so b runs on the other worker.
func TestEdgeJoin(t *testing.T) {
	p := newPool(t)
	for i := range 8 {
		var in, out int
		var ran atomic.Bool
		var bad bool
		if err := p.Run(func(w *forkjoin.Worker) {
			in = i + 1 // before the fork
			if err := w.Join(func(*forkjoin.Worker) {
				waitFor(t, "b", ran.Load)
			}, func(*forkjoin.Worker) {
				bad = in != i+1
				ran.Store(true)
				out = i + 1 // before the join; after the store, which orders only what precedes it
			}); err != nil {
				t.Error(err)
			}
			if bad || out != i+1 { // after the join
				t.Errorf("b read %d (want %d), the join read %d", in, i+1, out)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// Worker.Scope and Scope.Spawn: the spawn before the job's run, every job
// before the scope's end; and Pool.Run: the caller before the run, the run
// before Run's return.
func TestEdgeScopeAndRun(t *testing.T) {
	p := newPool(t)
	for i := range 8 {
		var in, out, caller, back int
		var ran atomic.Bool
		var bad bool
		caller = i + 1 // before Run
		if err := p.Run(func(w *forkjoin.Worker) {
			bad = caller != i+1
			if err := w.Scope(func(s *forkjoin.Scope) {
				in = i + 1 // before the spawn
				if err := s.Spawn(func(*forkjoin.Scope) {
					bad = bad || in != i+1
					ran.Store(true)
					out = i + 1 // before the scope's end; after the store, as in TestEdgeJoin
				}); err != nil {
					t.Error(err)
				}
				waitFor(t, "the spawned job", ran.Load)
			}); err != nil {
				t.Error(err)
			}
			if out != i+1 { // after the scope
				t.Errorf("after the scope: read %d, want %d", out, i+1)
			}
			back = i + 1 // before Run's return
		}); err != nil {
			t.Fatal(err)
		}
		if bad || back != i+1 {
			t.Fatalf("a job read an old value (caller %d, in %d), Run's caller read %d", caller, in, back)
		}
	}
}
