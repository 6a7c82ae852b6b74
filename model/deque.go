package model

import (
	"fmt"
	"strings"
)

// Deque is the sequential work-stealing deque: a sequence of ints whose
// bottom end (Push, Pop) is the owner's and whose top end (Steal) is the
// thieves'. It is a pure value: every operation returns a new Deque and
// leaves its receiver unchanged, so porcupine may keep old states.
//
// Items()[0] is the top (oldest), Items()[Len()-1] the bottom (newest).
type Deque struct {
	items []int
}

// NewDeque returns a deque holding items, top first.
func NewDeque(items ...int) Deque {
	return Deque{items: append([]int(nil), items...)}
}

// Len is the number of elements.
func (d Deque) Len() int { return len(d.items) }

// Items returns a copy of the contents, top first.
func (d Deque) Items() []int { return append([]int(nil), d.items...) }

// Push returns d with v added at the bottom.
func (d Deque) Push(v int) Deque {
	out := make([]int, len(d.items)+1)
	copy(out, d.items)
	out[len(d.items)] = v
	return Deque{items: out}
}

// Pop returns d without its bottom element, and that element; ok is false
// (and d is returned unchanged) when d is empty.
func (d Deque) Pop() (next Deque, v int, ok bool) {
	n := len(d.items)
	if n == 0 {
		return d, 0, false
	}
	// Sharing the prefix is safe: no operation writes into a backing array
	// it did not allocate.
	return Deque{items: d.items[: n-1 : n-1]}, d.items[n-1], true
}

// Steal returns d without its top element, and that element; ok is false
// (and d is returned unchanged) when d is empty.
func (d Deque) Steal() (next Deque, v int, ok bool) {
	if len(d.items) == 0 {
		return d, 0, false
	}
	return Deque{items: d.items[1:]}, d.items[0], true
}

// Equal reports whether d and o hold the same sequence.
func (d Deque) Equal(o Deque) bool {
	if len(d.items) != len(o.items) {
		return false
	}
	for i := range d.items {
		if d.items[i] != o.items[i] {
			return false
		}
	}
	return true
}

// String shows the contents top first, e.g. "top[1 2 3]bottom".
func (d Deque) String() string {
	var sb strings.Builder
	sb.WriteString("top[")
	for i, v := range d.items {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprint(&sb, v)
	}
	sb.WriteString("]bottom")
	return sb.String()
}

// DequeOpKind names a deque operation.
type DequeOpKind uint8

const (
	DequePush DequeOpKind = iota
	DequePop
	DequeSteal
)

func (k DequeOpKind) String() string {
	switch k {
	case DequePush:
		return "Push"
	case DequePop:
		return "Pop"
	case DequeSteal:
		return "Steal"
	}
	return "DequeOpKind(?)"
}

// DequeOutcome is what an operation reported. Retry is only meaningful for a
// steal: it lost a race and changed nothing.
type DequeOutcome uint8

const (
	DequeOK    DequeOutcome = iota // Push done, or Pop/Steal returned Value
	DequeEmpty                     // Pop/Steal found nothing
	DequeRetry                     // Steal lost a race
)

// DequeOp is one operation with its result, the unit the porcupine and rapid
// checks replay: for Push, Value is the argument; for Pop and Steal it is the
// element returned when Outcome is DequeOK.
type DequeOp struct {
	Kind    DequeOpKind
	Value   int
	Outcome DequeOutcome
}

func (o DequeOp) String() string {
	switch {
	case o.Kind == DequePush:
		return fmt.Sprintf("Push(%d)", o.Value)
	case o.Outcome == DequeOK:
		return fmt.Sprintf("%v -> %d", o.Kind, o.Value)
	case o.Outcome == DequeEmpty:
		return fmt.Sprintf("%v -> empty", o.Kind)
	default:
		return fmt.Sprintf("%v -> retry", o.Kind)
	}
}

// Step reports whether op, with its recorded result, is a legal step from d,
// and the state after it. A Retry steal is always legal and changes nothing;
// an Empty result is legal only on an empty deque; a value must be the one at
// the operation's end.
func (d Deque) Step(op DequeOp) (bool, Deque) {
	switch op.Kind {
	case DequePush:
		return op.Outcome == DequeOK, d.Push(op.Value)
	case DequePop, DequeSteal:
		if op.Outcome == DequeRetry {
			return op.Kind == DequeSteal, d
		}
		var (
			next Deque
			v    int
			ok   bool
		)
		if op.Kind == DequePop {
			next, v, ok = d.Pop()
		} else {
			next, v, ok = d.Steal()
		}
		if op.Outcome == DequeEmpty {
			return !ok, d
		}
		return ok && v == op.Value, next
	}
	return false, d
}
