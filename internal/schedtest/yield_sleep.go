package schedtest

import (
	"fmt"
	"time"
)

// checkYield: a task that yields n times is polled exactly n+1 times, and
// Yield returns Pending. Several such tasks run at once.
func checkYield(e *env) {
	const tasks, n = 8, 500
	polls := make(counters, tasks)
	hs := make([]Handle, tasks)
	for i := range tasks {
		hs[i] = e.spawn(func(cx Ctx) Poll {
			if polls[i].Add(1) > n {
				return Ready
			}
			if p := cx.Yield(); p != Pending {
				e.t.Errorf("Yield returned %d, want Pending", p)
			}
			return Pending
		})
	}
	for i, h := range hs {
		e.waitOK(h, fmt.Sprintf("yielding task %d", i))
	}
	polls.check(e.t, "polls of a task yielding 500 times", n+1)
	e.shutdownClean()
	if m := e.rt.Metrics(); m.Polls != tasks*(n+1) {
		e.t.Errorf("Metrics polls = %d, want %d\n%s", m.Polls, tasks*(n+1), m.Dump)
	}
}

// checkSleep: every Sleep wakes its task exactly once and never before its
// duration has passed (measured on the monotonic clock from before the call).
// Sleep(0) wakes at once. A task sleeping repeatedly is polled once per
// sleep plus once.
func checkSleep(e *env) {
	durations := []time.Duration{0, time.Millisecond, 2 * time.Millisecond,
		5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	const perDuration = 4
	var hs []Handle
	for _, d := range durations {
		for range perDuration {
			var began time.Time
			polls := 0
			hs = append(hs, e.spawn(func(cx Ctx) Poll {
				polls++
				switch polls {
				case 1:
					began = time.Now()
					if err := cx.Sleep(d); err != nil {
						e.t.Errorf("Sleep(%v) = %v", d, err)
						return Ready
					}
					return Pending
				case 2:
					if slept := time.Since(began); slept < d {
						e.t.Errorf("Sleep(%v) woke the task after %v", d, slept)
					}
					return Ready
				default:
					e.t.Errorf("Sleep(%v): polled %d times, want 2", d, polls)
					return Ready
				}
			}))
		}
	}
	const sleeps, each = 5, time.Millisecond
	var began time.Time
	polls := 0
	hs = append(hs, e.spawn(func(cx Ctx) Poll {
		if polls == 0 {
			began = time.Now()
		}
		polls++
		if polls > sleeps {
			if slept := time.Since(began); slept < sleeps*each {
				e.t.Errorf("%d sleeps of %v took %v", sleeps, each, slept)
			}
			return Ready
		}
		if err := cx.Sleep(each); err != nil {
			e.t.Errorf("Sleep(%v) = %v", each, err)
		}
		return Pending
	}))
	for i, h := range hs {
		e.waitOK(h, fmt.Sprintf("sleeper %d", i))
	}
	if polls != sleeps+1 {
		e.t.Errorf("repeated sleeper polled %d times, want %d", polls, sleeps+1)
	}
}
