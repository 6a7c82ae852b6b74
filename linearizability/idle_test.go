package linearizability

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/wsched/wsched/impl/idle"
	"github.com/wsched/wsched/model"
)

// idlePorcupineModel is model.IdleModel in its non-strict form (a claim may
// return any parked worker: the implementation picks the lowest bit of a
// load and clears it with a later fetch-and).
func idlePorcupineModel(n int) porcupine.Model {
	m := model.IdleModel{Strict: false}
	return porcupine.Model{
		Init: func() any { return model.NewIdleState(n) },
		Step: func(state, input, output any) (bool, any) {
			return m.Step(state.(model.IdleState), input.(model.IdleInput), output.(model.IdleOutput))
		},
		Equal: func(a, b any) bool { return a.(model.IdleState) == b.(model.IdleState) },
		DescribeOperation: func(input, output any) string {
			return input.(model.IdleInput).Describe(output.(model.IdleOutput))
		},
		DescribeState: func(state any) string { return state.(model.IdleState).String() },
	}
}

// idleRecorder stamps calls and returns with a logical clock shared by all
// goroutines of one round; each goroutine appends to its own slice.
type idleRecorder struct {
	clock atomic.Int64
}

func (r *idleRecorder) do(ops *[]porcupine.Operation, client int, in model.IdleInput, f func() model.IdleOutput) model.IdleOutput {
	call := r.clock.Add(1)
	out := f()
	ret := r.clock.Add(1)
	*ops = append(*ops, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
	return out
}

// idleRound runs `workers` goroutines that park and un-park themselves
// (Park, then Unpark or CancelPark) and `notifiers` goroutines that claim
// parked workers, against one impl/idle State, and returns the history. A
// worker that was claimed holds a searching credit; it gives it back either
// as a searcher that found work (TransitionFromSearching) or by parking
// again as a searcher (Park with searching set).
// Outputs of these operations depend only on the bitmap, which each step
// changes with one atomic read-modify-write, so the history must be
// linearizable against the model. The counters are checked at the end,
// when every goroutine is done (quiescence): every credit given back, so ns
// is 0 again.
func idleRound(t *testing.T, workers, notifiers, cycles int) []porcupine.Operation {
	s := idle.New(workers)
	var rec idleRecorder
	hist := make([][]porcupine.Operation, workers+notifiers)
	var stop atomic.Bool
	var wg, nwg sync.WaitGroup
	for n := 0; n < notifiers; n++ {
		nwg.Add(1)
		go func() {
			defer nwg.Done()
			c := workers + n
			for k := 0; !stop.Load() && k < 4*cycles; k++ {
				in := model.IdleInput{Kind: model.IdleClaimParked}
				rec.do(&hist[c], c, in, func() model.IdleOutput {
					return model.IdleOutput{Worker: s.ClaimParked()}
				})
			}
		}()
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			searching := false // we hold a searching credit
			for k := 0; k < cycles; k++ {
				in := model.IdleInput{Kind: model.IdlePark, Worker: w, Searching: searching}
				rec.do(&hist[w], w, in, func() model.IdleOutput {
					s.Park(w, in.Searching)
					return model.IdleOutput{Worker: -1}
				})
				searching = false
				kind := model.IdleUnpark
				if k%4 == 0 {
					kind = model.IdleCancelPark
				}
				out := rec.do(&hist[w], w, model.IdleInput{Kind: kind, Worker: w}, func() model.IdleOutput {
					if kind == model.IdleCancelPark {
						return model.IdleOutput{Worker: -1, Ok: s.CancelPark(w)}
					}
					return model.IdleOutput{Worker: -1, Ok: s.Unpark(w)}
				})
				if out.Ok || kind == model.IdleCancelPark {
					// Claimed (or came back as a searcher): the
					// credit is ours. Every third cycle the search
					// finds nothing and the next Park gives the
					// credit back; otherwise it finds work and gives
					// it back here.
					if k%3 == 1 {
						searching = true
					} else {
						s.TransitionFromSearching()
					}
				}
			}
			if searching {
				s.TransitionFromSearching()
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	nwg.Wait()
	if snap := s.Snapshot(); snap != (idle.Snapshot{}) {
		t.Fatalf("at quiescence: %+v, want all zero", snap)
	}
	var ops []porcupine.Operation
	for _, h := range hist {
		ops = append(ops, h...)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].Call < ops[j].Call })
	return ops
}

// TestIdleLinearizable checks concurrent histories of claim / park /
// unpark on impl/idle against model.IdleModel with porcupine.
func TestIdleLinearizable(t *testing.T) {
	rounds := 12
	if os.Getenv("WSCHED_LONG") != "" {
		rounds = 200
	}
	checked := 0
	for r := 0; r < rounds; r++ {
		workers, notifiers := 2+r%3, 1+r%2
		ops := idleRound(t, workers, notifiers, 300)
		checked += len(ops)
		m := idlePorcupineModel(workers)
		res, info := porcupine.CheckOperationsVerbose(m, ops, 30*time.Second)
		switch res {
		case porcupine.Ok:
		case porcupine.Illegal:
			dir, err := os.MkdirTemp("", "idle-porcupine-")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("idle-round%d.html", r))
			if err := porcupine.VisualizePath(m, info, path); err != nil {
				t.Logf("visualize: %v", err)
			}
			t.Fatalf("round %d (%d workers, %d notifiers, %d ops): not linearizable; see %s", r, workers, notifiers, len(ops), path)
		default:
			t.Fatalf("round %d: porcupine gave up (%v) on %d ops", r, res, len(ops))
		}
	}
	t.Logf("METRIC histories=%d operations=%d", rounds, checked)
}
