package sched_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wsched/wsched/spec/sched"
)

// Go runs a function to completion in one poll, with no handle, like a go
// statement.
func ExampleRuntime_Go() {
	rt, err := sched.New(sched.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer rt.Shutdown(context.Background())

	done := make(chan struct{})
	if err := rt.Go(func() { fmt.Println("hello from a worker"); close(done) }); err != nil {
		panic(err)
	}
	<-done
	// Output:
	// hello from a worker
}

// Spawn(Func(f)) runs f in one poll and gives a handle to wait for it.
func ExampleFunc() {
	rt, _ := sched.New(sched.Config{Workers: 2})
	defer rt.Shutdown(context.Background())

	h, _ := rt.Spawn(sched.Func(func() { fmt.Println("hello from a worker") }))
	fmt.Println(h.Wait(context.Background()))
	// Output:
	// hello from a worker
	// <nil>
}

// A task that waits for an event: it returns Pending until the event has
// happened, and whoever makes it happen calls the task's waker afterwards.
func ExampleWaker() {
	rt, _ := sched.New(sched.Config{Workers: 2})
	defer rt.Shutdown(context.Background())

	ready := make(chan sched.Waker, 1)
	var value int // written before the wake, read by the poll after it
	done := false
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		if done {
			fmt.Println("got", value)
			return sched.Ready
		}
		ready <- cx.Waker()
		return sched.Pending
	}))

	w := <-ready // the first poll has returned Pending
	value, done = 42, true
	w.Wake()
	h.Wait(context.Background())
	// Output: got 42
}

// Yield lets other tasks run; the task is polled again later.
func ExampleContext_Yield() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	defer rt.Shutdown(context.Background())

	polls := 0
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		polls++
		if polls < 3 {
			return cx.Yield()
		}
		return sched.Ready
	}))
	h.Wait(context.Background())
	fmt.Println("polls:", polls)
	// Output: polls: 3
}

// Sleep wakes the task after a duration; the poll returns Pending meanwhile.
func ExampleContext_Sleep() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	defer rt.Shutdown(context.Background())

	var began time.Time
	h, _ := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
		if began.IsZero() {
			began = time.Now()
			cx.Sleep(10 * time.Millisecond)
			return sched.Pending
		}
		fmt.Println("slept at least 10ms:", time.Since(began) >= 10*time.Millisecond)
		return sched.Ready
	}))
	h.Wait(context.Background())
	// Output: slept at least 10ms: true
}

// A panic in a task reaches its handle; the runtime keeps going.
func ExamplePanicError() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	defer rt.Shutdown(context.Background())

	h, _ := rt.Spawn(sched.Func(func() { panic("out of cheese") }))
	err := h.Wait(context.Background())
	var pe *sched.PanicError
	fmt.Println(errors.As(err, &pe), pe.Value)
	// Output: true out of cheese
}

// Shutdown cancels what has not finished.
func ExampleRuntime_Shutdown() {
	rt, _ := sched.New(sched.Config{Workers: 1})
	h, _ := rt.Spawn(sched.TaskFunc(func(*sched.Context) sched.Poll {
		return sched.Pending // waits for a wake that never comes
	}))
	rt.Shutdown(context.Background())
	fmt.Println(h.Wait(context.Background()))
	_, err := rt.Spawn(sched.Func(func() {}))
	fmt.Println(err)
	// Output:
	// sched: task cancelled by shutdown
	// sched: runtime is shut down
}
