package idle

import (
	"math/bits"
	"testing"

	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// TestStateMatchesModel drives State one call at a time and compares every
// result and the three words after each call with the strict sequential
// model (lowest parked worker first, signed counters).
func TestStateMatchesModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, MaxWorkers).Draw(rt, "workers")
		s := New(n)
		ms := model.NewIdleState(n)
		var m model.IdleModel
		steps := rapid.IntRange(1, 200).Draw(rt, "steps")
		for k := 0; k < steps; k++ {
			in := model.IdleInput{Kind: model.IdleOpKind(rapid.IntRange(0, int(model.IdleCancelPark)).Draw(rt, "op"))}
			if in.Kind == model.IdlePark || in.Kind == model.IdleUnpark || in.Kind == model.IdleCancelPark {
				in.Worker = rapid.IntRange(0, n-1).Draw(rt, "worker")
				in.Searching = rapid.Bool().Draw(rt, "searching")
			}
			if in.Kind == model.IdlePark && ms.Bitmap&(1<<uint(in.Worker)) != 0 {
				continue // not a valid call: the worker is parked already
			}
			want, next, ok := m.Expect(ms, in)
			if !ok {
				rt.Fatalf("model rejects its own expectation for %v in %v", in.Kind, ms)
			}
			got := apply(s, in)
			if got != want {
				rt.Fatalf("step %d %s: got %+v, model %+v (state before %v)", k, in.Describe(got), got, want, ms)
			}
			ms = next
			snap := s.Snapshot()
			if snap.Searching != ms.Searching || snap.Parked != ms.Parked || snap.Bitmap != ms.Bitmap {
				rt.Fatalf("step %d %s: state %+v, model %v", k, in.Describe(got), snap, ms)
			}
			if bits.OnesCount64(snap.Bitmap) != snap.Parked {
				rt.Fatalf("np %d != popcount(bitmap %#x)", snap.Parked, snap.Bitmap)
			}
		}
	})
}

func apply(s *State, in model.IdleInput) model.IdleOutput {
	out := model.IdleOutput{Worker: -1}
	switch in.Kind {
	case model.IdleTryBecomeSearcher:
		out.Ok = s.TryBecomeSearcher()
	case model.IdleTransitionFromSearching:
		out.Ok = s.TransitionFromSearching()
	case model.IdleNotify:
		out.Worker = s.Notify()
	case model.IdleClaimParked:
		out.Worker = s.ClaimParked()
	case model.IdlePark:
		s.Park(in.Worker, in.Searching)
	case model.IdleUnpark:
		out.Ok = s.Unpark(in.Worker)
	case model.IdleCancelPark:
		out.Ok = s.CancelPark(in.Worker)
	}
	return out
}

// The searcher limit: with n workers at most ceil(n/2) credits are handed
// out by TryBecomeSearcher alone.
func TestSearcherLimit(t *testing.T) {
	for n := 1; n <= MaxWorkers; n++ {
		s := New(n)
		got := 0
		for s.TryBecomeSearcher() {
			got++
		}
		if want := (n + 1) / 2; got != want {
			t.Fatalf("n=%d: %d searchers, want %d", n, got, want)
		}
	}
}

// The wake reason comes from the fetch-and: a claim between "parked" and
// the worker's own Unpark is seen as a claim (credit kept), never as a
// timeout. With a separate load this sequence double-decrements np.
func TestUnparkAfterClaimKeepsCredit(t *testing.T) {
	s := New(4)
	s.Park(2, false)
	if w := s.Notify(); w != 2 {
		t.Fatalf("Notify claimed %d, want 2", w)
	}
	if !s.Unpark(2) {
		t.Fatal("Unpark after a claim reported a timeout")
	}
	snap := s.Snapshot()
	if snap.Parked != 0 || snap.Searching != 1 || snap.Bitmap != 0 {
		t.Fatalf("after claim+unpark: %+v, want np=0 ns=1 bitmap=0", snap)
	}
	if !s.TransitionFromSearching() {
		t.Fatal("the only searcher was not the last")
	}
}

func TestNewPanicsOnBadCount(t *testing.T) {
	for _, n := range []int{0, -1, MaxWorkers + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d) did not panic", n)
				}
			}()
			New(n)
		}()
	}
}
