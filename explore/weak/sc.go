package weak

// seq_cst, with its RC11 (C++20) meaning.
//
// RC11 (Lahav, Vafeiadis, Kang, Hur and Dreyer, "Repairing sequential
// consistency in C/C++11", PLDI 2017; C++20 adopted it as P0668) asks for
// an order on the seq_cst events, psc, that is acyclic. Its edges go from
// an SC event, or from an SC fence through happens-before, along one step
// of scb (sequenced-before, happens-before, modification order, or
// from-reads: a read to a store newer than the one it read), to an SC
// event, or through happens-before to an SC fence; and between SC fences
// along hb;eco;hb (eco: any chain of reads-from, modification order and
// from-reads on one location).
//
// This model takes the order in which the operations execute as psc, and
// forbids every read, and every place of a store, that would make a psc
// edge point backwards. Program order and happens-before (a read
// synchronises only with a store already executed) point forwards, so
// only a stale choice can: a read of a stale store (the from-reads edge
// from the read to every newer store), or a store placed before newer
// ones in modification order (the mo edge from it to each of them, which
// enters the same shapes as a from-reads edge). Working through the
// shapes of psc that contain one:
//
//  1. an SC read and an SC store executed earlier: an SC read may not
//     read before the last SC store to its location;
//  2. an SC read and an SC fence executed earlier that a newer store
//     happens before: nor before any store an earlier SC fence knew;
//  3. an SC fence and, after it (in hb), any read: the read may not read
//     before any store an SC fence executed earlier knew, or before the
//     last SC store executed earlier;
//  4. two SC fences along hb;eco;hb: as 3, where "knew" includes stores
//     read, not only written, before the fence (eco includes reads-from).
//  5. a store placed before newer ones: as a read, an SC store (or an
//     SC RMW) goes after the seq_cst frontier (1, 2), and any store goes
//     after what its thread knows, which after an SC fence includes the
//     frontier (3, 4).
//
// One frontier per location holds all of it: the seq_cst frontier, the
// position of the newest store to the location that an SC store wrote or
// an SC fence knew when it executed. An SC store raises it (rule 1); an
// SC read reads at or after it (1, 2), an SC store goes after it (5); an
// SC fence first raises its thread's frontier to it (3, 4: the reads
// after the fence, and through the fence's thread's later releases, the
// reads hb-after it) and then raises it to its thread's frontier (what
// the fence knew). This is the promising semantics' SC fence (Kang et
// al., POPL 2017), with SC accesses added. It is a frontier only: an SC
// fence orders reads, it does not make anything happen before anything,
// so the plain cells do not see it.
//
// It is sound: every execution it produces has an acyclic psc (the
// execution order). It is not complete: RC11 asks only that psc be
// acyclic, not that it follow execution order, and it orders fewer pairs
// than this model does. Its scb has po, po|≠loc;hb;po|≠loc and hb|loc,
// not all of hb (its fix of C11's compilation to Power), so psc may run
// against happens-before where the hb path between two SC events leaves
// the first, or enters the second, other than by program order to
// another location; an SC event may come before, in psc, an SC store that
// executed earlier and that nothing orders before it (IRIW with acquire
// and seq_cst reads); and rule 2 uses everything the fence's thread knew,
// reads included, where RC11's edge from an SC read needs a store
// hb-before the fence. The litmus tests list the outcomes this leaves out
// (Z6.U, IRIW-acq-sc, RWC+acq+sc, WWmerge1 and 2, psc-ar). In particular
// the store buffering outcome that loom reports as a false alarm
// (tokio-rs/loom#180: seq_cst as acquire-release) is forbidden here
// exactly when RC11 forbids it; the litmus tests check each variant.

func (m *Model) scFloor(l Loc) float64 {
	if int(l) < len(m.sc) {
		return m.sc[l]
	}
	return 0
}

// scWrite is rule 1: an SC store at position pos of l.
func (m *Model) scWrite(l Loc, pos float64) {
	for len(m.sc) <= int(l) {
		m.sc = append(m.sc, 0)
	}
	m.sc[l] = max(m.sc[l], pos)
}

// scFence is the seq_cst half of an SC fence by a thread in state ts.
func (m *Model) scFence(ts *threadState) {
	ts.cur.frontier = joinFrontier(ts.cur.frontier, m.sc)
	m.sc = joinFrontier(m.sc, ts.cur.frontier)
}
