package stress

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// TestSchedShutdownUnderLoad shuts the runtime down from four goroutines
// at once while thousands of tasks are queued (spawned faster than they
// run), running (yielding forever), waiting for a wake that never comes,
// sleeping for an hour, and spawning children as fast as they can. Then it
// shuts down once more. Every call returns nil; afterwards every handle
// answers at once, never-ending tasks with ErrCancelled, and no task body
// starts after Shutdown has returned.
func TestSchedShutdownUnderLoad(t *testing.T) { forSizes(t, stressSizes, schedShutdownUnderLoad) }

func schedShutdownUnderLoad(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	each := 1000 * stressScale()
	var after atomic.Bool // set once Shutdown has returned
	var lateBodies atomic.Int32
	body := func(f func(cx *sched.Context) sched.Poll) func(cx *sched.Context) sched.Poll {
		return func(cx *sched.Context) sched.Poll {
			if after.Load() {
				lateBodies.Add(1)
			}
			return f(cx)
		}
	}
	var mu sync.Mutex
	var never, any []*sched.JoinHandle // must be cancelled / either outcome
	add := func(list *[]*sched.JoinHandle, h *sched.JoinHandle) {
		mu.Lock()
		*list = append(*list, h)
		mu.Unlock()
	}
	for range each {
		add(&never, e.spawn(body(func(cx *sched.Context) sched.Poll { return cx.Yield() })))
		add(&never, e.spawn(body(func(*sched.Context) sched.Poll { return sched.Pending })))
		add(&never, e.spawn(body(func(cx *sched.Context) sched.Poll {
			if err := cx.Sleep(time.Hour); err != nil {
				t.Errorf("Sleep: %v", err)
			}
			return sched.Pending
		})))
		add(&any, e.spawn(body(func(*sched.Context) sched.Poll { return sched.Ready })))
	}
	for range 4 * e.workers {
		add(&any, e.spawn(body(func(cx *sched.Context) sched.Poll {
			h, err := cx.Spawn(e.task(body(func(*sched.Context) sched.Poll { return sched.Ready })))
			if err != nil {
				if !errors.Is(err, sched.ErrShutdown) {
					t.Errorf("Context.Spawn during Shutdown: %v", err)
				}
				return sched.Ready
			}
			add(&any, h)
			return cx.Yield()
		})))
	}
	startLine := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			<-startLine
			if err := e.rt.Shutdown(e.ctx); err != nil {
				t.Errorf("concurrent Shutdown: %v", err)
			}
		})
	}
	close(startLine)
	wg.Wait()
	if t.Failed() {
		e.hang("concurrent Shutdown failed")
	}
	after.Store(true)
	e.shutdown() // once more; also checks the accounting

	if err := e.rt.Go(func() {}); !errors.Is(err, sched.ErrShutdown) {
		t.Errorf("Go after Shutdown = %v, want ErrShutdown", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, h := range never {
		if err := e.wait(h, "never-ending task"); !errors.Is(err, sched.ErrCancelled) {
			t.Fatalf("never-ending task %d: Wait = %v, want ErrCancelled", i, err)
		}
	}
	for i, h := range any {
		if err := e.wait(h, "task"); err != nil && !errors.Is(err, sched.ErrCancelled) {
			t.Fatalf("task %d: Wait = %v, want nil or ErrCancelled", i, err)
		}
	}
	if n := lateBodies.Load(); n != 0 {
		t.Errorf("%d polls started after Shutdown returned", n)
	}
	m := e.rt.Metrics()
	t.Logf("completed %d, cancelled %d", m.Completed, m.Cancelled)
}

// TestSchedShutdownBlockedPoll: while a poll holds its worker, Shutdown
// with a short context returns the context's error and the shutdown goes
// on; a later Shutdown returns nil once the poll has returned.
func TestSchedShutdownBlockedPoll(t *testing.T) { forSizes(t, stressSizes, schedShutdownBlockedPoll) }

func schedShutdownBlockedPoll(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	entered, release := make(chan struct{}), make(chan struct{})
	h := e.spawn(func(*sched.Context) sched.Poll {
		close(entered)
		<-release
		return sched.Ready
	})
	select {
	case <-entered:
	case <-e.ctx.Done():
		e.hang("the blocking poll to start")
	}
	for range 100 {
		e.spawn(func(*sched.Context) sched.Poll { return sched.Ready })
	}
	short, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := e.rt.Shutdown(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown with a poll blocked = %v, want DeadlineExceeded", err)
	}
	if _, err := e.rt.Spawn(e.task(func(*sched.Context) sched.Poll { return sched.Ready })); !errors.Is(err, sched.ErrShutdown) {
		t.Errorf("Spawn after a timed-out Shutdown = %v, want ErrShutdown", err)
	}
	close(release)
	e.shutdown()
	if err := e.wait(h, "the blocking task"); err != nil {
		t.Errorf("the blocking task returned Ready: Wait = %v", err)
	}
}

// TestSchedPanicStorm: a quarter of many tasks panic, at their first poll or
// after yielding; the workers survive, every panic reaches its handle with
// its value, and every other task completes exactly once.
func TestSchedPanicStorm(t *testing.T) { forSizes(t, stressSizes, schedPanicStorm) }

func schedPanicStorm(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	n := 4000 * stressScale()
	ran := make(once, n)
	hs := make([]*sched.JoinHandle, n)
	for i := range hs {
		polls := 0
		hs[i] = e.spawn(func(cx *sched.Context) sched.Poll {
			polls++
			if polls <= i%3 {
				return cx.Yield()
			}
			ran[i].Add(1)
			if i%4 == 0 {
				panic(fmt.Sprint("task ", i))
			}
			return sched.Ready
		})
	}
	for i, h := range hs {
		err := e.wait(h, "task among panics")
		if i%4 != 0 {
			if err != nil {
				t.Fatalf("task %d: Wait = %v", i, err)
			}
			continue
		}
		var pe *sched.PanicError
		if !errors.As(err, &pe) || pe.Value != fmt.Sprint("task ", i) {
			t.Fatalf("panicking task %d: Wait = %v", i, err)
		}
	}
	ran.check(t, "bodies", 1)
	e.shutdown()
	if m := e.rt.Metrics(); m.Completed != uint64(n) {
		t.Errorf("Completed %d, want %d (panics count as completed)", m.Completed, n)
	}
}

// TestSchedShutdownRacesRemote: goroutines outside the runtime keep
// spawning tasks and waking waiting tasks while Shutdown runs. Every Spawn
// either fails with ErrShutdown or returns a handle that answers (nil or
// ErrCancelled); no wake panics or resurrects a task; the accounting adds
// up. This is the window between a remote caller's shutdown check and its
// push to the global queue.
func TestSchedShutdownRacesRemote(t *testing.T) {
	forSizes(t, stressSizes, schedShutdownRacesRemote)
}

func schedShutdownRacesRemote(t *testing.T, cfg sched.Config) {
	for range 3 {
		t.Run("", func(t *testing.T) { shutdownRacesRemoteOnce(t, cfg) })
	}
}

func shutdownRacesRemoteOnce(t *testing.T, cfg sched.Config) {
	e := newSchedEnv(t, cfg)
	const waiters = 64
	wakers := make([]sched.Waker, waiters)
	var published atomic.Int32
	var hs []*sched.JoinHandle
	for i := range waiters {
		hs = append(hs, e.spawn(func(cx *sched.Context) sched.Poll {
			if wakers[i] == (sched.Waker{}) {
				wakers[i] = cx.Waker()
				published.Add(1)
			}
			return sched.Pending // woken again and again, never finished
		}))
	}
	e.until(func() bool { return published.Load() == waiters }, "every waiter published its waker")

	var mu sync.Mutex
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() { // spawner
			for n := 0; n < 5000 && !stop.Load(); n++ {
				h, err := e.rt.Spawn(e.task(func(*sched.Context) sched.Poll { return sched.Ready }))
				if err != nil {
					if !errors.Is(err, sched.ErrShutdown) {
						t.Errorf("Spawn racing Shutdown: %v", err)
					}
					return
				}
				mu.Lock()
				hs = append(hs, h)
				mu.Unlock()
			}
		})
		wg.Go(func() { // waker
			for k := g; !stop.Load(); k++ {
				wakers[k%waiters].Wake()
				if k%64 == 0 {
					runtime.Gosched() // leave the two cores to the workers now and then
				}
			}
		})
	}
	time.Sleep(time.Millisecond)
	if err := e.rt.Shutdown(e.ctx); err != nil {
		e.hang("Shutdown racing remote spawns and wakes: %v", err)
	}
	for i := range wakers { // after Shutdown too
		wakers[i].Wake()
	}
	stop.Store(true)
	wg.Wait()
	e.shutdown()
	mu.Lock()
	defer mu.Unlock()
	for i, h := range hs {
		if err := e.wait(h, "task spawned around Shutdown"); err != nil && !errors.Is(err, sched.ErrCancelled) {
			t.Fatalf("task %d: Wait = %v, want nil or ErrCancelled", i, err)
		}
	}
	for i, h := range hs[:waiters] {
		if err := e.wait(h, "waiter"); !errors.Is(err, sched.ErrCancelled) {
			t.Fatalf("waiter %d: Wait = %v, want ErrCancelled", i, err)
		}
	}
}
