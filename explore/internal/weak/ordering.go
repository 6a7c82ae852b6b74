package weak

import "github.com/wsched/wsched/explore/internal/order"

// Ordering is a C11 memory order: the explorer's one definition
// (explore/internal/order), under the model's own names.
type Ordering = order.Ordering

// The orderings.
const (
	Relaxed = order.Relaxed
	Acquire = order.Acquire
	Release = order.Release
	AcqRel  = order.AcqRel
	SeqCst  = order.SeqCst
)

// The orderings C11 accepts for each kind of operation. A wrong one is a
// bug in the caller (the controller maps impl/'s method names to
// orderings), so the model panics rather than guess.

func checkLoad(o Ordering) {
	if o != Relaxed && o != Acquire && o != SeqCst {
		panic("weak: a load cannot have ordering " + o.String())
	}
}

func checkStore(o Ordering) {
	if o != Relaxed && o != Release && o != SeqCst {
		panic("weak: a store cannot have ordering " + o.String())
	}
}

func checkRMW(o Ordering) {
	if o > SeqCst {
		panic("weak: a read-modify-write cannot have ordering " + o.String())
	}
}

func checkFence(o Ordering) {
	if o == Relaxed || o > SeqCst {
		panic("weak: a fence cannot have ordering " + o.String())
	}
}
