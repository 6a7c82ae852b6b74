package linearizability

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/linearizability/queuecheck"
	"github.com/wsched/wsched/model"
)

// checkTimeout bounds porcupine on one history. A round's history is small
// (a few hundred to a few thousand operations, at most four running at a
// time), so porcupine normally answers in milliseconds; Unknown fails the
// test like Illegal does.
const checkTimeout = 20 * time.Second

// queueRounds returns n, or n*WSCHED_LONG when that variable holds a number.
func queueRounds(n int) int {
	if k, err := strconv.Atoi(os.Getenv("WSCHED_LONG")); err == nil && k > 0 {
		return n * k
	}
	return n
}

// queueSeed returns WSCHED_SEED if set, else a fresh seed. The seed fixes the
// scripts, not the interleavings.
func queueSeed(t *testing.T) uint64 {
	if s, err := strconv.ParseUint(os.Getenv("WSCHED_SEED"), 10, 64); err == nil {
		return s
	}
	return uint64(time.Now().UnixNano())
}

// queueStep is one scripted call; scripts are drawn before any goroutine starts.
type queueStep struct {
	kind  model.QueueOpKind
	arg   int  // Steal: victim ring; GlobalPopBatch: max; Pop: how many pops (0 = 1)
	yield bool // runtime.Gosched() before the call, to vary interleavings
}

// queueConfig shapes one round. Rounds vary it so that some rings overflow
// while thieves steal, and some thieves' rings fill up so steals are
// refused for want of room.
type queueConfig struct {
	thieves  int     // rings 1..thieves, each owned by one thief goroutine
	ownerOps int     // concurrent calls by the owner of ring 0
	thiefOps int     // concurrent calls by each thief
	pushP    float64 // chance that an owner call is a push rather than a pop
	prefill  []int   // tasks pushed into each ring before the goroutines start
	start    uint32  // NewRingAt start of every ring

	// hammer rounds keep ring 0 nearly full: its owner only pushes, and
	// every thief waits (unrecorded) until ring 0 is within 16 of full,
	// steals from it, then empties its own ring. A steal copies up to
	// MaxSteal slots, which stay occupied until its release, so the owner's
	// next few pushes fill the ring while the steal is in flight and meet
	// it; the other thieves, released at the same moment, try to steal
	// during it too.
	hammer bool
}

func drawQueueConfig(rng *rand.Rand) queueConfig {
	c := queueConfig{
		thieves:  2 + rng.IntN(2),
		ownerOps: 150 + rng.IntN(250),
		thiefOps: 60 + rng.IntN(140),
		pushP:    0.5 + 0.45*rng.Float64(),
		start:    uint32(rng.Uint64()),
	}
	if rng.IntN(2) == 0 {
		c.start = math.MaxUint32 - uint32(rng.IntN(400))
	}
	if rng.IntN(3) == 0 {
		c.hammer = true
		c.pushP = 1
		c.prefill = make([]int, 1+c.thieves)
		c.prefill[0] = model.RingCapacity
		return c
	}
	c.prefill = make([]int, 1+c.thieves)
	for i := range c.prefill {
		switch rng.IntN(4) {
		case 0: // empty
		case 1:
			c.prefill[i] = rng.IntN(model.RingCapacity + 1)
		default:
			c.prefill[i] = model.RingCapacity - rng.IntN(8)
		}
	}
	return c
}

func queueOwnerScript(rng *rand.Rand, c queueConfig) []queueStep {
	s := make([]queueStep, c.ownerOps)
	for i := range s {
		switch r := rng.Float64(); {
		case r < c.pushP:
			s[i].kind = model.OpPush
		case r < c.pushP+0.03:
			s[i] = queueStep{kind: model.OpGlobalPopBatch, arg: 1 + rng.IntN(32)}
		case r < c.pushP+0.08:
			s[i].kind = model.OpLen
		default:
			s[i].kind = model.OpPop
		}
		s[i].yield = rng.IntN(8) == 0
	}
	return s
}

// queueThiefScript is the script of thief `self`. It steals mostly from ring 0,
// and otherwise from another thief, so that chained steals happen: thief 2
// steals from thief 1 while thief 1 steals from the owner.
func queueThiefScript(rng *rand.Rand, c queueConfig, self int) []queueStep {
	s := make([]queueStep, c.thiefOps)
	if c.hammer {
		for i := range s {
			s[i] = queueStep{kind: model.OpSteal, arg: 0}
			if i%2 == 1 {
				s[i] = queueStep{kind: model.OpPop, arg: model.RingCapacity}
			}
		}
		return s
	}
	for i := range s {
		switch r := rng.IntN(20); {
		case r < 9:
			victim := 0
			if rng.IntN(5) < 2 {
				victim = 1 + rng.IntN(c.thieves)
			}
			if victim == self {
				victim = 0
			}
			s[i] = queueStep{kind: model.OpSteal, arg: victim}
		case r < 16:
			s[i].kind = model.OpPop
		case r < 17:
			s[i].kind = model.OpPush
		case r < 18:
			s[i].kind = model.OpLen
		default:
			s[i] = queueStep{kind: model.OpGlobalPopBatch, arg: 1 + rng.IntN(32)}
		}
		s[i].yield = rng.IntN(8) == 0
	}
	return s
}

// queueStats counts what a round exercised, so the test log shows that
// the interesting cases happen.
type queueStats struct {
	ops, steals, stealFails, contendedFails, chained, overflowHalf, overflowOne int
}

func (s *queueStats) add(ops []porcupine.Operation) {
	s.ops += len(ops)
	for _, op := range ops {
		in, out := op.Input.(model.QueueInput), op.Output.(model.QueueOutput)
		switch in.Kind {
		case model.OpSteal:
			s.steals++
			if out.N == 0 {
				s.stealFails++
				if in.Contended {
					s.contendedFails++
				}
			} else if in.Ring != 0 {
				s.chained++
			}
		case model.OpPush:
			switch out.N {
			case model.RingMaxSteal:
				s.overflowHalf++
			case 1:
				s.overflowOne++
			}
		}
	}
}

// queueRound runs one round on a fresh target and returns its history:
// sequential prefill, then the owner of ring 0 and the thieves concurrently,
// then (quiescent again) Len of every queue and a drain of everything, so
// that a lost or duplicated task shows up in the history.
func queueRound(newTarget func(uint32, int) queuecheck.Target, rng *rand.Rand) []porcupine.Operation {
	c := drawQueueConfig(rng)
	rings := 1 + c.thieves
	x := newTarget(c.start, rings)
	clock := new(Clock)
	clients := make([]*QueueClient, rings)
	for i := range clients {
		clients[i] = &QueueClient{ID: i, Clock: clock, X: x}
	}
	scripts := make([][]queueStep, rings)
	scripts[0] = queueOwnerScript(rng, c)
	for i := 1; i < rings; i++ {
		scripts[i] = queueThiefScript(rng, c, i)
	}

	nextID := make([]int, rings) // task ids: ring i pushes i*1e6+1, i*1e6+2, ...
	newTask := func(ring int) int {
		nextID[ring]++
		return ring*1_000_000 + nextID[ring]
	}
	for ring, k := range c.prefill {
		for range k {
			clients[ring].Push(ring, newTask(ring))
		}
	}

	// In hammer rounds the owner goes on pushing (its script again and
	// again, up to hammerExtra more calls) until every thief is done: its
	// script alone takes a few microseconds, less than it takes the thieves
	// to get going, and the point is to push while they steal.
	const hammerExtra = 2000
	var thievesLeft atomic.Int32
	thievesLeft.Store(int32(c.thieves))
	var ownerDone atomic.Bool
	waitFull := func() {
		for x.Len(0) < model.RingCapacity-16 && !ownerDone.Load() {
			runtime.Gosched()
		}
	}

	var wg sync.WaitGroup
	go1 := make(chan struct{})
	for i := range rings {
		wg.Add(1)
		go func(me int) {
			defer wg.Done()
			cl := clients[me]
			script := scripts[me]
			if me != 0 {
				defer thievesLeft.Add(-1)
			} else {
				defer ownerDone.Store(true)
			}
			<-go1
			for i := 0; ; i++ {
				if i >= len(script) && (me != 0 || !c.hammer || thievesLeft.Load() == 0 || i >= len(script)+hammerExtra) {
					break
				}
				s := script[i%len(script)]
				if s.yield {
					runtime.Gosched()
				}
				switch s.kind {
				case model.OpPush:
					cl.Push(me, newTask(me))
				case model.OpPop:
					for range max(s.arg, 1) {
						if cl.Pop(me) == 0 {
							break
						}
					}
				case model.OpSteal:
					if c.hammer {
						waitFull()
					}
					cl.StealInto(s.arg, me)
				case model.OpGlobalPopBatch:
					cl.GlobalPopBatch(s.arg)
				case model.OpLen:
					// Len by the ring's owner is exact: only the owner
					// moves the tail, so the snapshot is taken at one
					// instant (the head load).
					cl.Len(me)
				}
			}
		}(i)
	}
	close(go1)
	wg.Wait()

	owner := clients[0]
	for ring := range rings {
		owner.Len(ring)
		for owner.Pop(ring) != 0 {
		}
		owner.Len(ring)
	}
	owner.GlobalLen()
	for len(owner.GlobalPopBatch(64)) > 0 {
	}
	owner.GlobalLen()
	return QueueHistory(clients...)
}

func testQueueLinearizable(t *testing.T, name string, newTarget func(uint32, int) queuecheck.Target, n int) {
	s := queueSeed(t)
	rng := rand.New(rand.NewPCG(s, 0x5eed))
	var st queueStats
	start := time.Now()
	var checking time.Duration
	for round := range n {
		ops := queueRound(newTarget, rng)
		st.add(ops)
		c0 := time.Now()
		err := Check(QueueModel(historyRings(ops)), name, ops, checkTimeout)
		checking += time.Since(c0)
		if err != nil {
			t.Fatalf("round %d (WSCHED_SEED=%d, chaos=%v): %v", round, s, chaosTag, err)
		}
	}
	t.Logf("%s: %d histories, %d operations (seed %d, chaos=%v) in %v, porcupine %v", name, n, st.ops, s, chaosTag, time.Since(start).Round(time.Millisecond), checking.Round(time.Millisecond))
	t.Logf("METRIC histories=%d operations=%d", n, st.ops)
	t.Logf("%s: steals %d (chained %d, failed %d of which contended %d), overflow of half %d, overflow of one %d",
		name, st.steals, st.chained, st.stealFails, st.contendedFails, st.overflowHalf, st.overflowOne)
	// The scripts make these certain over a run; if they stop happening,
	// the rounds no longer test what they claim to.
	if st.chained == 0 || st.overflowHalf == 0 || st.steals == st.stealFails {
		t.Errorf("%s: the rounds never stole from a thief, overflowed a full ring, or stole at all", name)
	}
}

// historyRings is the number of rings a history touches.
func historyRings(ops []porcupine.Operation) int {
	n := 0
	for _, op := range ops {
		in := op.Input.(model.QueueInput)
		for _, r := range ringsOf(in) {
			n = max(n, r+1)
		}
	}
	return n
}

// TestQueueLinearizableImpl records concurrent histories of impl/queue (an
// owner pushing through overflow and popping, two or three thieves stealing
// from it and from each other) and checks each with porcupine.
func TestQueueLinearizableImpl(t *testing.T) {
	testQueueLinearizable(t, "impl-queue", queuecheck.NewImpl, queueRounds(300))
}

// TestQueueLinearizableSpec runs the same rounds on spec/queue: a check
// that failed here would be a wrong check.
func TestQueueLinearizableSpec(t *testing.T) {
	testQueueLinearizable(t, "spec-queue", queuecheck.NewSpec, queueRounds(40))
}
