package engine

import (
	"iter"
	"sync"
)

// Every thread of a run is a coroutine (iter.Pull), and one driver
// goroutine per run resumes them (drive). A thread that hands over names
// the run's next thread and yields; the driver resumes that one. A
// coroutine switch goes straight from one goroutine to the other. The
// channel handoff it replaces went through the Go scheduler (the run
// queue, wakep's look for an idle P, the timer check of findRunnable) and
// was about an eighth of the explore layer's CPU; a round trip through
// two coroutine switches costs about a quarter of one through two
// channels (75 against 293 ns at GOMAXPROCS 1). The switch also orders
// the threads' memory accesses, for the Go memory model and the race
// detector (iter.Pull tells the detector so). A scenario's goroutine must
// not lock its OS thread (runtime.LockOSThread): Go's coroutine switch
// throws, a fatal error, when the locking differs from the coroutine's at
// its creation.

// coro is a coroutine that runs thread bodies one after another: when a
// body returns, the coroutine goes back to the pool and yields, and the
// next thread given it runs on its grown stack (a new goroutine starts
// with a small stack and grows it, a copy of every frame each time, as
// the instrumented code calls the explorer from deep inside the
// scheduler: stack copies were a sixth of a whole-runtime scenario's
// time). A body ended by Goexit ends its coroutine, which is then not
// reused, and the Goexit reaches the driver (drive).
type coro struct {
	next  func() (struct{}, bool)
	yield func(struct{}) bool
	body  func()
	drop  bool // set by a thread of an abandoned run (run.exit)
}

var coroPool struct {
	sync.Mutex
	free []*coro
}

// getCoro returns an idle coroutine, or a new one, that runs body when
// first resumed.
func getCoro(body func()) *coro {
	coroPool.Lock()
	var c *coro
	if n := len(coroPool.free); n > 0 {
		c = coroPool.free[n-1]
		coroPool.free = coroPool.free[:n-1]
	}
	coroPool.Unlock()
	if c == nil {
		c = &coro{}
		c.next, _ = iter.Pull(func(yield func(struct{}) bool) {
			c.yield = yield
			stackSink = growStack(len(stackSinkIdx))
			for {
				body := c.body
				c.body = nil
				body()
				if c.drop {
					return // a thread of an abandoned run: not reused
				}
				coroPool.Lock()
				coroPool.free = append(coroPool.free, c)
				coroPool.Unlock()
				if !yield(struct{}{}) {
					return
				}
			}
		})
	}
	c.body = body
	return c
}

// drive resumes the run's current thread until the run is over, then
// closes finished. A thread ended by Goexit (a teardown, or a Goexit of
// the scenario's own) ends its coroutine, and iter.Pull passes the Goexit
// on to the driver: its deferred call starts a new driver, which goes on
// with the thread the ended one handed to.
func (r *run) drive() {
	defer func() {
		if r.abandoned.Load() {
			return // the explorer gave up on the run (explorer.wait)
		}
		if r.ended {
			close(r.finished)
			return
		}
		go r.drive()
	}()
	for !r.ended && !r.abandoned.Load() {
		r.cur.co.next()
	}
}

// growStack grows a new coroutine's stack at once, while it holds one
// frame: copying it then costs nothing, where growing it step by step
// under the scheduler's deep calls copies every frame each time. A run torn
// down (a failure) ends its threads' coroutines with Goexit, so new ones
// start; a run that ends, a run the state cache cut too (it coasts to its
// end, statecache.go), leaves them for the next.
//
//go:noinline
func growStack(i int) byte {
	var pad [stackPad]byte
	pad[i] = 1 // an index not known when compiling: the array is kept
	return pad[stackPad-1-i]
}

const stackPad = 48 << 10

var (
	stackSink    byte
	stackSinkIdx []byte // empty: growStack's index is 0, unknown to the compiler
)
