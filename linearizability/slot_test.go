package linearizability

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	implqueue "github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/model"
	specqueue "github.com/wsched/wsched/spec/queue"
)

// SlotModel is the porcupine form of model.SlotStep.
var SlotModel = porcupine.Model{
	Init: func() any { return model.SlotState{} },
	Step: func(s, in, out any) (bool, any) {
		return model.SlotStep(s.(model.SlotState), in.(model.SlotInput), out.(model.SlotOutput))
	},
	DescribeOperation: func(in, out any) string { return in.(model.SlotInput).Describe(out.(model.SlotOutput)) },
	DescribeState:     func(s any) string { return fmt.Sprintf("slot holds %d", s.(model.SlotState).Task) },
}

type slotTask struct{ id int }

type slotUnderTest interface {
	Put(*slotTask) *slotTask
	Take() *slotTask
	Steal() *slotTask
	Full() bool
}

func slotTaskID(t *slotTask) int {
	if t == nil {
		return 0
	}
	return t.id
}

// slotRound records one history: an owner putting and taking, two thieves
// stealing and looking, on a fresh slot.
func slotRound(s slotUnderTest, rng *rand.Rand) []porcupine.Operation {
	clock := new(Clock)
	var mu sync.Mutex
	var ops []porcupine.Operation
	do := func(client int, in model.SlotInput, f func() model.SlotOutput) {
		call := clock.tick()
		out := f()
		ret := clock.tick()
		mu.Lock()
		ops = append(ops, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
		mu.Unlock()
	}
	steps := 30 + rng.IntN(30)
	seeds := [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64()}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for c := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seeds[c], 1))
			next := c * 1_000_000
			<-start
			for range steps {
				if r.IntN(4) == 0 {
					runtime.Gosched()
				}
				switch {
				case c == 0 && r.IntN(3) != 0:
					next++
					tk := &slotTask{id: next}
					do(c, model.SlotInput{Kind: model.SlotPut, Task: tk.id}, func() model.SlotOutput {
						return model.SlotOutput{Task: slotTaskID(s.Put(tk))}
					})
				case c == 0:
					do(c, model.SlotInput{Kind: model.SlotTake}, func() model.SlotOutput {
						return model.SlotOutput{Task: slotTaskID(s.Take())}
					})
				case r.IntN(4) == 0:
					do(c, model.SlotInput{Kind: model.SlotFull}, func() model.SlotOutput {
						return model.SlotOutput{Full: s.Full()}
					})
				default:
					do(c, model.SlotInput{Kind: model.SlotSteal}, func() model.SlotOutput {
						return model.SlotOutput{Task: slotTaskID(s.Steal())}
					})
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	return ops
}

func checkSlotRounds(t *testing.T, name string, newSlot func() slotUnderTest) {
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for r := range rounds {
		if err := Check(SlotModel, name, slotRound(newSlot(), rng), 10*time.Second); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
}

// TestSlotLinearizableImpl: concurrent histories of impl/queue.Slot are
// linearizable with respect to model.SlotStep.
func TestSlotLinearizableImpl(t *testing.T) {
	checkSlotRounds(t, "slot-impl", func() slotUnderTest { return new(implqueue.Slot[slotTask]) })
}

// TestSlotLinearizableSpec: the same for the reference slot of spec/queue.
func TestSlotLinearizableSpec(t *testing.T) {
	checkSlotRounds(t, "slot-spec", func() slotUnderTest { return new(specqueue.Slot[slotTask]) })
}

// brokenSlot steals with a load and a later store of nil instead of one
// exchange: a thief and the owner can both get the task. The check must
// find it, or it has no teeth.
type brokenSlot struct{ v atomic.Pointer[slotTask] }

func (s *brokenSlot) Put(t *slotTask) *slotTask { return s.v.Swap(t) }
func (s *brokenSlot) Take() *slotTask           { return s.v.Swap(nil) }
func (s *brokenSlot) Full() bool                { return s.v.Load() != nil }
func (s *brokenSlot) Steal() *slotTask {
	t := s.v.Load()
	runtime.Gosched() // the window the exchange closes
	s.v.Store(nil)
	return t
}

// TestSlotCheckerFindsBrokenSteal: porcupine rejects a history of the
// broken slot within a bounded number of rounds.
func TestSlotCheckerFindsBrokenSteal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for r := range 500 {
		if err := Check(SlotModel, "slot-broken", slotRound(new(brokenSlot), rng), 10*time.Second); err != nil {
			t.Logf("round %d: found, as it must be: %.200s", r, err)
			return
		}
	}
	t.Fatal("500 histories of a slot whose steal is a load and a store all looked linearizable: the check has no teeth")
}
