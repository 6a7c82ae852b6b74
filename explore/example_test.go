//go:build explore

// The examples explore code that shares memory through explore/atomic,
// whose operations are the explorer's only under the explore build tag:
// run them with go test -tags explore ./explore.

package explore_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
)

// counter is a shared integer of explore/atomic: under the explore build
// tag each operation is a scheduling point, and in the weak-memory mode an
// operation of the memory model, as strong as the ordering its name gives.
type counter struct{ v atomic.Int64 }

// Load reads the counter (acquire: what the storer did before is seen).
func (c *counter) Load() int64 { return c.v.LoadAcquire() }

// Store writes the counter (release: what came before it is published).
func (c *counter) Store(v int64) { c.v.StoreRelease(v) }

// lostUpdate increments a counter from two goroutines with a load and a
// store: some schedule loses an increment.
func lostUpdate() {
	var c counter
	inc := func() { c.Store(c.Load() + 1) }
	a, b := explore.Go("A", inc), explore.Go("B", inc)
	a.Join()
	b.Join()
	explore.Assert(c.Load() == 2, "counter = %d after two increments", c.Load())
}

// The explorer runs a scenario under every schedule up to two preemptions
// and reports the first that breaks it, with a token that replays it.
func Example() {
	res := explore.Explore(explore.Options{}, lostUpdate)
	f := res.Failure
	fmt.Printf("%s: %s\n", f.Kind, f.Message)
	fmt.Printf("at schedule %d, %d preemption(s); replay token %s\n", f.Schedule, f.Preemptions, f.Token)
	// Output:
	// assertion: counter = 1 after two increments
	// at schedule 7, 1 preemption(s); replay token sc/1:g2
}

// A scenario is a test: Check explores it, logs what it ran, and fails the
// test with the schedule, its replay command and a page to step through
// it if one schedule breaks it.
func ExampleCheck() {
	testCounter := func(t *testing.T) {
		explore.Check(t, "counter/lost-update", explore.Options{}, lostUpdate)
	}
	_ = testCounter // func TestExploreCounter(t *testing.T) in a _test.go file
}

// Options bound the search: here one preemption and a budget of 1,000
// schedules.
func ExampleOptions() {
	res := explore.Explore(explore.Options{Preemptions: -1}, lostUpdate)
	fmt.Println("no preemption:", res.Failure == nil, res.Exhaustive, res.Schedules)
	res = explore.Explore(explore.Options{Preemptions: 1, MaxSchedules: 1000}, lostUpdate)
	fmt.Println("one preemption:", res.Failure != nil)
	// Output:
	// no preemption: true true 3
	// one preemption: true
}

// Result says what ran: the search, the bound it reached, whether it ran
// every schedule within it.
func ExampleResult() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		a := explore.Go("A", func() { c.Store(1) })
		c.Store(2)
		a.Join()
	})
	fmt.Println(res.Mode, res.Bound, res.Exhaustive, res.Failure == nil)
	// Output: dfs 2 true true
}

// A failure carries its schedule as numbered steps.
func ExampleFailure() {
	f := explore.Explore(explore.Options{}, lostUpdate).Failure
	fmt.Println(f.Kind, f.Thread)
	fmt.Println(strings.Contains(f.Trace, "Store"))
	// Output:
	// assertion main
	// true
}

// Explore returns what it found, for code that looks at the result itself;
// a replay token runs one schedule again, with its trace.
func ExampleExplore() {
	f := explore.Explore(explore.Options{}, lostUpdate).Failure
	again := explore.Explore(explore.Options{Replay: f.Token}, lostUpdate)
	fmt.Println(again.Mode, again.Failure.Message == f.Message)
	// Output: replay true
}

// Classes names the executions a search ran, each once however many
// schedules reached it: two goroutines that store to different counters
// are one execution in any order.
func ExampleClasses() {
	body := func() {
		var x, y counter
		a := explore.Go("A", func() { x.Store(1) })
		y.Store(1)
		a.Join()
	}
	plain, res, _ := explore.Classes(explore.Options{}, body)
	fmt.Println("plain:", res.Schedules, "schedules,", len(plain), "class(es)")
	reduced, res, _ := explore.Classes(explore.Options{Reduce: true}, body)
	fmt.Println("reduced:", res.Schedules, "schedules,", len(reduced), "class(es)")
	_, _, err := explore.Classes(explore.Options{Weak: true}, body)
	fmt.Println("weak:", err != nil)
	// Output:
	// plain: 5 schedules, 1 class(es)
	// reduced: 3 schedules, 1 class(es)
	// weak: true
}

// Go starts a goroutine of the scenario; Join waits for it.
func ExampleGo() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		w := explore.Go("writer", func() { c.Store(1) })
		w.Join()
		explore.Assert(c.Load() == 1, "the writer's store is not seen after Join")
	})
	fmt.Println(res.Failure == nil)
	// Output: true
}

// What a goroutine did happens before its Join returns.
func ExampleThread_Join() {
	res := explore.Explore(explore.Options{Weak: true}, func() {
		var c counter
		w := explore.Go("writer", func() { c.Store(1) })
		w.Join()
		explore.Assert(c.Load() == 1, "the writer's store is not seen after Join")
	})
	fmt.Println(res.Failure == nil)
	// Output: true
}

// Assert fails the schedule unless its condition holds.
func ExampleAssert() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		a := explore.Go("A", func() { c.Store(1) })
		v := c.Load()
		a.Join()
		explore.Assert(v == 1, "read %d before A's store", v)
	})
	fmt.Println(res.Failure.Message)
	// Output: read 0 before A's store
}

// Failf fails the schedule with a message, wherever the scenario finds
// the property broken.
func ExampleFailf() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		a := explore.Go("A", func() {
			if c.Load() == 0 {
				explore.Failf("A ran before main's store")
			}
		})
		c.Store(1)
		a.Join()
	})
	fmt.Println(res.Failure.Message)
	// Output: A ran before main's store
}

// An Event is a flag one goroutine sets and another waits for: what was
// done before Set is seen after Wait.
func ExampleEvent() {
	res := explore.Explore(explore.Options{Weak: true}, func() {
		var c counter
		var ready explore.Event
		a := explore.Go("A", func() {
			c.Store(1)
			ready.Set()
		})
		ready.Wait()
		explore.Assert(c.Load() == 1, "set before the store was seen")
		a.Join()
	})
	fmt.Println(res.Failure == nil, res.Exhaustive)
	// Output: true true
}

// Block waits until a condition holds; a wait nothing can end is a
// deadlock, and the report says what each goroutine waits on.
func ExampleBlock() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		explore.Block(func() bool { return c.v.Peek() == 1 }, "counter = 1")
	})
	fmt.Println(res.Failure.Kind)
	// Output: deadlock
}

// BlockTimeout gives up at a deadline of virtual time, which passes when
// every goroutine waits.
func ExampleBlockTimeout() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		ok := explore.BlockTimeout(func() bool { return c.v.Peek() == 1 }, time.Millisecond, "counter = 1")
		explore.Assert(!ok && explore.Now() == int64(time.Millisecond), "woke at %d (ok %v)", explore.Now(), ok)
	})
	fmt.Println(res.Failure == nil)
	// Output: true
}

// Now is the schedule's virtual clock: 0 at its start.
func ExampleNow() {
	res := explore.Explore(explore.Options{}, func() {
		explore.Assert(explore.Now() == 0, "the clock starts at %d", explore.Now())
	})
	fmt.Println(res.Failure == nil)
	// Output: true
}

// View shows an object's state after every step of a traced schedule, on
// the counterexample page Check writes for a failure.
func ExampleView() {
	testView := func(t *testing.T) {
		explore.Check(t, "counter/view", explore.Options{}, func() {
			var c counter
			explore.View("counter", func() string { return fmt.Sprint(c.v.Peek()) })
			lostUpdate()
		})
	}
	_ = testView
}

// WeakMode says whether Check runs in the weak-memory mode: a scenario
// that holds only under sequential consistency can skip there.
func ExampleWeakMode() {
	testSC := func(t *testing.T) {
		if explore.WeakMode() {
			t.Skip("the property holds under sequential consistency only")
		}
		explore.Check(t, "counter/sc-only", explore.Options{}, lostUpdate)
	}
	_ = testSC
}

// ParseRecord reads the run record Check logs for every scenario.
func ExampleParseRecord() {
	line := `    x_test.go:12: EXPLORE_RECORD {"v":1,"scenario":"counter/two","mode":"dfs","bound":2,"schedules":6,"exhaustive":true}`
	rec, ok, err := explore.ParseRecord(line)
	fmt.Println(ok, err, rec.Scenario, rec.Mode, rec.Schedules, rec.Exhaustive)
	// Output: true <nil> counter/two dfs 6 true
}

// A Record is what one Check did; a failed one names its schedule and the
// token that replays it, and a tool reads it from the log or the records
// file (RecordsEnv) instead of the failure's text.
func ExampleRecord() {
	line := `{"v":1,"scenario":"counter/lost-update","mode":"dfs","bound":1,"schedules":7,"failure":{"kind":"assertion","schedule":7,"preemptions":1,"token":"sc/1:g2"}}`
	rec, _, _ := explore.ParseRecord(line)
	if f := rec.Failure; f != nil {
		fmt.Printf("%s: %s at schedule %d, replay token %s\n", rec.Scenario, f.Kind, f.Schedule, f.Token)
	}
	// Output: counter/lost-update: assertion at schedule 7, replay token sc/1:g2
}
