package engine

import (
	"math/bits"
	"strings"
	"testing"
	"time"
)

// toyInt is a shared integer whose every operation is a scheduling point,
// as explore/atomic's types are under the explore tag.
type toyInt struct{ v int }

func (x *toyInt) Load() int {
	Point()
	v := x.v
	if Tracing() {
		Note("Load", v)
	}
	return v
}

func (x *toyInt) Store(v int) {
	Point()
	x.v = v
	if Tracing() {
		Note("Store", v)
	}
}

func (x *toyInt) Add(d int) int {
	Point()
	x.v += d
	if Tracing() {
		Note("Add", d, x.v)
	}
	return x.v
}

// The lost update: two goroutines increment with a load and a store. The
// search runs every schedule without preemption first (three: A then B, A
// then B with main joining late, B then A), then the default schedule and
// the two that differ only in free choices, then the first one-preemption
// schedule: A loads, B runs to the end, A stores 1. That is schedule 7,
// and its one non-default decision is decision 1 choosing goroutine 2.
func TestRacyCounterFoundWithTheExpectedSchedule(t *testing.T) {
	body := racyCounter
	res := Explore(Options{}, body)
	f := res.Failure
	if f == nil {
		t.Fatalf("lost update not found in %d schedules", res.Schedules)
	}
	if f.Kind != kindAssert || f.Schedule != 7 || f.Token != "sc/1:g2" || f.Preemptions != 1 {
		t.Fatalf("found %s at schedule %d, token %q, %d preemptions; want an assertion at schedule 7, token \"sc/1:g2\", 1 preemption\n%s",
			f.Kind, f.Schedule, f.Token, f.Preemptions, f.Trace)
	}
	if !strings.Contains(f.Message, "x = 1 after two increments") {
		t.Fatalf("message %q", f.Message)
	}
	// The trace shows the lost update in execution order: A loads 0, B
	// runs both its steps, A stores the stale value.
	var ops []string
	for _, line := range strings.Split(f.Trace, "\n") {
		for _, op := range []string{"Load", "Store"} {
			if i := strings.Index(line, " "+op+" "); i >= 0 {
				who := strings.Fields(line)[1]
				ops = append(ops, who+" "+strings.Fields(line[i:])[0]+" "+strings.Fields(line[i:])[1])
			}
		}
	}
	want := "A Load 0|B Load 0|B Store 1|A Store 1|main Load 1"
	if got := strings.Join(ops, "|"); got != want || !strings.Contains(f.Trace, "---- preempted: B runs ----") {
		t.Fatalf("trace operations %q, want %q, with the preemption marked:\n%s", got, want, f.Trace)
	}
	// The token replays exactly that schedule, trace and all.
	rep := Explore(Options{Replay: f.Token}, body)
	if rep.Failure == nil || rep.Failure.Message != f.Message || rep.Failure.Trace != f.Trace {
		t.Fatalf("replay of %q did not reproduce the failure and its trace: %+v", f.Token, rep.Failure)
	}
}

// Check-then-act: both goroutines see the flag clear and both act.
func TestCheckThenActFound(t *testing.T) {
	res := Explore(Options{}, func() {
		var flag, acted toyInt
		try := func() {
			if flag.Load() == 0 {
				flag.Store(1)
				acted.Add(1)
			}
		}
		a, b := Go("A", try), Go("B", try)
		a.Join()
		b.Join()
		Assert(acted.Load() == 1, "%d goroutines acted", acted.v)
	})
	if f := res.Failure; f == nil || f.Kind != kindAssert || f.Preemptions != 1 || f.Token != "sc/1:g2" {
		t.Fatalf("want the double act at one preemption, token sc/1:g2; got %+v after %d schedules", res.Failure, res.Schedules)
	}
}

// merges counts the interleavings of two goroutines of n operations each
// whose number of preemptions is at most b, by brute force over every
// interleaving: a run of k blocks (maximal stretches of one goroutine) has
// k-2 preemptions, since the first choice and the switch after the
// first goroutine to finish are free.
func merges(n, b int) int {
	count := 0
	for m := uint(0); m < 1<<(2*n); m++ {
		if bits.OnesCount(m) != n {
			continue
		}
		blocks := 1
		for i := 1; i < 2*n; i++ {
			if (m>>i)&1 != (m>>(i-1))&1 {
				blocks++
			}
		}
		if blocks-2 <= b {
			count++
		}
	}
	return count
}

// A correct program passes after exactly the expected number of
// schedules: round b of the search runs every interleaving with at most b
// preemptions once, and each schedule is a different interleaving.
func TestCorrectCounterPassesAfterTheExpectedSchedules(t *testing.T) {
	const n = 3
	for bound := range 5 {
		var log []byte
		seen := map[string]bool{}
		opt := Options{Preemptions: bound}
		if bound == 0 {
			opt.Preemptions = -1
		}
		res := Explore(opt, func() {
			if len(log) > 0 {
				seen[string(log)] = true
			}
			log = log[:0]
			var x toyInt
			for _, name := range []string{"A", "B"} {
				Go(name, func() {
					for range n {
						x.Add(1)
						log = append(log, name[0])
					}
				})
			}
		})
		seen[string(log)] = true
		if res.Failure != nil {
			t.Fatalf("bound %d: %v", bound, res.Failure)
		}
		want := 0
		for b := 0; b <= bound; b++ {
			want += merges(n, b)
		}
		if res.Schedules != want || len(seen) != merges(n, bound) || !res.Exhaustive {
			t.Fatalf("bound %d: %d schedules, %d distinct interleavings, exhaustive %v; want %d schedules, %d interleavings",
				bound, res.Schedules, len(seen), res.Exhaustive, want, merges(n, bound))
		}
	}
	if merges(n, 4) != 20 {
		t.Fatalf("with bound 4 every one of the C(6,3) = 20 interleavings should count, got %d", merges(n, 4))
	}
}

// toyMutex is a lock built on Block, as explore/sync's Mutex is.
type toyMutex struct{ held bool }

func (m *toyMutex) Lock() {
	Block(func() bool { return !m.held }, "toyMutex.Lock")
	m.held = true
}

func (m *toyMutex) Unlock() {
	Point()
	m.held = false
}

// Two locks taken in opposite orders: the deadlock is found.
func TestLockOrderDeadlockFound(t *testing.T) {
	res := Explore(Options{}, func() {
		var m1, m2 toyMutex
		a := Go("A", func() { m1.Lock(); m2.Lock(); m2.Unlock(); m1.Unlock() })
		b := Go("B", func() { m2.Lock(); m1.Lock(); m1.Unlock(); m2.Unlock() })
		a.Join()
		b.Join()
	})
	f := res.Failure
	if f == nil || f.Kind != kindDeadlock {
		t.Fatalf("want a deadlock, got %+v after %d schedules", f, res.Schedules)
	}
	for _, want := range []string{"A waits on toyMutex.Lock", "B waits on toyMutex.Lock", "main waits on Join(A)"} {
		if !strings.Contains(f.Message, want) {
			t.Fatalf("deadlock report lacks %q:\n%s", want, f.Message)
		}
	}
}

// A lost wakeup: the waiter checks a flag and then sleeps, and the setter
// sets the flag without waking anybody. With no timeout that is a
// deadlock; the same code re-checking the flag under Block passes.
func TestLostWakeupFound(t *testing.T) {
	lost := func(recheck bool) Result {
		return Explore(Options{}, func() {
			var flag toyInt
			token := false
			w := Go("waiter", func() {
				if flag.Load() == 0 {
					if recheck {
						Block(func() bool { return flag.v == 1 }, "flag")
					} else {
						Block(func() bool { return token }, "token")
					}
				}
			})
			Go("setter", func() { flag.Store(1) })
			w.Join()
		})
	}
	if f := lost(false).Failure; f == nil || f.Kind != kindDeadlock || !strings.Contains(f.Message, "waiter waits on token") {
		t.Fatalf("want the lost wakeup as a deadlock, got %+v", f)
	}
	if res := lost(true); res.Failure != nil || !res.Exhaustive {
		t.Fatalf("the corrected waiter failed: %+v", res.Failure)
	}
}

// Virtual time passes only when everybody waits: a timed wait returns
// false at its deadline, and Now moves to it.
func TestVirtualTime(t *testing.T) {
	res := Explore(Options{}, func() {
		var flag toyInt
		w := Go("sleeper", func() {
			ok := BlockTimeout(func() bool { return flag.v == 1 }, 5*time.Millisecond, "flag or 5ms")
			now := Now()
			switch {
			case ok && flag.v != 1:
				Failf("woke without the flag")
			case !ok && now != int64(5*time.Millisecond):
				Failf("timed out at %d ns, want 5ms", now)
			case ok && now != 0:
				Failf("time passed (%d ns) while the setter could run", now)
			}
		})
		Go("setter", func() { flag.Store(1) })
		w.Join()
	})
	if res.Failure != nil {
		t.Fatal(res.Failure.Error() + "\n" + res.Failure.Trace)
	}
	// With no setter the deadline is the only way out.
	res = Explore(Options{}, func() {
		Go("sleeper", func() {
			if BlockTimeout(func() bool { return false }, time.Second, "nothing") || Now() != int64(time.Second) {
				Failf("want a timeout at 1s")
			}
		}).Join()
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
}

// Gosched marks a goroutine as waiting: a spin loop that yields lets the
// others run, and a spin on a deadline sleeper lets time pass.
func TestGoschedSpinIsWaiting(t *testing.T) {
	res := Explore(Options{MaxSteps: 200}, func() {
		var flag toyInt
		Go("spinner", func() {
			for flag.Load() == 0 {
				Gosched()
			}
		})
		Go("setter", func() {
			BlockTimeout(func() bool { return false }, time.Millisecond, "a while")
			flag.Store(1)
		})
	})
	if res.Failure != nil {
		t.Fatal(res.Failure.Error() + "\n" + res.Failure.Trace)
	}
	// A spin that nobody ends overruns the step budget.
	res = Explore(Options{MaxSteps: 100}, func() {
		var flag toyInt
		Go("spinner", func() {
			for flag.Load() == 0 {
				Gosched()
			}
		})
	})
	if f := res.Failure; f == nil || f.Kind != kindStep {
		t.Fatalf("want a step budget overrun, got %+v", f)
	}
}

// A panic in any goroutine fails the schedule and keeps its stack.
func TestPanicFound(t *testing.T) {
	res := Explore(Options{}, func() {
		var x toyInt
		Go("A", func() { x.Store(1) })
		Go("B", func() {
			if x.Load() == 1 {
				panic("saw 1")
			}
		})
	})
	f := res.Failure
	if f == nil || f.Kind != kindPanic || !strings.Contains(f.Message, "panic in B: saw 1") || !strings.Contains(f.Stack, "explore_test.go") {
		t.Fatalf("want B's panic with its stack, got %+v", f)
	}
}

// PCT finds the lost update too, reproducibly for a seed.
func TestPCTFindsLostUpdate(t *testing.T) {
	r1 := Explore(Options{PCT: 200, Seed: 1}, racyCounter)
	r2 := Explore(Options{PCT: 200, Seed: 1}, racyCounter)
	if r1.Failure == nil {
		t.Fatalf("PCT did not find the lost update in %d schedules", r1.Schedules)
	}
	if r2.Failure == nil || r1.Failure.Token != r2.Failure.Token || r1.Failure.Schedule != r2.Failure.Schedule {
		t.Fatalf("same seed, different outcome: %+v vs %+v", r1.Failure, r2.Failure)
	}
}

// The budget stops the search and says so.
func TestBudgetIsNotExhaustive(t *testing.T) {
	res := Explore(Options{MaxSchedules: 5, Preemptions: 3}, func() {
		var x toyInt
		for _, n := range []string{"A", "B", "C"} {
			Go(n, func() { x.Add(1); x.Add(1) })
		}
	})
	if res.Exhaustive || res.Schedules != 5 || res.Failure != nil {
		t.Fatalf("got %+v", res)
	}
}

// A goroutine blocked where the explorer cannot see it stops the run; the
// explorer says so instead of hanging.
func TestBlockedOutsideTheExplorerIsReported(t *testing.T) {
	ch := make(chan struct{})
	defer close(ch)
	defer func() {
		p := recover()
		s, ok := p.(StuckError)
		if !ok || !strings.Contains(s.msg, "blocked outside the explorer") {
			t.Fatalf("want a stuck report, got %v", p)
		}
	}()
	Explore(Options{Watchdog: 200 * time.Millisecond}, func() {
		Go("A", func() { <-ch }).Join()
	})
	t.Fatal("Explore returned")
}

// Every interleaving of a goroutine's operations with its spawner's is
// explored, including the ones in which the new goroutine goes before the
// spawner's very next operation, and the ones that switch at a lock that
// is free. (Two bugs once hid these: a spawner kept the "just started"
// exemption from its first decision, and a goroutine at a free lock did
// not count as able to go on, so leaving it was not a preemption.)
func TestEveryInterleavingWithSpawnerAndLocks(t *testing.T) {
	var log []byte
	seen := map[string]bool{}
	res := Explore(Options{Preemptions: 10}, func() {
		if len(log) > 0 {
			seen[string(log)] = true
		}
		log = log[:0]
		var m toyMutex
		var x toyInt
		b := Go("B", func() {
			m.Lock()
			log = append(log, 'b')
			m.Unlock()
			x.Add(1)
			log = append(log, 'B')
		})
		x.Add(1)
		log = append(log, 'a')
		x.Add(1)
		log = append(log, 'A')
		b.Join()
	})
	seen[string(log)] = true
	if res.Failure != nil || len(seen) != 6 {
		t.Fatalf("%d interleavings of two operations each, want C(4,2) = 6: %v", len(seen), seen)
	}
}

// Leaving a goroutine at a lock that is free is a preemption: with bound 0
// the goroutine takes the lock and goes on. (When it was counted as free,
// bound 0 also ran the schedule that hands over at the lock.)
func TestFreeLockIsNotASwitchPoint(t *testing.T) {
	var log []byte
	seen := map[string]bool{}
	res := Explore(Options{Preemptions: -1}, func() {
		if len(log) > 0 {
			seen[string(log)] = true
		}
		log = log[:0]
		var m toyMutex
		var e Event
		Go("B", func() {
			e.Set()
			m.Lock()
			log = append(log, 'b')
			m.Unlock()
			log = append(log, 'B')
		})
		e.Wait()
		log = append(log, 'a')
	})
	seen[string(log)] = true
	if res.Failure != nil || len(seen) != 1 || !seen["bBa"] || res.Schedules != 1 {
		t.Fatalf("bound 0 ran %d schedules, interleavings %v; want only bBa", res.Schedules, seen)
	}
}

// A timeout may fire while other goroutines are still busy, not only when
// all of them wait: a check-then-sleep that trusts "nobody acts while I
// sleep" is found, at the cost of one preemption for the early timer.
func TestTimeoutFiresWhileOthersRun(t *testing.T) {
	res := Explore(Options{}, func() {
		var stage toyInt
		w := Go("waiter", func() {
			// Times out (in virtual time) unless the flag shows up.
			if !BlockTimeout(func() bool { return stage.v == 2 }, time.Millisecond, "stage 2 or 1ms") {
				Assert(stage.Load() != 1, "the timeout fired between the two stages")
			}
		})
		stage.Store(1)
		stage.Store(2)
		w.Join()
	})
	f := res.Failure
	if f == nil || f.Kind != kindAssert || f.Preemptions != 1 || !strings.Contains(f.Trace, "timeout fires") {
		t.Fatalf("want the early timeout found with one preemption, got %+v", f)
	}
}

// racyCounter is two goroutines incrementing a counter with a load and a
// store: the lost update is found at schedule 7 (decision 1 choosing
// goroutine 2).
func racyCounter() {
	var x toyInt
	inc := func() { v := x.Load(); x.Store(v + 1) }
	a, b := Go("A", inc), Go("B", inc)
	a.Join()
	b.Join()
	Assert(x.Load() == 2, "x = %d after two increments", x.v)
}
