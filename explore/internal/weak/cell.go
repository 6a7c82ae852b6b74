package weak

import "fmt"

// Plain cells: memory that is not atomic (atomic.Cell in the production
// build, the ring's slots, task fields written by wakers). Their values
// live in the program; the model checks only that every two conflicting
// accesses (two writes, or a write and a read, by different threads) are
// ordered by happens-before, as loom checks UnsafeCell and as a
// vector-clock race detector does. An access that is not is a data race,
// undefined behaviour in C11 whatever the values: Read and Write return a
// *Race naming both accesses.
//
// Happens-before here is the model's, not Go's: release/acquire pairs,
// fences, seq_cst stores read by seq_cst loads, and the edges of sync.go
// and goroutine.go. A relaxed store read by a relaxed load orders
// nothing, which is the point: the same program under the explorer's
// sequentially consistent mode, or the race detector (which sees Go's
// seq_cst atomics), never reports it.

// Cell names a plain cell of the model.
type Cell int

type access struct {
	thread Thread
	time   uint32 // the thread's clock at the access
	site   string
	seq    int
}

// cell keeps the last write and, per thread, the last read since it:
// a later read by the same thread is ordered after the earlier one, so
// checking a write against it covers both.
type cell struct {
	name    string
	written bool
	write   access
	reads   []access
}

// Race is a data race: two conflicting accesses to a plain cell, neither
// happening before the other.
type Race struct {
	Cell string
	// First is the earlier access (in execution order), Second the one
	// that found it unordered.
	First, Second RaceAccess
}

// RaceAccess is one side of a Race.
type RaceAccess struct {
	Thread Thread
	Write  bool
	Site   string // as the controller passed it: file:line
	Seq    int    // the model's operation number
}

func (a RaceAccess) String() string {
	kind := "read"
	if a.Write {
		kind = "write"
	}
	return fmt.Sprintf("%s by thread %d at %s (operation %d)", kind, a.Thread, a.Site, a.Seq)
}

func (r *Race) Error() string {
	return fmt.Sprintf("data race on %s: %s is not ordered before %s", r.Cell, r.First, r.Second)
}

// NewCell adds a plain cell that no thread has accessed; as with
// NewAtomic, its initial contents count as written before every thread
// began.
func (m *Model) NewCell(name string) Cell {
	m.cells = append(m.cells, &cell{name: name})
	return Cell(len(m.cells) - 1)
}

func (m *Model) cell(c Cell) *cell {
	if c < 0 || int(c) >= len(m.cells) {
		panic("weak: no such Cell")
	}
	return m.cells[c]
}

// Read records a read of c by t at site, and returns a *Race if a write
// to c does not happen before it.
func (m *Model) Read(t Thread, c Cell, site string) error {
	x := m.cell(c)
	ts, now := m.step(t)
	a := access{thread: t, time: now, site: site, seq: m.events}
	var err error
	if x.written && !ts.ordered(x.write) {
		err = x.race(x.write, true, a, false)
	}
	for i := range x.reads {
		if x.reads[i].thread == t {
			x.reads[i] = a
			return err
		}
	}
	x.reads = append(x.reads, a)
	return err
}

// Write records a write of c by t at site, and returns a *Race if the
// last write to c, or a read since it, does not happen before it.
func (m *Model) Write(t Thread, c Cell, site string) error {
	x := m.cell(c)
	ts, now := m.step(t)
	a := access{thread: t, time: now, site: site, seq: m.events}
	var err error
	if x.written && !ts.ordered(x.write) {
		err = x.race(x.write, true, a, true)
	}
	for _, r := range x.reads {
		if err == nil && !ts.ordered(r) {
			err = x.race(r, false, a, true)
		}
	}
	x.written, x.write, x.reads = true, a, x.reads[:0]
	return err
}

// ordered reports whether access a happens before ts's current operation.
func (ts *threadState) ordered(a access) bool {
	return ts.cur.time(a.thread) >= a.time
}

func (x *cell) race(first access, firstWrite bool, second access, secondWrite bool) *Race {
	side := func(a access, w bool) RaceAccess {
		return RaceAccess{Thread: a.thread, Write: w, Site: a.site, Seq: a.seq}
	}
	return &Race{Cell: x.name, First: side(first, firstWrite), Second: side(second, secondWrite)}
}
