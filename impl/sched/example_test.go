package sched_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/wsched/wsched/impl/sched"
)

// Spawn a poll-based task and wait for it.
func Example_spawn() {
	rt, err := sched.New(sched.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer rt.Shutdown(context.Background())

	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		fmt.Println("polled")
		return sched.Ready
	}))
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// polled
	// <nil>
}

// Go runs a plain function as a task with no handle, like a go statement.
// Spawn(Func(f)) runs it with one: then f's panic reaches Wait.
func Example_go() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	defer rt.Shutdown(context.Background())

	done := make(chan struct{})
	if err := rt.Go(func() { fmt.Println("hello from a worker"); close(done) }); err != nil {
		panic(err)
	}
	<-done

	h, _ := rt.Spawn(sched.Func(func() { panic("bad input") }))
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// hello from a worker
	// sched: task panicked: bad input
}

// A task that yields runs again later, after other tasks had their turn.
func Example_yield() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	defer rt.Shutdown(context.Background())

	n := 0
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		n++
		if n < 3 {
			return cx.Yield()
		}
		return sched.Ready
	}))
	h.Wait(context.Background())
	fmt.Println("polls:", n)
	// Output:
	// polls: 3
}

// A Waker resumes a task from any goroutine.
func Example_waker() {
	rt, _ := sched.New(sched.Config{Workers: 2})
	defer rt.Shutdown(context.Background())

	var ready atomic.Bool
	wakers := make(chan sched.Waker, 1)
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		if ready.Load() {
			return sched.Ready
		}
		select {
		case wakers <- cx.Waker():
		default:
		}
		return sched.Pending
	}))
	w := <-wakers
	ready.Store(true)
	w.Wake()
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// <nil>
}

// Sleep wakes the task after a duration.
func Example_sleep() {
	rt, _ := sched.New(sched.DefaultConfig())
	defer rt.Shutdown(context.Background())

	slept := false
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		if !slept {
			slept = true
			cx.Sleep(time.Millisecond)
			return sched.Pending
		}
		return sched.Ready
	}))
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// <nil>
}

// Shutdown cancels tasks that are still waiting.
func Example_shutdown() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		return sched.Pending // nobody will wake it
	}))
	for rt.Metrics().TotalPolls() == 0 {
		time.Sleep(time.Millisecond)
	}
	rt.Shutdown(context.Background())
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// sched: task cancelled by shutdown
}
