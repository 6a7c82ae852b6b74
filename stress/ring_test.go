package stress

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wsched/wsched/impl/queue"
)

type item struct{ id int }

// ledger counts how often each task id is taken.
type ledger struct {
	items []item
	count []atomic.Int32
	done  atomic.Int64 // tasks taken so far
	stop  atomic.Bool  // set on failure or hang: every goroutine returns
	mu    sync.Mutex
	errs  []string
}

func newLedger(n int) *ledger {
	l := &ledger{items: make([]item, n), count: make([]atomic.Int32, n)}
	for i := range l.items {
		l.items[i].id = i
	}
	return l
}

func (l *ledger) fail(format string, args ...any) {
	l.mu.Lock()
	if len(l.errs) < 20 {
		l.errs = append(l.errs, fmt.Sprintf(format, args...))
	}
	l.mu.Unlock()
	l.stop.Store(true)
}

func (l *ledger) take(t *item, who string) {
	if c := l.count[t.id].Add(1); c != 1 {
		l.fail("%s took task %d, taken %d times", who, t.id, c)
	}
	l.done.Add(1)
}

func (l *ledger) running() bool {
	return !l.stop.Load() && l.done.Load() < int64(len(l.items))
}

// popper drains a ring in its owner's goroutine and checks that the ring
// hands its tasks out in increasing id order: each ring below is fed by one
// FIFO source in increasing order, and every way out of a ring (pop, steal,
// overflow) takes from the oldest end.
type popper struct {
	name string
	r    *queue.Ring[item]
	last int
}

func (p *popper) pop(l *ledger, max int) int {
	k := 0
	for ; k < max; k++ {
		t := p.r.Pop()
		if t == nil {
			break
		}
		if t.id <= p.last {
			l.fail("%s popped task %d after task %d: ring order broken", p.name, t.id, p.last)
		}
		p.last = t.id
		l.take(t, p.name)
	}
	return k
}

func longRun() bool { return os.Getenv("WSCHED_LONG") == "1" }

type ringConfig struct {
	tasks int
	start uint32 // ring positions start here (to cross 2^32)
	seed  uint64
}

// runRingConservation pushes cfg.tasks tasks through one owner ring while:
//
//	thief A and thief C steal from the owner into their own rings,
//	thief B steals from A (a chained steal: A may be stealing from the
//	owner while B steals from A),
//	a consumer drains the Global queue the owner overflows into,
//
// and everyone also pops their own ring. At the end every task must have
// been taken exactly once, every queue must be empty, and no queue may keep
// a taken task reachable (checkReleased).
func runRingConservation(t *testing.T, cfg ringConfig) {
	l := newLedger(cfg.tasks)
	g := queue.NewGlobal[item]()
	owner := &popper{name: "owner", r: queue.NewRingAt[item](cfg.start), last: -1}
	a := &popper{name: "thief A", r: queue.NewRingAt[item](cfg.start + 1000), last: -1}
	b := &popper{name: "thief B", r: queue.NewRingAt[item](cfg.start - 1000), last: -1}
	c := &popper{name: "thief C", r: queue.NewRingAt[item](cfg.start + 77), last: -1}
	var steals, stolen [3]atomic.Int64
	var overflows, soloOverflows atomic.Int64
	// pause stops the three thieves between operations for a solo phase
	// of the owner; paused counts the thieves that have stopped.
	var pause atomic.Bool
	var paused atomic.Int32

	var wg sync.WaitGroup
	wg.Go(func() { // the owner
		rng := rand.New(rand.NewPCG(cfg.seed, 1))
		next := 0
		for round := 0; l.running(); round++ {
			if round%soloEvery == 0 && cfg.tasks-next > queue.Capacity {
				next = soloOverflow(l, owner, g, next, &pause, &paused, &soloOverflows)
			}
			if next < cfg.tasks {
				// Bursts larger than the ring make it overflow; bursts
				// during a steal hit the "full while a steal is in
				// flight" path.
				for burst := 1 + rng.IntN(320); burst > 0 && next < cfg.tasks; burst-- {
					if k := owner.r.Push(&l.items[next], g); k > 0 {
						overflows.Add(1)
						if k != 1 && k != queue.MaxSteal {
							l.fail("Push returned %d", k)
						}
					}
					next++
				}
			}
			owner.pop(l, rng.IntN(300))
			// Yield every round, busy or not: on two cores the owner
			// would otherwise run whole time slices alone and the
			// thieves would see only a full or an empty ring.
			runtime.Gosched()
		}
	})
	thief := func(i int, me, victim *popper) {
		rng := rand.New(rand.NewPCG(cfg.seed, uint64(i)+2))
		for l.running() {
			if pause.Load() {
				paused.Add(1)
				for pause.Load() && !l.stop.Load() {
					runtime.Gosched()
				}
				paused.Add(-1)
				continue
			}
			busy := false
			first, n := victim.r.StealInto(me.r)
			if first != nil {
				if n < 1 || n > queue.MaxSteal {
					l.fail("%s stole %d tasks", me.name, n)
				}
				steals[i].Add(1)
				stolen[i].Add(int64(n))
				l.take(first, me.name+" (steal)")
				busy = true
			} else if n != 0 {
				l.fail("%s: StealInto returned nil with n=%d", me.name, n)
			}
			if me.pop(l, 1+rng.IntN(64)) > 0 {
				busy = true
			}
			if !busy || rng.IntN(4) == 0 {
				runtime.Gosched()
			}
		}
	}
	wg.Go(func() { thief(0, a, owner) })
	wg.Go(func() { thief(1, b, a) })
	wg.Go(func() { thief(2, c, owner) })
	wg.Go(func() { // the Global consumer
		buf := make([]*item, 32)
		for l.running() {
			k := g.PopBatch(buf)
			for _, x := range buf[:k] {
				l.take(x, "global consumer")
			}
			if k == 0 {
				runtime.Gosched()
			}
		}
	})

	// A lost task shows up as no progress.
	waitOrFail(l, &wg, func() string {
		return fmt.Sprintf("ring lengths owner=%d A=%d B=%d C=%d global=%d",
			owner.r.Len(), a.r.Len(), b.r.Len(), c.r.Len(), g.Len())
	})

	for _, e := range l.errs {
		t.Error(e)
	}
	if t.Failed() {
		return
	}
	var missing []string
	for i := range l.count {
		if c := l.count[i].Load(); c != 1 {
			missing = append(missing, fmt.Sprintf("%d:%d", i, c))
			if len(missing) == 10 {
				break
			}
		}
	}
	if len(missing) > 0 {
		t.Fatalf("tasks not taken exactly once (id:count): %s", strings.Join(missing, " "))
	}
	for _, p := range []*popper{owner, a, b, c} {
		if p.r.Len() != 0 {
			t.Errorf("%s's ring still holds %d tasks", p.name, p.r.Len())
		}
	}
	if g.Len() != 0 {
		t.Errorf("Global still holds %d tasks", g.Len())
	}
	checkReleased(t, l, owner, a, b, c, g)
	t.Logf("METRIC queue_items=%d", cfg.tasks)
	t.Logf("%d tasks; overflows %d (%d in solo phases); steals A %d (%d tasks), B %d (%d), C %d (%d)",
		cfg.tasks, overflows.Load()+soloOverflows.Load(), soloOverflows.Load(), steals[0].Load(), stolen[0].Load(),
		steals[1].Load(), stolen[1].Load(), steals[2].Load(), stolen[2].Load())
	for i := range steals {
		if steals[i].Load() == 0 {
			t.Errorf("thief %d never stole: the test did not exercise stealing", i)
		}
	}
	if soloOverflows.Load() == 0 {
		t.Error("no solo phase overflowed: the test did not exercise overflow")
	}
}

// soloEvery is how many owner rounds pass between solo phases.
const soloEvery = 512

// soloOverflow is a solo phase of the owner. With one core and chaos
// yields, the thieves can keep the ring from ever filling, so overflow would
// be left to chance; here the thieves are stopped between operations (no
// steal is in flight once all three have stopped) and the owner pushes until
// its ring overflows. With no steal in flight, a full ring must move exactly
// MaxSteal tasks to the Global queue: moving only the new task is the
// in-flight path and would be a bug here. It returns the next task id.
func soloOverflow(l *ledger, owner *popper, g *queue.Global[item], next int,
	pause *atomic.Bool, paused *atomic.Int32, soloOverflows *atomic.Int64) int {
	pause.Store(true)
	defer pause.Store(false)
	for paused.Load() < 3 {
		if l.stop.Load() {
			return next
		}
		runtime.Gosched()
	}
	for range queue.Capacity + 1 {
		switch k := owner.r.Push(&l.items[next], g); k {
		case 0:
		case queue.MaxSteal:
			soloOverflows.Add(1)
			return next + 1
		default:
			l.fail("solo phase: Push into a full ring with no steal in flight returned %d, want %d", k, queue.MaxSteal)
			return next + 1
		}
		next++
	}
	l.fail("solo phase: %d pushes with no consumer running never overflowed the ring", queue.Capacity+1)
	return next
}

// ringTasks is a ring conservation run's task count, n by default.
// Under WSCHED_LONG=1 it is ten times n, and four times n in the chaos
// build: there every operation of the rings may yield, which makes each
// about six times as costly (20,000,000 tasks took 122 s of verify -long's
// chaos layer, 21 s of its stress layer, which runs them without the
// yield points) and makes a steal in flight during a push or an overflow
// the common case rather than the rare one the plain build needs millions
// of tasks for. Four times is what the chaos layer's porcupine half gives
// the queue checks under -long (WSCHED_LONG=4).
func ringTasks(n int) int {
	switch {
	case !longRun():
		return n
	case chaosBuild:
		return 4 * n
	}
	return 10 * n
}

func TestRingConservation(t *testing.T) {
	runRingConservation(t, ringConfig{tasks: ringTasks(2_000_000), start: 0, seed: 1})
}

// TestRingConservationAcrossWrap starts every ring just below 2^32, so the
// positions wrap while steals and overflows are in flight.
func TestRingConservationAcrossWrap(t *testing.T) {
	runRingConservation(t, ringConfig{tasks: ringTasks(500_000), start: 1<<32 - 5000, seed: 2})
}

// TestGlobalConservation: several producers push (one at a time and in
// batches) while several consumers pop batches. Every task is taken exactly
// once, and each consumer sees each producer's tasks in the order they were
// pushed (the queue is FIFO and a batch is appended as a whole). Once
// drained (and after one more quiet round trip), the queue keeps none of
// the tasks reachable (checkReleased).
func TestGlobalConservation(t *testing.T) {
	const producers, consumers = 4, 2
	per := 100_000
	if longRun() {
		per = 2_000_000
	}
	l := newLedger(producers * per)
	g := queue.NewGlobal[item]()
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 9))
			base := p * per
			for i := 0; i < per && !l.stop.Load(); {
				if rng.IntN(2) == 0 {
					g.Push(&l.items[base+i])
					i++
					continue
				}
				k := min(1+rng.IntN(128), per-i)
				batch := make([]*item, k)
				for j := range batch {
					batch[j] = &l.items[base+i+j]
				}
				g.PushBatch(batch)
				i += k
			}
		})
	}
	for c := range consumers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 10))
			last := make([]int, producers)
			for i := range last {
				last[i] = -1
			}
			buf := make([]*item, 64)
			for l.running() {
				if n := g.Len(); n < 0 || n > len(l.items) {
					l.fail("Global.Len = %d", n)
				}
				k := g.PopBatch(buf[:1+rng.IntN(len(buf))])
				for _, x := range buf[:k] {
					p := x.id / per
					if x.id <= last[p] {
						l.fail("consumer %d got task %d after %d from producer %d", c, x.id, last[p], p)
					}
					last[p] = x.id
					l.take(x, fmt.Sprintf("consumer %d", c))
				}
				if k == 0 {
					runtime.Gosched()
				}
			}
		})
	}
	waitOrFail(l, &wg, func() string { return fmt.Sprintf("Global.Len %d", g.Len()) })
	for _, e := range l.errs {
		t.Error(e)
	}
	for i := range l.count {
		if c := l.count[i].Load(); c != 1 {
			t.Fatalf("task %d taken %d times", i, c)
		}
	}
	if g.Len() != 0 {
		t.Fatalf("Global.Len = %d after draining", g.Len())
	}
	t.Logf("METRIC queue_items=%d", len(l.items))
	// One quiet round trip through the drained queue, whose buffer is
	// back at its smallest size: the pop clears the slot in place rather
	// than leaving it to a shrink that copies the live tasks away.
	g.Push(&l.items[0])
	buf := make([]*item, 1)
	if k := g.PopBatch(buf); k != 1 || buf[0] != &l.items[0] {
		t.Fatalf("round trip through the drained queue: PopBatch = %d", k)
	}
	buf[0] = nil
	checkReleased(t, l, g)
}

// TestGlobalBatchesStayWhole: producers push batches of batchLen while one
// consumer records the order the queue hands them out. PushBatch appends a
// batch under one lock, so nothing may land inside a batch: every task that
// is not the first of its batch comes right after its predecessor.
func TestGlobalBatchesStayWhole(t *testing.T) {
	const producers, batchLen = 3, 8
	per := 40_000 // tasks per producer, a multiple of batchLen
	if longRun() {
		per = 800_000
	}
	l := newLedger(producers * per)
	g := queue.NewGlobal[item]()
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := p * per; i < (p+1)*per && !l.stop.Load(); i += batchLen {
				batch := make([]*item, batchLen)
				for j := range batch {
					batch[j] = &l.items[i+j]
				}
				g.PushBatch(batch)
				if i%(64*batchLen) == 0 {
					runtime.Gosched()
				}
			}
		})
	}
	wg.Go(func() {
		buf := make([]*item, 5) // not a multiple of batchLen: batches straddle PopBatch calls
		prev := -1
		for l.running() {
			k := g.PopBatch(buf)
			for _, x := range buf[:k] {
				if x.id%batchLen != 0 && x.id != prev+1 {
					l.fail("task %d came after task %d: another push landed inside its batch", x.id, prev)
				}
				prev = x.id
				l.take(x, "consumer")
			}
			if k == 0 {
				runtime.Gosched()
			}
		}
	})
	waitOrFail(l, &wg, func() string { return fmt.Sprintf("Global.Len %d", g.Len()) })
	for _, e := range l.errs {
		t.Error(e)
	}
	for i := range l.count {
		if c := l.count[i].Load(); c != 1 {
			t.Fatalf("task %d taken %d times", i, c)
		}
	}
}

// waitOrFail waits for wg; if the ledger makes no progress for 10 s it
// records a hang (with state() for the diagnosis), stops the goroutines and
// waits for them to return.
func waitOrFail(l *ledger, wg *sync.WaitGroup, state func() string) {
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	last, lastChange := l.done.Load(), time.Now()
	for {
		select {
		case <-finished:
			return
		case <-time.After(200 * time.Millisecond):
			if d := l.done.Load(); d != last {
				last, lastChange = d, time.Now()
			} else if time.Since(lastChange) > 10*time.Second {
				l.fail("no progress for 10s at %d of %d tasks taken; %s", d, len(l.items), state())
				<-finished
				return
			}
		}
	}
}
