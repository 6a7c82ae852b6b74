package weak

import "fmt"

// Ordering is a C11 memory order. Consume is left out: no compiler
// implements it other than as Acquire, and neither does this model.
type Ordering uint8

const (
	Relaxed Ordering = iota
	Acquire
	Release
	AcqRel
	SeqCst
)

func (o Ordering) String() string {
	switch o {
	case Relaxed:
		return "Relaxed"
	case Acquire:
		return "Acquire"
	case Release:
		return "Release"
	case AcqRel:
		return "AcqRel"
	case SeqCst:
		return "SeqCst"
	}
	return fmt.Sprintf("Ordering(%d)", uint8(o))
}

// acquires reports whether a read with ordering o takes the view its store
// carries (an acquire read), rather than leaving it for a later acquire
// fence.
func (o Ordering) acquires() bool { return o == Acquire || o == AcqRel || o == SeqCst }

// releases reports whether a write with ordering o attaches the writer's
// own view to its store (a release write).
func (o Ordering) releases() bool { return o == Release || o == AcqRel || o == SeqCst }

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
