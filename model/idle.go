package model

import (
	"fmt"
	"math/bits"
)

// IdleOpKind names an operation of the idle state (impl/idle).
type IdleOpKind uint8

const (
	IdleTryBecomeSearcher       IdleOpKind = iota // -> Ok
	IdleTransitionFromSearching                   // -> Ok = wasLast
	IdleNotify                                    // -> Worker (-1: none)
	IdleClaimParked                               // -> Worker (-1: none)
	IdlePark                                      // Worker, Searching
	IdleUnpark                                    // Worker -> Ok = claimed
	IdleCancelPark                                // Worker -> Ok = claimed
)

var idleOpNames = [...]string{"TryBecomeSearcher", "TransitionFromSearching", "Notify",
	"ClaimParked", "Park", "Unpark", "CancelPark"}

func (k IdleOpKind) String() string {
	if int(k) < len(idleOpNames) {
		return idleOpNames[k]
	}
	return fmt.Sprintf("IdleOp(%d)", uint8(k))
}

// IdleInput is one call on the idle state.
type IdleInput struct {
	Kind      IdleOpKind
	Worker    int  // Park, Unpark, CancelPark
	Searching bool // Park: the worker held a searching credit
}

// IdleOutput is what the call returned.
type IdleOutput struct {
	Ok     bool // TryBecomeSearcher: became one; TransitionFromSearching: wasLast; Unpark/CancelPark: claimed
	Worker int  // Notify, ClaimParked: the claimed worker, -1 for none
}

// IdleState is num_searching, num_parked and the parked bitmap of N workers.
type IdleState struct {
	N         int
	Searching int
	Parked    int
	Bitmap    uint64
}

// NewIdleState is the state of n running, non-searching workers.
func NewIdleState(n int) IdleState { return IdleState{N: n} }

// IdleModel is the sequential specification of impl/idle.
//
// Strict selects the sequential behaviour a single-threaded test checks:
// ClaimParked and Notify take the LOWEST parked worker. Without Strict
// (the porcupine check) a claim may return any parked worker: the
// implementation picks the lowest bit of a load and clears it with a later
// fetch-and, and a lower bit set in between is not taken.
type IdleModel struct {
	Strict bool
}

// Step reports whether out is a result in allows in state s, and the state
// after it.
func (m IdleModel) Step(s IdleState, in IdleInput, out IdleOutput) (bool, IdleState) {
	switch in.Kind {
	case IdleTryBecomeSearcher:
		become := 2*s.Searching < s.N
		if out.Ok != become {
			return false, s
		}
		if become {
			s.Searching++
		}
		return true, s
	case IdleTransitionFromSearching:
		s.Searching--
		return out.Ok == (s.Searching <= 0), s
	case IdleNotify:
		if s.Searching > 0 {
			return out.Worker == -1, s
		}
		return m.claim(s, out.Worker)
	case IdleClaimParked:
		return m.claim(s, out.Worker)
	case IdlePark:
		mask := uint64(1) << uint(in.Worker)
		if s.Bitmap&mask != 0 {
			return false, s // a worker parks only while not parked
		}
		s.Bitmap |= mask
		s.Parked++
		if in.Searching {
			s.Searching--
		}
		return true, s
	case IdleUnpark, IdleCancelPark:
		mask := uint64(1) << uint(in.Worker)
		claimed := s.Bitmap&mask == 0
		if out.Ok != claimed {
			return false, s
		}
		if !claimed {
			s.Bitmap &^= mask
			s.Parked--
			if in.Kind == IdleCancelPark {
				s.Searching++
			}
		}
		return true, s
	}
	return false, s
}

func (m IdleModel) claim(s IdleState, w int) (bool, IdleState) {
	if s.Bitmap == 0 {
		return w == -1, s
	}
	if w < 0 || w >= 64 {
		return false, s
	}
	mask := uint64(1) << uint(w)
	if s.Bitmap&mask == 0 {
		return false, s
	}
	if m.Strict && bits.TrailingZeros64(s.Bitmap) != w {
		return false, s
	}
	s.Bitmap &^= mask
	s.Parked--
	s.Searching++
	return true, s
}

// Expect returns the strict sequential result of in, for tests that drive
// the implementation one call at a time. Park of an already parked worker
// is not a valid call (ok = false).
func (IdleModel) Expect(s IdleState, in IdleInput) (out IdleOutput, next IdleState, ok bool) {
	m := IdleModel{Strict: true}
	out.Worker = -1
	switch in.Kind {
	case IdleTryBecomeSearcher:
		out.Ok = 2*s.Searching < s.N
	case IdleTransitionFromSearching:
		out.Ok = s.Searching-1 <= 0
	case IdleNotify, IdleClaimParked:
		if s.Bitmap != 0 && (in.Kind == IdleClaimParked || s.Searching <= 0) {
			out.Worker = bits.TrailingZeros64(s.Bitmap)
		}
	case IdleUnpark, IdleCancelPark:
		out.Ok = s.Bitmap&(uint64(1)<<uint(in.Worker)) == 0
	}
	ok, next = m.Step(s, in, out)
	return out, next, ok
}

func (s IdleState) String() string {
	return fmt.Sprintf("ns=%d np=%d bitmap=%#x", s.Searching, s.Parked, s.Bitmap)
}

// Describe renders one call and its result for porcupine's visualisation.
func (in IdleInput) Describe(out IdleOutput) string {
	switch in.Kind {
	case IdleNotify, IdleClaimParked:
		return fmt.Sprintf("%v() -> %d", in.Kind, out.Worker)
	case IdlePark:
		return fmt.Sprintf("Park(w%d, searching=%v)", in.Worker, in.Searching)
	case IdleUnpark, IdleCancelPark:
		return fmt.Sprintf("%v(w%d) -> claimed=%v", in.Kind, in.Worker, out.Ok)
	}
	return fmt.Sprintf("%v() -> %v", in.Kind, out.Ok)
}
