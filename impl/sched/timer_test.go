package sched

import (
	"sync/atomic"
	"testing"
	"time"
)

func sleepOnce(d time.Duration, woke *atomic.Int64) TaskFunc {
	slept := false
	return func(cx *Context) Poll {
		if !slept {
			slept = true
			if err := cx.Sleep(d); err != nil {
				panic(err)
			}
			return Pending
		}
		woke.Add(1)
		return Ready
	}
}

// Sleeping tasks on every worker wake after their duration.
func TestSleepWakes(t *testing.T) {
	rt := start(t, testConfig(3))
	var woke atomic.Int64
	var hs []*JoinHandle
	begin := time.Now()
	for i := 0; i < 30; i++ {
		h, _ := rt.Spawn(sleepOnce(time.Duration(i%5+1)*time.Millisecond, &woke))
		hs = append(hs, h)
	}
	mustNil(t, waitAll(t, rt, hs))
	if woke.Load() != 30 {
		t.Fatalf("%d woke", woke.Load())
	}
	if el := time.Since(begin); el < time.Millisecond {
		t.Fatalf("all sleeps done after %v", el)
	}
}

// Worker 0 parks until the far deadline of a long sleep; a shorter sleep
// added while it is parked must unpark it to re-arm. Without that the short
// sleeper waits the full hour (the park timeout is off), and the watchdog
// reports a hang.
func TestEarlierTimerUnparksWorker0(t *testing.T) {
	for _, kind := range []ParkerKind{ParkerChannel, ParkerFutex} {
		if kind == ParkerFutex && !futexSupported() {
			continue
		}
		rt := start(t, Config{Workers: 2, Parker: kind})
		var woke atomic.Int64
		_, _ = rt.Spawn(sleepOnce(time.Hour, &woke))
		for round := 0; round < 20; round++ {
			if round%2 == 0 {
				waitUntil(t, rt, "worker 0 parked", func() bool {
					return rt.Metrics().ParkedBitmap&1 != 0
				})
			}
			h, _ := rt.Spawn(sleepOnce(200*time.Microsecond, &woke))
			mustNil(t, waitAll(t, rt, []*JoinHandle{h}))
		}
		if woke.Load() != 20 {
			t.Fatalf("%d short sleepers woke", woke.Load())
		}
	}
}
