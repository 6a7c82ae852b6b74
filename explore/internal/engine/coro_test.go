package engine

import (
	"runtime"
	"strings"
	"testing"
)

// A goroutine of a scenario may end by runtime.Goexit, as a task of the
// scheduler may. Its deferred calls run, the goroutines still running go
// on, a Join of it returns, and every interleaving is explored. Its
// coroutine ends with it and the Goexit reaches the run's driver, which a
// new driver replaces (coro.go): a driver that died with it would leave
// the run without anyone to resume the next goroutine, and Explore would
// hang until the watchdog called it stuck.
func TestGoexitEndsOnlyItsGoroutine(t *testing.T) {
	seen := map[string]bool{}
	var log []byte
	runs, deferred := 0, 0
	res := Explore(Options{Preemptions: 10}, func() {
		runs++
		log = log[:0]
		var x toyInt
		a := Go("A", func() {
			defer func() { deferred++ }()
			for i := range 3 {
				x.Add(1)
				log = append(log, 'A')
				if i == 1 {
					runtime.Goexit()
				}
			}
		})
		b := Go("B", func() {
			for range 3 {
				x.Add(1)
				log = append(log, 'B')
			}
		})
		a.Join()
		b.Join()
		seen[string(log)] = true
		Assert(x.Load() == 5, "x = %d after two adds of A and three of B", x.Load())
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	// Every interleaving of A's two steps with B's three: C(5,2).
	if len(seen) != 10 || !res.Exhaustive || deferred != runs || runs != res.Schedules {
		t.Fatalf("%d interleavings (want 10), exhaustive %v, %d schedules, %d runs, A's deferred call ran %d times", len(seen), res.Exhaustive, res.Schedules, runs, deferred)
	}
	for s := range seen {
		if strings.Count(s, "A") != 2 || strings.Count(s, "B") != 3 {
			t.Fatalf("interleaving %q: want A twice and B three times", s)
		}
	}
}

// A failure found after a goroutine ended by Goexit tears the others down
// and is reported: the teardown goes on through the drivers that replace
// each one a Goexit ended (coro.go), every torn-down goroutine ending by
// Goexit too.
func TestFailureAfterAGoexitIsReported(t *testing.T) {
	res := Explore(Options{Preemptions: 2}, func() {
		var x toyInt
		Go("A", func() {
			x.Add(1)
			runtime.Goexit()
		})
		Go("B", func() { x.Add(1) })
		Go("C", func() {
			for x.Load() < 2 {
				Gosched()
			}
			Failf("C saw both adds")
		})
	})
	if res.Failure == nil || !strings.Contains(res.Failure.Message, "C saw both adds") {
		t.Fatalf("want C's failure, got %v", res.Failure)
	}
	// The next exploration starts on a clean slate: the coroutines torn
	// down are not reused, and the ones that ended normally are.
	res = Explore(Options{Preemptions: 2}, func() {
		var x toyInt
		Go("A", func() { x.Add(1) }).Join()
		Assert(x.Load() == 1, "x = %d", x.Load())
	})
	if res.Failure != nil || !res.Exhaustive {
		t.Fatalf("the exploration after: %v, exhaustive %v", res.Failure, res.Exhaustive)
	}
}
