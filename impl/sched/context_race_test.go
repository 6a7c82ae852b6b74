//go:build race

package sched

import (
	"strings"
	"sync"
	"testing"
)

// With the race detector on, a Context used from another goroutine while
// its poll still runs panics at the call (without it, the call would race
// on the worker's owner-only ring: see Context). The poll waits for the
// goroutine, so the poll is under way at every call.
func TestContextFromAnotherGoroutinePanics(t *testing.T) {
	rt := start(t, testConfig(2))
	msgs := make(map[string]string)
	h, _ := rt.Spawn(TaskFunc(func(cx *Context) Poll {
		var wg sync.WaitGroup
		for _, u := range contextUses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				msgs[u.op] = panicOf(func() { u.use(cx) })
			}()
			wg.Wait()
		}
		cx.Waker() // fine anywhere
		return Ready
	}))
	mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
	for _, u := range contextUses {
		if want := "sched: Context." + u.op + " called from a goroutine other than the one running its poll"; !strings.HasPrefix(msgs[u.op], want) {
			t.Errorf("cx.%s from another goroutine: panic %q, want prefix %q", u.op, msgs[u.op], want)
		}
	}
	if m := rt.Metrics(); m.Spawned != 1 || m.PendingTimers != 0 {
		t.Errorf("something was queued: %+v", m)
	}
}
