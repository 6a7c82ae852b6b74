package linearizability

import (
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/linearizability/queuecheck"
	"github.com/wsched/wsched/model"
)

// slotStep is one scripted call of a slot round.
type slotStep struct {
	kind  model.SlotOpKind
	yield bool // runtime.Gosched() before the call, to vary interleavings
}

// slotConfig shapes one round. Rounds vary the owner's mix, so that some
// keep the slot full (puts displace, thieves find a task) and some keep it
// mostly empty (the owner's takes race the thieves' steals for each task).
type slotConfig struct {
	thieves  int     // clients 1..thieves
	ownerOps int     // calls by the owner, client 0
	thiefOps int     // calls by each thief
	putP     float64 // chance that an owner call is a Put (else mostly Take)
}

func drawSlotConfig(rng *rand.Rand) slotConfig {
	return slotConfig{
		thieves:  2 + rng.IntN(2),
		ownerOps: 60 + rng.IntN(140),
		thiefOps: 40 + rng.IntN(100),
		putP:     0.35 + 0.5*rng.Float64(),
	}
}

func slotOwnerScript(rng *rand.Rand, c slotConfig) []slotStep {
	s := make([]slotStep, c.ownerOps)
	for i := range s {
		switch r := rng.Float64(); {
		case r < c.putP:
			s[i].kind = model.SlotPut
		case r < c.putP+0.05:
			s[i].kind = model.SlotFull
		default:
			s[i].kind = model.SlotTake
		}
		s[i].yield = rng.IntN(8) == 0
	}
	return s
}

func slotThiefScript(rng *rand.Rand, c slotConfig) []slotStep {
	s := make([]slotStep, c.thiefOps)
	for i := range s {
		s[i].kind = model.SlotSteal
		if rng.IntN(5) == 0 {
			s[i].kind = model.SlotFull
		}
		s[i].yield = rng.IntN(8) == 0
	}
	return s
}

// slotRound runs one round on a fresh slot from newSlot and returns its
// history: the owner putting and taking while two or three thieves steal
// and look, all from scripts drawn before any goroutine starts; then,
// quiescent, the owner's Full, Take and Full, so that a task lost or
// duplicated shows in the history itself (the model holds a lost task
// until the drain, which then finds the slot empty).
func slotRound(newSlot func() queuecheck.Slot, rng *rand.Rand) []porcupine.Operation {
	c := drawSlotConfig(rng)
	x := newSlot()
	clock := new(Clock)
	clients := make([]*SlotClient, 1+c.thieves)
	scripts := make([][]slotStep, len(clients))
	for i := range clients {
		clients[i] = &SlotClient{ID: i, Clock: clock, X: x}
		if i == 0 {
			scripts[i] = slotOwnerScript(rng, c)
		} else {
			scripts[i] = slotThiefScript(rng, c)
		}
	}

	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range clients {
		wg.Add(1)
		go func(me int) {
			defer wg.Done()
			cl, next := clients[me], 0
			<-start
			for _, s := range scripts[me] {
				if s.yield {
					runtime.Gosched()
				}
				switch s.kind {
				case model.SlotPut:
					next++
					cl.Put(next)
				case model.SlotTake:
					cl.Take()
				case model.SlotSteal:
					cl.Steal()
				case model.SlotFull:
					cl.Full()
				}
			}
		}(i)
	}
	close(start)
	wg.Wait()

	owner := clients[0]
	owner.Full()
	owner.Take()
	owner.Full()
	return SlotHistory(clients...)
}

// slotStats counts what a round exercised, so the test log shows that the
// interesting cases happen.
type slotStats struct {
	ops, displaced, stolen, contended, lostTakes int
}

func (s *slotStats) add(ops []porcupine.Operation) {
	s.ops += len(ops)
	var owner []porcupine.Operation
	for _, op := range ops {
		if op.ClientId == 0 {
			owner = append(owner, op)
		}
	}
	for _, op := range ops {
		in, out := op.Input.(model.SlotInput), op.Output.(model.SlotOutput)
		switch {
		case in.Kind == model.SlotPut && out.Task != 0:
			s.displaced++
		case in.Kind == model.SlotSteal && out.Task != 0:
			s.stolen++
			// A successful steal that overlapped one of the owner's
			// calls: the race the slot's exchange settles.
			for _, o := range owner {
				if o.Call < op.Return && op.Call < o.Return {
					s.contended++
					break
				}
			}
		}
	}
	// The owner's Take coming back empty right after its own Put: a thief
	// stole the task in between.
	for i := 1; i < len(owner); i++ {
		prev, cur := owner[i-1].Input.(model.SlotInput), owner[i].Input.(model.SlotInput)
		if prev.Kind == model.SlotPut && cur.Kind == model.SlotTake && owner[i].Output.(model.SlotOutput).Task == 0 {
			s.lostTakes++
		}
	}
}

func testSlotLinearizable(t *testing.T, name string, newSlot func() queuecheck.Slot, n int) {
	s := queueSeed(t)
	rng := rand.New(rand.NewPCG(s, 0x5107))
	var st slotStats
	start := time.Now()
	for round := range n {
		ops := slotRound(newSlot, rng)
		st.add(ops)
		if err := Check(SlotModel(), name, ops, checkTimeout); err != nil {
			t.Fatalf("round %d (WSCHED_SEED=%d, chaos=%v): %v", round, s, chaosTag, err)
		}
	}
	t.Logf("%s: %d histories, %d operations (seed %d, chaos=%v) in %v", name, n, st.ops, s, chaosTag, time.Since(start).Round(time.Millisecond))
	t.Logf("METRIC histories=%d operations=%d", n, st.ops)
	t.Logf("%s: puts that displaced a task %d, steals that got one %d (%d during an owner's call), owner's takes emptied by a thief %d",
		name, st.displaced, st.stolen, st.contended, st.lostTakes)
	// The scripts make these certain over a run; if they stop happening,
	// the rounds no longer test what they claim to.
	if st.displaced == 0 || st.stolen == 0 || st.lostTakes == 0 {
		t.Errorf("%s: the rounds never displaced a task, stole one, or stole one between the owner's Put and Take", name)
	}
}

// TestSlotLinearizableImpl records concurrent histories of impl/queue.Slot
// (the owner putting and taking, two or three thieves stealing) and checks
// each with porcupine against model.SlotModel.
func TestSlotLinearizableImpl(t *testing.T) {
	testSlotLinearizable(t, "impl-slot", queuecheck.NewImplSlot, queueRounds(300))
}

// TestSlotLinearizableSpec runs the same rounds on spec/queue.Slot: a check
// that failed here would be a wrong check.
func TestSlotLinearizableSpec(t *testing.T) {
	testSlotLinearizable(t, "spec-slot", queuecheck.NewSpecSlot, queueRounds(100))
}

// brokenSlot steals with a load and a later store of empty instead of one
// exchange. Between the two, the owner's Take can get the same task (a
// task out twice), or the owner's Put a new one that the store then erases
// (a task lost). Everything else is the real slot's exchanges.
type brokenSlot struct {
	v atomic.Int64 // the task id, 0 when empty
}

func (s *brokenSlot) Put(task int) int { return int(s.v.Swap(int64(task))) } // one exchange, as impl/
func (s *brokenSlot) Take() int        { return int(s.v.Swap(0)) }           // one exchange, as impl/
func (s *brokenSlot) Full() bool       { return s.v.Load() != 0 }            // a snapshot, as impl/

func (s *brokenSlot) Steal() int {
	t := s.v.Load() // reads the task without claiming it
	if t == 0 {
		return 0
	}
	runtime.Gosched() // the window that one exchange closes
	s.v.Store(0)      // empties the slot, whatever it holds by now
	return int(t)
}

// TestSlotCheckerFindsBrokenSteal: the same rounds on brokenSlot must give a
// history that porcupine finds Illegal (not merely Unknown) within a bounded
// number of rounds, with its HTML view written; otherwise the check has no
// teeth.
func TestSlotCheckerFindsBrokenSteal(t *testing.T) {
	const rounds = 200
	rng := rand.New(rand.NewPCG(1, 0x5107))
	for r := range rounds {
		err := Check(SlotModel(), "slot-broken", slotRound(func() queuecheck.Slot { return new(brokenSlot) }, rng), checkTimeout)
		if err == nil {
			continue
		}
		msg := err.Error()
		path := regexp.MustCompile(`\S+\.html`).FindString(msg)
		if path != "" {
			defer os.Remove(path)
		}
		if fi, err := os.Stat(path); path == "" || err != nil || fi.Size() == 0 {
			t.Errorf("no HTML view of the failure (%q): %v", path, err)
		}
		if !strings.Contains(msg, "Illegal") {
			t.Fatalf("round %d: the broken slot's history got no verdict, want Illegal: %v", r, err)
		}
		t.Logf("round %d (chaos=%v): found, as it must be:\n%v", r, chaosTag, err)
		return
	}
	t.Fatalf("%d histories of a slot whose steal is a load and a store all looked linearizable: the check has no teeth", rounds)
}
