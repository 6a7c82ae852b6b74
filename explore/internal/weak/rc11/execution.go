package rc11

import (
	"fmt"
	"strings"
)

// An execution is built in three steps (Allowed):
//
//  1. a choice of store for every operation that may read: any store (or
//     read-modify-write, or compare-and-swap) to the same location in the
//     program, or the location's initial value;
//  2. the values and the events, computed along sb ∪ rf: an operation runs
//     once its thread's earlier ones have, and, if it reads, once the store
//     it reads from has. A guard that fails, or a compare-and-swap that
//     reads a value other than the expected one, removes an event. A
//     choice whose store is never written, or that cannot be ordered this
//     way (a cycle of sb ∪ rf: thin air), gives no execution;
//  3. every modification order of each location's stores, the initial
//     value first.
//
// Each candidate (events, rf, mo) is then checked against the axioms
// (axioms.go). Different choices for operations that turned out not to
// run give the same execution; a key removes the duplicates.

// event is one event of an execution. A read-modify-write (Add, Swap, or a CAS
// that swaps) is two events, its read and its write, related by rmw.
type event struct {
	thread int // -1: an initial write
	index  int // position in the thread's events (program order)
	op     int // the operation's index in its thread; -1 for an initial write
	kind   evKind
	loc    string
	ord    Ordering
	val    int
	rf     int // for a read: the write it reads
	rmw    int // for the read of an RMW: its write; -1 otherwise
}

type evKind uint8

const (
	evR  evKind = iota // atomic read
	evW                // atomic write
	evF                // fence
	evNR               // plain read
	evNW               // plain write
)

func (e *event) isRead() bool  { return e.kind == evR }
func (e *event) isWrite() bool { return e.kind == evW }
func (e *event) hasLoc() bool  { return e.kind != evF }

// acquires: an acquire (or stronger) read or fence.
func (e *event) acquires() bool {
	return (e.kind == evR || e.kind == evF) && (e.ord == Acquire || e.ord == AcqRel || e.ord == SeqCst)
}

// releases: a release (or stronger) write or fence.
func (e *event) releases() bool {
	return (e.kind == evW || e.kind == evF) && (e.ord == Release || e.ord == AcqRel || e.ord == SeqCst)
}

func (e *event) sc() bool { return e.kind != evNR && e.kind != evNW && e.ord == SeqCst }

// Result is what Allowed finds.
type Result struct {
	// Outcomes maps each outcome RC11 allows to the number of consistent
	// executions that give it.
	Outcomes map[string]int
	// Executions is the number of consistent executions: distinct
	// (events, rf, mo), which is what GenMC counts.
	Executions int
}

// Allowed returns the outcomes of p that RC11 allows. An outcome is
// written as explore/internal/weak's litmus runner writes it: "a=1 b=0", each
// register the program assigned in the order the program names them, then
// "x=2" for each Final location, then "race" if two plain accesses race.
func Allowed(p Program) Result { return allowed(p, paper) }

func allowed(p Program, v variant) Result {
	res := Result{Outcomes: map[string]int{}}
	readers := readingOps(p)
	sources := map[string][]opRef{} // location: the operations that may write it
	for t, th := range p.Threads {
		for i, o := range th {
			if writes(o.Kind) {
				sources[o.Loc] = append(sources[o.Loc], opRef{t, i})
			}
		}
	}
	seen := map[string]bool{}
	choice := make([]int, len(readers)) // index into sources, len = the initial value
	for {
		rf := map[opRef]opRef{}
		for k, r := range readers {
			src := sources[p.Threads[r.t][r.i].Loc]
			if choice[k] < len(src) {
				rf[r] = src[choice[k]]
			} else {
				rf[r] = opRef{-1, 0}
			}
		}
		if x, ok := evaluate(p, rf); ok {
			x.eachMO(func() {
				key := x.key()
				if seen[key] {
					return
				}
				seen[key] = true
				if consistent(x, v) {
					res.Outcomes[x.outcome(p)]++
					res.Executions++
				}
			})
		}
		// Next choice, odometer style.
		k := 0
		for ; k < len(readers); k++ {
			choice[k]++
			if choice[k] <= len(sources[p.Threads[readers[k].t][readers[k].i].Loc]) {
				break
			}
			choice[k] = 0
		}
		if k == len(readers) {
			return res
		}
	}
}

type opRef struct{ t, i int } // thread -1: the initial value

func writes(k Kind) bool { return k == Store || k == Add || k == Swap || k == CAS }
func reads(k Kind) bool  { return k == Load || k == Add || k == Swap || k == CAS }

func readingOps(p Program) []opRef {
	var out []opRef
	for t, th := range p.Threads {
		for i, o := range th {
			if reads(o.Kind) {
				out = append(out, opRef{t, i})
			}
		}
	}
	return out
}

// execution is a candidate execution: its events and, per location, its
// modification order (event indices, the initial write first).
type execution struct {
	ev   []event
	regs []map[string]int
	mo   map[string][]int
	locs []string // the atomic locations, in a fixed order
}

// evaluate runs p with the reads-from choice rf, along sb ∪ rf. It returns
// false if the choice is not realisable: a read from a store that is never
// made, or a cycle of sb ∪ rf.
func evaluate(p Program, rf map[opRef]opRef) (*execution, bool) {
	x := &execution{mo: map[string][]int{}}
	init := map[string]int{} // location: its initial write
	addInit := func(loc string) {
		if _, ok := init[loc]; !ok {
			init[loc] = len(x.ev)
			x.ev = append(x.ev, event{thread: -1, op: -1, kind: evW, loc: loc, ord: Relaxed, rmw: -1, rf: -1})
			x.locs = append(x.locs, loc)
		}
	}
	for _, th := range p.Threads {
		for _, o := range th {
			if o.Kind != Fence && o.Kind != Read && o.Kind != Write {
				addInit(o.Loc)
			}
		}
	}
	for _, f := range p.Final {
		addInit(f)
	}
	pc := make([]int, len(p.Threads))
	n := make([]int, len(p.Threads)) // events so far per thread
	x.regs = make([]map[string]int, len(p.Threads))
	for t := range x.regs {
		x.regs[t] = map[string]int{}
	}
	// written[op] is the write event an operation made, -1 if it ran and
	// made none; absent if it has not run.
	written := map[opRef]int{}
	for progress := true; progress; {
		progress = false
		for t, th := range p.Threads {
			for pc[t] < len(th) {
				me := opRef{t, pc[t]}
				o := th[pc[t]]
				if o.IfReg != "" && x.regs[t][o.IfReg] != o.IfVal {
					written[me] = -1
					pc[t]++
					progress = true
					continue
				}
				from := -1
				if reads(o.Kind) {
					src := rf[me]
					if src.t < 0 {
						from = init[o.Loc]
					} else {
						w, ran := written[src]
						if !ran {
							break // wait for the store (or find a cycle)
						}
						if w < 0 {
							return nil, false // it never stores
						}
						from = w
					}
				}
				x.run(t, pc[t], o, from, &n[t], written)
				pc[t]++
				progress = true
			}
		}
	}
	for t, th := range p.Threads {
		if pc[t] < len(th) {
			return nil, false // a cycle of sb ∪ rf
		}
	}
	return x, true
}

// run adds the events of operation i of thread t; from is the write it
// reads, if it reads.
func (x *execution) run(t, i int, o Op, from int, n *int, written map[opRef]int) {
	add := func(e event) int {
		e.thread, e.index, e.op = t, *n, i
		*n++
		x.ev = append(x.ev, e)
		return len(x.ev) - 1
	}
	me := opRef{t, i}
	written[me] = -1
	switch o.Kind {
	case Load:
		v := x.ev[from].val
		add(event{kind: evR, loc: o.Loc, ord: o.Ord, val: v, rf: from, rmw: -1})
		x.regs[t][o.Reg] = v
	case Store:
		v := o.Val
		if o.ValReg != "" {
			v = x.regs[t][o.ValReg]
		}
		written[me] = add(event{kind: evW, loc: o.Loc, ord: o.Ord, val: v, rf: -1, rmw: -1})
	case Add, Swap:
		v := x.ev[from].val
		nv := v + o.Val
		if o.Kind == Swap {
			nv = o.Val
		}
		r := add(event{kind: evR, loc: o.Loc, ord: readPart(o.Ord), val: v, rf: from})
		w := add(event{kind: evW, loc: o.Loc, ord: writePart(o.Ord), val: nv, rf: -1, rmw: -1})
		x.ev[r].rmw = w
		written[me] = w
		x.regs[t][o.Reg] = v
	case CAS:
		v := x.ev[from].val
		x.regs[t][o.Reg] = v
		if v != o.Val {
			add(event{kind: evR, loc: o.Loc, ord: o.Fail, val: v, rf: from, rmw: -1})
			return
		}
		r := add(event{kind: evR, loc: o.Loc, ord: readPart(o.Ord), val: v, rf: from})
		w := add(event{kind: evW, loc: o.Loc, ord: writePart(o.Ord), val: o.New, rf: -1, rmw: -1})
		x.ev[r].rmw = w
		written[me] = w
	case Fence:
		add(event{kind: evF, ord: o.Ord, rf: -1, rmw: -1})
	case Read:
		add(event{kind: evNR, loc: o.Loc, rf: -1, rmw: -1})
	case Write:
		add(event{kind: evNW, loc: o.Loc, rf: -1, rmw: -1})
	}
}

// readPart and writePart split an RMW's ordering between its read and its
// write: acq_rel is an acquire read and a release write; seq_cst both.
func readPart(o Ordering) Ordering {
	switch o {
	case Release:
		return Relaxed
	case AcqRel:
		return Acquire
	}
	return o
}

func writePart(o Ordering) Ordering {
	switch o {
	case Acquire:
		return Relaxed
	case AcqRel:
		return Release
	}
	return o
}

// eachMO sets x.mo to every modification order in turn (per location,
// the orders of its writes after the initial one) and calls f.
//
// Only orders that keep each RMW's write immediately after the write its
// read reads are generated: any other breaks atomicity (rmw ∩ fr;mo is
// then not empty), which consistent checks as well. So the location's
// writes are grouped into chains, a write followed by the RMWs that read
// it, and the chains permuted; two RMWs reading one write give no order.
func (x *execution) eachMO(f func()) {
	var rec func(k int)
	rec = func(k int) {
		if k == len(x.locs) {
			f()
			return
		}
		chains, ok := x.chains(x.locs[k])
		if !ok {
			return
		}
		heads := make([]int, len(chains)-1)
		for i := range heads {
			heads[i] = i + 1
		}
		permute(heads, func(p []int) {
			order := append([]int(nil), chains[0]...) // the initial write's chain
			for _, h := range p {
				order = append(order, chains[h]...)
			}
			x.mo[x.locs[k]] = order
			rec(k + 1)
		})
	}
	rec(0)
}

// chains returns loc's writes as chains, a write then the RMW writes that
// read it in turn, the initial write's chain first; false if two RMWs
// read one write.
func (x *execution) chains(loc string) ([][]int, bool) {
	next := map[int]int{} // write: the RMW write that reads it
	isRMW := map[int]bool{}
	for i := range x.ev {
		e := &x.ev[i]
		if e.kind == evR && e.rmw >= 0 && e.loc == loc {
			if _, dup := next[e.rf]; dup {
				return nil, false
			}
			next[e.rf] = e.rmw
			isRMW[e.rmw] = true
		}
	}
	var chains [][]int
	for i := range x.ev {
		e := &x.ev[i]
		if e.kind != evW || e.loc != loc || isRMW[i] {
			continue
		}
		c := []int{i}
		for w, ok := next[i]; ok; w, ok = next[w] {
			c = append(c, w)
		}
		if e.thread < 0 {
			chains = append([][]int{c}, chains...)
		} else {
			chains = append(chains, c)
		}
	}
	return chains, true
}

// permute calls f with every permutation of s (Heap's algorithm).
func permute(s []int, f func([]int)) {
	s = append([]int(nil), s...)
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			f(s)
			return
		}
		for i := 0; i < k; i++ {
			gen(k - 1)
			if k%2 == 0 {
				s[i], s[k-1] = s[k-1], s[i]
			} else {
				s[0], s[k-1] = s[k-1], s[0]
			}
		}
	}
	gen(len(s))
}

// key identifies the execution: its events (by thread and operation),
// what each read reads, and the modification orders.
func (x *execution) key() string {
	var b strings.Builder
	id := func(i int) string {
		e := &x.ev[i]
		return fmt.Sprintf("%d.%d.%d", e.thread, e.op, e.kind)
	}
	for i := range x.ev {
		e := &x.ev[i]
		b.WriteString(id(i))
		if e.kind == evR {
			b.WriteString("<" + id(e.rf))
		}
		b.WriteByte(' ')
	}
	for _, loc := range x.locs {
		b.WriteString(loc + ":")
		for _, w := range x.mo[loc] {
			b.WriteString(id(w) + ",")
		}
	}
	return b.String()
}

// outcome writes the execution's outcome in the litmus runner's format.
func (x *execution) outcome(p Program) string {
	var parts []string
	for t, th := range p.Threads {
		for _, o := range th {
			if o.Reg == "" {
				continue
			}
			if v, ok := x.regs[t][o.Reg]; ok {
				parts = append(parts, fmt.Sprintf("%s=%d", o.Reg, v))
			}
		}
	}
	for _, f := range p.Final {
		mo := x.mo[f]
		parts = append(parts, fmt.Sprintf("%s=%d", f, x.ev[mo[len(mo)-1]].val))
	}
	if x.race() {
		parts = append(parts, "race")
	}
	return strings.Join(parts, " ")
}
