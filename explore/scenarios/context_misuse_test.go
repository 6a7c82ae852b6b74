//go:build explore

package scenarios

import (
	"context"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/sched"
)

// A poll hands its Context to a goroutine, which calls cx.Go while the
// poll returns (the slip of capturing cx in a goroutine). Whichever comes
// first, nothing is lost, run twice or corrupted: the call either lands
// inside the poll and its func runs exactly once, or it comes after and
// panics, naming the mistake, and nothing is queued. (Inside the poll the
// call is itself a misuse, caught only in a race build by the goroutine
// check; this scenario shows the after-the-poll check leaves no window in
// which a call is neither refused nor served.)
func TestExploreContextRacesPollEnd(t *testing.T) {
	if explore.WeakMode() {
		// The call that lands inside the poll pushes onto the worker's
		// owner-only ring from another goroutine: a data race by
		// design (the misuse the race build's goroutine check
		// reports), which the weak-memory mode reports too.
		t.Skip("a data race by design: the misuse itself")
	}
	served, refused := 0, 0
	// The reduced search: exhaustive at 2 in 14,940 schedules (the
	// plain search: 49,456, 1.7 times the CPU).
	explore.Check(t, "misuse/context-races-poll-end", explore.Options{Reduce: true, MaxSchedules: 200_000}, func() {
		rt := newRuntime(1)
		var kept *sched.Context
		handed := false
		var c counter
		h, err := rt.Spawn(sched.TaskFunc(func(cx *sched.Context) sched.Poll {
			kept, handed = cx, true
			return sched.Pending
		}))
		if err != nil {
			explore.Failf("Spawn: %v", err)
		}
		explore.Block(func() bool { return handed }, "the poll to hand its Context over")
		var msg string
		var goErr error
		keeper := explore.Go("keeper", func() {
			defer func() {
				if r := recover(); r != nil {
					msg, _ = r.(string)
					if msg == "" {
						msg = "a non-string panic"
					}
				}
			}()
			goErr = kept.Go(func() { c.runs++ })
		})
		keeper.Join()
		switch {
		case msg == "":
			if goErr != nil {
				explore.Failf("cx.Go inside the poll: %v", goErr)
			}
			if err := rt.Shutdown(context.Background()); err != nil {
				explore.Failf("Shutdown: %v", err)
			}
			m := rt.Metrics()
			// Accepted: it ran once, or Shutdown cancelled it queued
			// (the pending task is the other cancelled one).
			explore.Assert(m.Spawned == 2 && c.runs <= 1 && c.runs+int(m.Cancelled) == 2,
				"an accepted cx.Go: %d runs; spawned %d, cancelled %d", c.runs, m.Spawned, m.Cancelled)
			served++
		case strings.HasPrefix(msg, "sched: Context.Go called after its poll returned"):
			m := shutdown(rt)
			explore.Assert(c.runs == 0 && m.Spawned == 1, "a refused cx.Go ran %d times; %d spawned", c.runs, m.Spawned)
			refused++
		default:
			explore.Failf("cx.Go from the kept Context panicked: %q", msg)
		}
		if err := h.Wait(context.Background()); err == nil {
			explore.Failf("the pending task finished")
		}
	})
	// Both sides of the race were explored.
	if served == 0 || refused == 0 {
		t.Fatalf("the call was served in %d schedules and refused in %d: one side of the race was never explored", served, refused)
	}
	t.Logf("the call was served inside the poll in %d schedules, refused after it in %d", served, refused)
}
