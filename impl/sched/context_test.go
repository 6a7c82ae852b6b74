package sched

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

// panicOf runs f and returns what it panicked with ("" if it returned).
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}

// contextUses are the calls a goroutine that kept a Context might make.
var contextUses = []struct {
	op  string
	use func(cx *Context)
}{
	{"Go", func(cx *Context) { _ = cx.Go(func() {}) }},
	{"Spawn", func(cx *Context) { _, _ = cx.Spawn(Func(func() {})) }},
	{"Sleep", func(cx *Context) { _ = cx.Sleep(1) }},
	{"Wake", func(cx *Context) { cx.Wake(cx.Waker()) }},
	{"Yield", func(cx *Context) { cx.Yield() }},
	{"Worker", func(cx *Context) { cx.Worker() }},
}

// A Context kept after its poll (the slip: a goroutine started by the poll
// that calls cx later) panics at the call with a message naming the
// mistake, for every method but Waker, which returns the task's own waker.
// Before: cx.Sleep queued a timer for a nil task and the monitor died on
// it; cx.Go/Spawn raced on the worker's ring; cx.Waker returned the zero
// waker or another task's, and the wake was lost.
func TestContextAfterPollPanics(t *testing.T) {
	for _, workers := range []int{1, 2} {
		rt := start(t, testConfig(workers))
		var kept atomic.Pointer[Context]
		var polls atomic.Int32
		h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if polls.Add(1) == 1 {
				kept.Store(cx)
				return Pending
			}
			return Ready
		}))
		waitUntil(t, rt, "first poll", func() bool { return kept.Load() != nil })
		cx := kept.Load()
		// The poll has returned once the task is idle.
		waitUntil(t, rt, "the poll to return", func() bool { return cx.task().state.LoadRelaxed() == stateIdle })
		for _, u := range contextUses {
			msg := panicOf(func() { u.use(cx) })
			if want := "sched: Context." + u.op + " called after its poll returned"; !strings.HasPrefix(msg, want) {
				t.Errorf("workers=%d: cx.%s after the poll: panic %q, want prefix %q", workers, u.op, msg, want)
			}
		}
		// Waker is the task's, from any goroutine at any time: it wakes
		// the task, which then finishes.
		cx.Waker().Wake()
		mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		if n := polls.Load(); n != 2 {
			t.Errorf("workers=%d: %d polls, want 2", workers, n)
		}
		// After the task finished, too.
		cx.Waker().Wake()
		for _, u := range contextUses {
			if msg := panicOf(func() { u.use(cx) }); !strings.Contains(msg, "after its poll returned (the task is done)") {
				t.Errorf("workers=%d: cx.%s after the task finished: panic %q", workers, u.op, msg)
			}
		}
		var ran atomic.Int32
		hs := make([]*JoinHandle, 100)
		for i := range hs {
			hs[i], _ = rt.Spawn(Func(func() { ran.Add(1) }))
		}
		mustNil(t, waitAll(t, rt, hs))
		if ran.Load() != 100 {
			t.Errorf("workers=%d: %d of 100 ran", workers, ran.Load())
		}
		shutdown(t, rt)
		// The runtime is unharmed: nothing spurious was queued or run.
		// (Read after Shutdown: until then a worker's counts may trail
		// by a tick, and a Wait may return before the completion that
		// woke it is counted.)
		if m := rt.Metrics(); m.Spawned != 101 || m.Completed != 101 || m.PendingTimers != 0 {
			t.Errorf("workers=%d: %+v", workers, m)
		}
	}
}

// Inside its poll every method works, on the goroutine running the poll.
func TestContextInsidePoll(t *testing.T) {
	rt := start(t, testConfig(2))
	var msgs []string
	var child *JoinHandle
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		for _, u := range contextUses[:4] { // Go, Spawn, Sleep, Wake
			if msg := panicOf(func() { u.use(cx) }); msg != "" {
				msgs = append(msgs, u.op+": "+msg)
			}
		}
		child, _ = cx.Spawn(Func(func() {}))
		return Ready
	}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{child}))
	if len(msgs) != 0 {
		t.Fatal(msgs)
	}
	if err := h.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}
