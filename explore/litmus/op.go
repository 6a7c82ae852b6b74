package litmus

import (
	"fmt"

	"github.com/wsched/wsched/explore/internal/weak"
)

// Ordering is a C11 memory order.
type Ordering = weak.Ordering

// The orderings, weakest first.
const (
	Relaxed = weak.Relaxed
	Acquire = weak.Acquire
	Release = weak.Release
	AcqRel  = weak.AcqRel
	SeqCst  = weak.SeqCst
)

type opKind uint8

const (
	opLoad opKind = iota
	opStore
	opAdd
	opCAS
	opFence
	opRead  // a plain cell
	opWrite // a plain cell
)

// Op is one operation of a thread. Make one with Load, Store, StoreReg,
// Add, CAS, Fence, Read or Write.
type Op struct {
	kind      opKind
	loc, reg  string
	val, new  int
	ord, fail Ordering
	// valReg, for a store, names the register whose value it stores.
	valReg string
	// guard: run the operation only if register ifReg holds ifVal.
	ifReg string
	ifVal int
}

// Load reads atomic location loc into register reg.
func Load(reg, loc string, o Ordering) Op {
	return Op{kind: opLoad, reg: reg, loc: loc, ord: o}
}

// Store writes v to atomic location loc.
func Store(loc string, v int, o Ordering) Op {
	return Op{kind: opStore, loc: loc, val: v, ord: o}
}

// StoreReg writes to atomic location loc the value register reg holds
// when the store runs (0 if no operation has set it yet): a store whose
// value depends on an earlier read.
func StoreReg(loc, reg string, o Ordering) Op {
	return Op{kind: opStore, loc: loc, valReg: reg, ord: o}
}

// Add adds d to atomic location loc in one read-modify-write (a
// fetch-and-add) and puts the value it read in register reg.
func Add(reg, loc string, d int, o Ordering) Op {
	return Op{kind: opAdd, reg: reg, loc: loc, val: d, ord: o}
}

// CAS compares atomic location loc with expected and, if equal, stores
// new, with ordering success; if not, it is a load with ordering failure.
// Register reg gets the value it read (expected when it succeeded).
func CAS(reg, loc string, expected, new int, success, failure Ordering) Op {
	return Op{kind: opCAS, reg: reg, loc: loc, val: expected, new: new, ord: success, fail: failure}
}

// Fence is an atomic fence (atomic_thread_fence) with ordering o.
func Fence(o Ordering) Op { return Op{kind: opFence, ord: o} }

// Read reads the plain (non-atomic) cell named cell: a data race with any
// write to it that happens-before does not order.
func Read(cell string) Op { return Op{kind: opRead, loc: cell} }

// Write writes the plain cell named cell.
func Write(cell string) Op { return Op{kind: opWrite, loc: cell} }

// When makes o conditional: it runs only if register reg holds v by then
// (an if around it; the register is the thread's own).
func (o Op) When(reg string, v int) Op {
	o.ifReg, o.ifVal = reg, v
	return o
}

func (o Op) String() string {
	var s string
	switch o.kind {
	case opLoad:
		s = fmt.Sprintf("%s = %s.Load(%v)", o.reg, o.loc, o.ord)
	case opStore:
		if o.valReg != "" {
			s = fmt.Sprintf("%s.Store(%s, %v)", o.loc, o.valReg, o.ord)
			break
		}
		s = fmt.Sprintf("%s.Store(%d, %v)", o.loc, o.val, o.ord)
	case opAdd:
		s = fmt.Sprintf("%s = %s.Add(%d, %v)", o.reg, o.loc, o.val, o.ord)
	case opCAS:
		s = fmt.Sprintf("%s = %s.CompareAndSwap(%d, %d, %v, %v)", o.reg, o.loc, o.val, o.new, o.ord, o.fail)
	case opFence:
		s = fmt.Sprintf("Fence(%v)", o.ord)
	case opRead:
		s = fmt.Sprintf("read %s", o.loc)
	case opWrite:
		s = fmt.Sprintf("write %s", o.loc)
	}
	if o.ifReg != "" {
		s = fmt.Sprintf("if %s == %d { %s }", o.ifReg, o.ifVal, s)
	}
	return s
}

// atomic reports whether o accesses an atomic location.
func (o Op) atomic() bool { return o.kind != opFence && o.kind != opRead && o.kind != opWrite }

// reads reports whether o reads an atomic location.
func (o Op) reads() bool { return o.kind == opLoad || o.kind == opAdd || o.kind == opCAS }
