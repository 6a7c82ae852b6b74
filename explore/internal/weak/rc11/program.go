package rc11

import "github.com/wsched/wsched/explore/internal/order"

// Ordering is a C11 memory order (consume left out): the explorer's one
// definition (explore/internal/order).
type Ordering = order.Ordering

// The orderings.
const (
	Relaxed = order.Relaxed
	Acquire = order.Acquire
	Release = order.Release
	AcqRel  = order.AcqRel
	SeqCst  = order.SeqCst
)

// Kind is what an operation does.
type Kind uint8

const (
	Load  Kind = iota // Reg = Loc
	Store             // Loc = Val, or Loc = Reg's value if ValReg is set
	Add               // Reg = fetch_add(Loc, Val): a read-modify-write
	CAS               // Reg = the value read; writes New if it read Val
	Fence             // atomic_thread_fence(Ord)
	Read              // a plain (non-atomic) read of cell Loc
	Write             // a plain (non-atomic) write of cell Loc
	Swap              // Reg = exchange(Loc, Val): a read-modify-write
)

// Op is one operation of a thread.
type Op struct {
	Kind     Kind
	Loc, Reg string
	Val, New int
	// ValReg, for a Store, names the register whose value is stored.
	ValReg string
	// Ord is the ordering (a CAS's success ordering); Fail is a CAS's
	// failure ordering.
	Ord, Fail Ordering
	// If IfReg is set, the operation runs only if that register (of the
	// same thread, assigned before) holds IfVal; otherwise it is skipped
	// and is no event of the execution.
	IfReg string
	IfVal int
}

// Program is a litmus program: threads of operations on atomic locations
// (all initially 0) and plain cells.
type Program struct {
	Threads [][]Op
	// Final names the locations whose final value (the last store in
	// modification order) is part of the outcome.
	Final []string
}
