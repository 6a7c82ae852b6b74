package sched

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/wsched/wsched/internal/schedtest"
)

// A poll that calls runtime.Goexit (what t.FailNow does when an assertion
// fails inside a task) ends its worker's goroutine whatever the deferred
// calls do. The task finishes with ErrGoexit, the worker goes on in a new
// goroutine, the tasks queued behind it run, and Shutdown finishes with no
// goroutine left behind. One worker and the monitor's help off, so nothing
// else could run the tasks behind the dead goroutine.
func TestGoexitInTaskEndsTaskNotWorker(t *testing.T) {
	baseline := runtime.NumGoroutine()
	rt := start(t, unhelpedConfig(1))
	var after atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	var hs []*JoinHandle
	// The Goexit task waits until the others are queued behind it.
	gx, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		close(entered)
		<-release
		runtime.Goexit()
		return Ready
	}))
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	for range 10 {
		h, err := rt.Spawn(Func(func() { after.Add(1) }))
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	// A Go func that calls Goexit: no handle; the worker goes on.
	if err := rt.Go(runtime.Goexit); err != nil {
		t.Fatal(err)
	}
	// A task that calls Goexit on its second poll, after a yield.
	polls := 0
	gy, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		if polls++; polls == 1 {
			return cx.Yield()
		}
		runtime.Goexit()
		return Ready
	}))
	close(release)
	errs := waitAll(t, rt, append([]*JoinHandle{gx, gy}, hs...))
	for i, err := range errs[:2] {
		if !errors.Is(err, ErrGoexit) {
			t.Errorf("Goexit task %d: Wait = %v, want ErrGoexit", i, err)
		}
	}
	for i, err := range errs[2:] {
		if err != nil {
			t.Errorf("task %d queued behind the Goexit: Wait = %v", i, err)
		}
	}
	if n := after.Load(); n != 10 {
		t.Errorf("%d of 10 tasks queued behind the Goexit ran", n)
	}
	shutdown(t, rt)
	if m := rt.Metrics(); m.Completed != 13 || m.Panicked != 0 {
		t.Errorf("after Shutdown: %d completed, %d panicked; want 13 and 0\n%s", m.Completed, m.Panicked, m)
	}
	schedtest.CheckNoLeak(t, baseline)
}

// panic(nil) is a panic: with Go 1.21 semantics its value is a
// *runtime.PanicNilError; under GODEBUG=panicnil=1 (the default of a main
// module whose go.mod says go 1.20 or older) recover returns nil, and the
// task must still finish as panicked, with a nil Value, rather than be
// taken for Pending and wait for ever. The test runs itself again under
// that setting.
func TestPanicNilFinishesTask(t *testing.T) {
	legacy := os.Getenv("WSCHED_PANICNIL_CHILD") == "1"
	rt := start(t, testConfig(1))
	h, _ := rt.Spawn(Func(func() { panic(nil) }))
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	err := h.Wait(ctx)
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Wait of a task that panicked with nil (panicnil=1: %v) = %v, want a *PanicError", legacy, err)
	}
	var pn *runtime.PanicNilError
	switch {
	case legacy && pe.Value != nil:
		t.Errorf("under GODEBUG=panicnil=1 the panic value is %T, want nil", pe.Value)
	case !legacy && !errors.As(err, &pn):
		t.Errorf("panic value %T, want *runtime.PanicNilError", pe.Value)
	}
	if legacy {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPanicNilFinishesTask$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WSCHED_PANICNIL_CHILD=1", "GODEBUG=panicnil=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("under GODEBUG=panicnil=1: %v\n%s", err, out)
	}
}

// A Goexit on an extra worker: the worker's only poll blocks until a task
// queued behind it has called Goexit, which only an extra worker can run.
// The replacement goroutine goes on with the extra worker, which retires
// later; the next round reuses its slot. Under -race this also checks that
// a goroutine that retired leaves the slot alone (the slot's next owner
// writes the same fields).
func TestGoexitOnExtraWorker(t *testing.T) {
	rt := start(t, testConfig(1))
	for round := range 5 {
		release := make(chan struct{})
		blocker, _ := rt.Spawn(Func(func() { <-release }))
		gx, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			runtime.Goexit()
			return Ready
		}))
		ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
		err := gx.Wait(ctx)
		cancel()
		if !errors.Is(err, ErrGoexit) {
			t.Fatalf("round %d: Wait of the Goexit task behind a blocked poll = %v, want ErrGoexit\n%s", round, err, rt.Metrics())
		}
		close(release)
		mustNil(t, waitAll(t, rt, []*JoinHandle{blocker}))
	}
	shutdown(t, rt)
	if m := rt.Metrics(); m.ExtraStarted == 0 {
		t.Errorf("no extra worker was started for the tasks behind the blocked polls\n%s", m)
	}
}
