package engine

import "math/bits"

// locTable maps the locations one run of the reduced search touched to
// their records' indexes (porRun.locIndex). It is a Go map's job, done
// with less: every step looks up each location it touches, a run touches
// a few hundred, and a search empties the table for every run, so the
// table is open addressing over a power-of-two array with linear probing,
// and a slot belongs to the run only if it carries the run's generation
// (emptying it is one increment). A slot's key, generation and value are
// one 16-byte record, so that a probe reads one cache line, not three.
type locTable struct {
	slots []locSlot
	gen   uint32 // the run's generation; slots of another are empty
	n     int    // slots of this generation
	shift uint   // 64 - log2(len(slots))
}

// locSlot is one slot of a locTable.
type locSlot struct {
	key uintptr
	gen uint32
	val int32
}

// reset empties the table.
func (t *locTable) reset() {
	t.gen++
	t.n = 0
	if t.gen == 0 { // wrapped: every stored generation may match again
		clear(t.slots)
		t.gen = 1
	}
}

// slot is where the probe for l starts: a multiplicative hash, whose
// high bits mix every bit of an address (the low ones of an aligned
// address are all zero, and the small numbers of threadLoc differ only
// in theirs).
func (t *locTable) slot(l uintptr) int {
	return int((uint64(l) * 0x9e3779b97f4a7c15) >> t.shift)
}

// index returns l's value, or, if l is not in the table, stores next as
// its value and returns it with added set.
func (t *locTable) index(l uintptr, next int32) (v int32, added bool) {
	if t.gen == 0 {
		t.gen = 1
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := t.slot(l); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			*sl = locSlot{l, t.gen, next}
			t.n++
			return next, true
		}
		if sl.key == l {
			return sl.val, false
		}
	}
}

// grow doubles the table (or makes its first 256 slots) and moves this
// generation's entries over.
func (t *locTable) grow() {
	size := max(256, 2*len(t.slots))
	old := *t
	t.slots = make([]locSlot, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	t.gen, t.n = 1, 0
	mask := size - 1
	for _, o := range old.slots {
		if o.gen != old.gen {
			continue
		}
		i := t.slot(o.key)
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = locSlot{o.key, t.gen, o.val}
		t.n++
	}
}

// put stores v as l's value, in l's slot if it has one.
func (t *locTable) put(l uintptr, v int32) {
	if _, added := t.index(l, v); added {
		return
	}
	mask := len(t.slots) - 1
	for i := t.slot(l); ; i = (i + 1) & mask {
		if sl := &t.slots[i]; sl.key == l {
			sl.val = v
			return
		}
	}
}

// lookup returns l's value, if l is in the table.
func (t *locTable) lookup(l uintptr) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.slot(l); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			return 0, false
		}
		if sl.key == l {
			return sl.val, true
		}
	}
}
