package sched

import (
	"context"
	"testing"
	"time"
)

// TestMonitorWatchesAfterIdle: once every worker is parked the monitor
// sleeps with no period; a worker woken for new work must wake it, or a
// poll that then blocks with a task in its LIFO slot is never seen stuck.
func TestMonitorWatchesAfterIdle(t *testing.T) {
	rt := start(t, testConfig(2))
	for round := range 3 {
		// Idle long enough for the monitor to find every worker parked
		// (it looks every LongPoll/2) and go to sleep with no period.
		deadline := time.Now().Add(5 * time.Second)
		for !rt.mon.sleepsIdle.LoadRelaxed() {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the monitor of an idle runtime never slept with no period\n%s", round, rt.Metrics())
			}
			time.Sleep(time.Millisecond)
		}
		var w Waker
		registered, ran := make(chan struct{}), make(chan struct{})
		other, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if w.t == nil {
				w = cx.Waker()
				close(registered)
				return Pending
			}
			close(ran)
			return Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		<-registered
		h, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			cx.Wake(w) // into this worker's LIFO slot
			<-ran      // blocks until the other task ran
			return Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		mustNil(t, waitAll(t, rt, []*JoinHandle{h, other}))
	}
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestMonitorWatchesWhenWokenAsItGoesIdle: as TestMonitorWatchesAfterIdle,
// but each round starts a random fraction of a look after the previous
// one ended, so that some rounds wake a worker just as the monitor, having
// seen every worker parked, goes to sleep with no period: the two halves
// of the Dekker pair (leftParked and the monitor's re-check after its
// idle store) meet there. A round whose worker is never seen stuck gives
// up after hangTimeout and fails.
func TestMonitorWatchesWhenWokenAsItGoesIdle(t *testing.T) {
	rt := start(t, testConfig(2))
	look := time.Duration(rt.mon.period)
	rounds := 100
	for round := range rounds {
		time.Sleep(time.Duration(round%7) * look / 4)
		var w Waker
		registered, ran := make(chan struct{}), make(chan struct{})
		other, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			if w.t == nil {
				w = cx.Waker()
				close(registered)
				return Pending
			}
			close(ran)
			return Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		<-registered
		h, err := rt.Spawn(TaskFunc(func(cx *Context) Poll {
			cx.Wake(w) // into this worker's LIFO slot
			select {   // blocks until the other task ran
			case <-ran:
			case <-time.After(hangTimeout):
				t.Errorf("round %d: the task woken into the LIFO slot of a blocked poll never ran\n%s", round, rt.Metrics())
			}
			return Ready
		}))
		if err != nil {
			t.Fatal(err)
		}
		mustNil(t, waitAll(t, rt, []*JoinHandle{h, other}))
		if t.Failed() {
			break
		}
	}
	if err := rt.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}
