package linearizability

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/impl/deque"
	"github.com/wsched/wsched/model"
	specdeque "github.com/wsched/wsched/spec/deque"
)

// dequeModel is model.Deque as a porcupine model. An operation's Input is
// the whole model.DequeOp (kind, value and outcome); Output is unused.
var dequeModel = porcupine.Model{
	Init: func() any { return model.NewDeque() },
	Step: func(state, input, _ any) (bool, any) {
		return state.(model.Deque).Step(input.(model.DequeOp))
	},
	Equal: func(a, b any) bool { return a.(model.Deque).Equal(b.(model.Deque)) },
	Hash: func(s any) uint64 {
		var h maphash.Hash
		h.SetSeed(dequeHashSeed)
		for _, v := range s.(model.Deque).Items() {
			maphash.WriteComparable(&h, v)
		}
		return h.Sum64()
	},
	DescribeOperation: func(input, _ any) string { return input.(model.DequeOp).String() },
	DescribeState:     func(s any) string { return s.(model.Deque).String() },
}

var dequeHashSeed = maphash.MakeSeed()

// dequeTarget is the deque under test: impl/deque or its lock-based twin
// spec/deque. The same rounds run against both; spec/deque passing is what
// shows the check itself is right.
type dequeTarget interface {
	Push(v *int)
	Pop() (*int, bool)
	Steal() (*int, model.DequeOutcome)
}

type implDeque struct{ *deque.Deque[int] }

func (d implDeque) Steal() (*int, model.DequeOutcome) {
	p, res := d.Deque.Steal()
	return p, map[deque.StealResult]model.DequeOutcome{
		deque.Success: model.DequeOK, deque.Empty: model.DequeEmpty, deque.Retry: model.DequeRetry,
	}[res]
}

type specDeque struct{ *specdeque.Deque[int] }

func (d specDeque) Steal() (*int, model.DequeOutcome) {
	p, res := d.Deque.Steal()
	return p, map[specdeque.StealResult]model.DequeOutcome{
		specdeque.Success: model.DequeOK, specdeque.Empty: model.DequeEmpty, specdeque.Retry: model.DequeRetry,
	}[res]
}

func newImplDeque(capacity int) dequeTarget {
	d, err := deque.New[int](capacity)
	if err != nil {
		panic(err)
	}
	return implDeque{d}
}

func newSpecDeque(capacity int) dequeTarget {
	d, err := specdeque.New[int](capacity)
	if err != nil {
		panic(err)
	}
	return specDeque{d}
}

// dequeRecorder stamps operations with a logical clock: a call takes a
// number before it starts and another after it returns, so two operations
// overlap in the history exactly when they may have overlapped in time.
type dequeRecorder struct {
	clock atomic.Int64
	mu    sync.Mutex
	ops   []porcupine.Operation
}

func (r *dequeRecorder) record(client int, call int64, op model.DequeOp) {
	ret := r.clock.Add(1)
	r.mu.Lock()
	r.ops = append(r.ops, porcupine.Operation{ClientId: client, Input: op, Call: call, Return: ret})
	r.mu.Unlock()
}

func (r *dequeRecorder) push(d dequeTarget, v int) {
	call := r.clock.Add(1)
	p := new(int)
	*p = v
	d.Push(p)
	r.record(0, call, model.DequeOp{Kind: model.DequePush, Value: v})
}

func (r *dequeRecorder) pop(d dequeTarget) {
	call := r.clock.Add(1)
	p, ok := d.Pop()
	op := model.DequeOp{Kind: model.DequePop, Outcome: model.DequeEmpty}
	if ok {
		op.Outcome, op.Value = model.DequeOK, *p
	}
	r.record(0, call, op)
}

// steal records every Success, and Empty results while recordEmpty is true.
// Retry results are legal in any state and change nothing, and so is
// leaving out an Empty: dropping an operation that changes nothing keeps the
// rest of a history exactly as checkable. Thieves spin, so without the cap
// Empty results would swamp the history.
func (r *dequeRecorder) steal(d dequeTarget, client int, recordEmpty bool) model.DequeOutcome {
	call := r.clock.Add(1)
	p, res := d.Steal()
	switch {
	case res == model.DequeOK:
		r.record(client, call, model.DequeOp{Kind: model.DequeSteal, Value: *p})
	case res == model.DequeEmpty && recordEmpty:
		r.record(client, call, model.DequeOp{Kind: model.DequeSteal, Outcome: model.DequeEmpty})
	}
	return res
}

// dequeRound runs one owner script against `thieves` stealing goroutines on
// a fresh deque of the given capacity, then drains the deque so the next
// round starts from the model's initial state. It returns the history. Each
// thief records at most maxEmpty Empty results.
func dequeRound(d dequeTarget, thieves, maxEmpty int, owner func(r *dequeRecorder, d dequeTarget)) []porcupine.Operation {
	r := &dequeRecorder{}
	var done atomic.Bool
	var wg sync.WaitGroup
	for c := 1; c <= thieves; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			empties := 0
			for {
				res := r.steal(d, c, empties < maxEmpty)
				if res == model.DequeEmpty {
					if done.Load() {
						return
					}
					empties++
					if empties%16 == 0 {
						// Three goroutines share two cores: let the
						// owner run rather than wait for preemption.
						runtime.Gosched()
					}
				}
			}
		}()
	}
	owner(r, d)
	done.Store(true)
	wg.Wait()
	// Drain: Pop until empty. The final Pop -> empty is checked like the
	// rest.
	for {
		before := len(r.ops)
		r.pop(d)
		if r.ops[before].Input.(model.DequeOp).Outcome == model.DequeEmpty {
			break
		}
	}
	return r.ops
}

// lastElementOwner pushes one or two elements and pops as many back, so the
// deque holds at most two and the owner's Pop and a thief's Steal race for
// the last element over and over.
func lastElementOwner(rng *rand.Rand, n int) func(*dequeRecorder, dequeTarget) {
	return func(r *dequeRecorder, d dequeTarget) {
		v := 0
		for range n {
			k := 1 + rng.IntN(2)
			for range k {
				v++
				r.push(d, v)
			}
			for range k {
				r.pop(d)
			}
		}
	}
}

// growthOwner pushes bursts onto a ring that starts tiny, so growth (and
// wrap-around) happens while thieves are stealing, and pops part of each
// burst back.
func growthOwner(rng *rand.Rand, n int) func(*dequeRecorder, dequeTarget) {
	return func(r *dequeRecorder, d dequeTarget) {
		v := 0
		for range n {
			burst := 1 + rng.IntN(24)
			for range burst {
				v++
				r.push(d, v)
			}
			for range rng.IntN(burst + 1) {
				r.pop(d)
			}
		}
	}
}

func checkDequeHistory(t *testing.T, name string, ops []porcupine.Operation) {
	t.Helper()
	if err := Check(dequeModel, name, ops, 30*time.Second); err != nil {
		t.Fatal(err)
	}
}

// dequeBudget is how long each scenario keeps starting new rounds against
// impl/deque (spec/deque gets a fifth of it: it only has to show the check
// is right). Rounds are the unit of checking (each one a separate porcupine
// history of a few thousand operations), so the test runs as many as fit:
// many without -race, fewer with it. WSCHED_LONG=1 runs for 40 seconds per
// scenario: verify -long runs them in its porcupine and chaos layers, four
// times the default time each, which keeps each of those layers to its
// share of -long's 45 minutes (cmd/verify/layers.go); two minutes each
// made them 5 of the porcupine layer's 7.5.
func dequeBudget() time.Duration {
	if os.Getenv("WSCHED_LONG") != "" {
		return 40 * time.Second
	}
	return 10 * time.Second
}

func runDequeRounds(t *testing.T, budget time.Duration, stream uint64, round func(rng *rand.Rand) []porcupine.Operation) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, stream))
	start := time.Now()
	rounds, ops := 0, 0
	for time.Since(start) < budget {
		h := round(rng)
		checkDequeHistory(t, fmt.Sprintf("%s-seed%d-round%d", t.Name(), seed, rounds), h)
		rounds++
		ops += len(h)
	}
	t.Logf("seed %d: %d rounds, %d operations checked", seed, rounds, ops)
	t.Logf("METRIC histories=%d operations=%d", rounds, ops)
}

// lastElementRound keeps the deque at zero to two elements, two thieves.
func lastElementRound(newDeque func(int) dequeTarget) func(*rand.Rand) []porcupine.Operation {
	return func(rng *rand.Rand) []porcupine.Operation {
		return dequeRound(newDeque(4), 2, 500, lastElementOwner(rng, 1000))
	}
}

// growthRound starts from a one-slot ring, three thieves.
func growthRound(newDeque func(int) dequeTarget) func(*rand.Rand) []porcupine.Operation {
	return func(rng *rand.Rand) []porcupine.Operation {
		return dequeRound(newDeque(1), 3, 500, growthOwner(rng, 40))
	}
}

func TestDequeLinearizableLastElement(t *testing.T) {
	runDequeRounds(t, dequeBudget(), 1, lastElementRound(newImplDeque))
}

func TestDequeLinearizableGrowth(t *testing.T) {
	runDequeRounds(t, dequeBudget(), 2, growthRound(newImplDeque))
}

func TestDequeLinearizableSpec(t *testing.T) {
	t.Run("LastElement", func(t *testing.T) {
		runDequeRounds(t, dequeBudget()/5, 3, lastElementRound(newSpecDeque))
	})
	t.Run("Growth", func(t *testing.T) {
		runDequeRounds(t, dequeBudget()/5, 4, growthRound(newSpecDeque))
	})
}
