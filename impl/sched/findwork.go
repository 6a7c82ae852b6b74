package sched

import "github.com/wsched/wsched/internal/tlatrace"

// findWork returns the next task to poll, or nil if this worker found none
// anywhere. The order:
//
//  1. every interval-th poll (and right after a task yielded), the global
//     queue BEFORE the local queues, so that a worker kept busy by its own
//     tasks still serves the global queue (the seeds look there only after
//     the local queues are empty); at the same turn, the queues of workers
//     the monitor flagged as stuck, which are as much "somebody else's
//     waiting tasks" as the global queue;
//  2. the LIFO slot, at most maxLIFOPollsPerTick times per tick; past the
//     cap the slot is flushed to the back of the ring;
//  3. the ring;
//  4. the global queue;
//  5. stealing, if stealing is enabled and this worker searches (or may
//     become a searcher under the 50% limit): a random victim's ring, then
//     the others' rings, then the LIFO slots of workers stuck in a long poll;
//     with stealing disabled, only the queues of workers stuck in a long
//     poll (the monitor's help is not switched off with stealing);
//  6. the global queue once more (work published while we stole).
//
// There is no private stash: what a worker has queued is in its ring
// (stealable) or its LIFO slot (stealable once the worker is stuck).
func (w *worker) findWork() *task {
	if w.globalTurn() {
		if t := w.pollGlobal(); t != nil {
			return t
		}
		if t := w.stealStuck(); t != nil {
			return t
		}
	}
	if t := w.popLocal(); t != nil {
		return t
	}
	if t := w.pollGlobal(); t != nil {
		return t
	}
	if !w.rt.cfg.DisableStealing {
		if w.searching || w.becomeSearcher() {
			if t := w.steal(); t != nil {
				return t
			}
		}
	} else if t := w.stealStuck(); t != nil {
		// Stealing is off, but not the rescue of tasks stuck behind a
		// long poll (Config.DisableStealing).
		return t
	}
	return w.pollGlobal()
}

// globalTurn reports whether the global queue's turn ahead of the local
// queues has come, and restarts the fairness clock if so. It counts down
// to the interval rather than testing polls%interval == 0: the interval is
// re-tuned every tick, and a modulo test can then skip whole ticks, so a
// global task could wait far more than the largest interval.
func (w *worker) globalTurn() bool {
	if w.sinceGlobal >= w.interval {
		w.sinceGlobal = 0
		return true
	}
	return false
}

// popLocal takes from the LIFO slot (under the per-tick cap) or the ring.
// A thief may have stolen the slot's task (if the monitor flagged this
// worker as stuck); Take then finds it empty.
func (w *worker) popLocal() *task {
	if w.lifoPolls < maxLIFOPollsPerTick {
		if t := w.lifo.Take(); t != nil {
			if tlatrace.On { // TLA+ trace (Stranding): a take of the slot
				tlatrace.Strand("STake", w.index, t, int64(w.index), 0, true)
			}
			w.lifoPolls++
			w.pc.lifoPolls++
			return t
		}
	} else if t := w.lifo.Take(); t != nil {
		// Cap reached: flush the slot to the back of the ring, where
		// the FIFO order (and stealers) see it.
		w.pushRing(t)
		w.rt.notifyLocal()
		if tlatrace.On { // TLA+ trace (Stranding): no step has the flush
			tlatrace.Strand("SFlush", w.index, t, -1, 0, true)
		}
	}
	t := w.ring.Pop()
	if tlatrace.On && t != nil { // TLA+ trace (Stranding): a take of the ring
		tlatrace.Strand("STake", w.index, t, int64(w.index), 1, true)
	}
	return t
}

// pollGlobal takes a batch from the global queue: the first task is
// returned, the rest go to the back of the ring, where idle workers can
// steal them; a rest of more than quietBatch tasks is announced. The batch size is a fair share of the
// queue (its length over the number of workers) clamped to
// [globalBatchMin, globalBatchMax], and never more than the ring's free
// room plus the one that runs.
func (w *worker) pollGlobal() *task {
	g := w.rt.global
	// A lock-free length read first: an empty queue costs no lock.
	avail := g.Len()
	if avail == 0 {
		return nil
	}
	n := avail / len(w.rt.workers)
	n = min(max(n, globalBatchMin), globalBatchMax)
	room := 1 + (ringCapacity - w.ring.Len())
	n = min(n, room)
	k := g.PopBatch(w.scratch[:n])
	if k == 0 {
		return nil
	}
	if tlatrace.On { // TLA+ trace (Stranding): a take of the global queue, its rest (SHand) in this worker's hands
		tlatrace.Strand("STake", w.index, w.scratch[0], -1, 2, true)
		for _, t := range w.scratch[1:k] {
			tlatrace.Strand("SHand", w.index, t, -1, 0, true)
		}
	}
	w.m.globalBatches.Add(1)       // counter; relaxed
	w.m.globalPolls.Add(uint64(k)) // counter; relaxed
	w.warmSink = warmRecords(w.scratch[:k])
	first := w.scratch[0]
	if k > 1 {
		for _, t := range w.scratch[1:k] {
			w.pushRing(t)
			if tlatrace.On { // TLA+ trace (Stranding): PushRest
				tlatrace.Strand("SRest", w.index, t, -1, 0, true)
			}
		}
		if k-1 > quietBatch {
			w.rt.notifyLocal()
		}
	}
	clear(w.scratch[:k])
	return first
}

// steal tries every other worker once, starting at a random one, and takes
// half of the first non-empty ring into this worker's ring; then the rings
// of the extra workers; last, the LIFO slot of a worker the monitor flagged
// as stuck in a long poll (as Go's runqsteal takes runnext only on its last
// pass: a healthy owner is about to run its slot's task itself).
func (w *worker) steal() *task {
	rt := w.rt
	ws := rt.workers // first the regular workers, from a random one
	n := len(ws)
	if n > 1 || w.extra {
		start := int(w.rand.N(uint32(n)))
		for i := 0; i < n; i++ {
			v := start + i
			if v >= n {
				v -= n
			}
			if ws[v] != w {
				if t := w.stealRing(ws[v]); t != nil {
					return t
				}
			}
		}
	}
	all := rt.allWorkers() // then the extra workers' slots, in order
	for _, v := range all[n:] {
		if v != w {
			if t := w.stealRing(v); t != nil {
				return t
			}
		}
	}
	// Observes whether any worker is flagged stuck; one load in the
	// common case. seq_cst, as the flag it summarises.
	if !rt.mon.helps() || rt.mon.stuckCount.LoadSeqCst() == 0 {
		return nil
	}
	for _, v := range all {
		if t := w.stealSlot(v); t != nil {
			return t
		}
	}
	return nil
}

// stealStuck takes from the ring or LIFO slot of a worker the monitor
// flagged as stuck, at this worker's fairness turn: a worker that never
// runs out of work of its own still serves the tasks stuck behind a long
// poll, as it serves the global queue. One load when nobody is stuck.
func (w *worker) stealStuck() *task {
	rt := w.rt
	// Observes whether any worker is flagged; seq_cst, as the flags.
	if !rt.mon.helps() || rt.mon.stuckCount.LoadSeqCst() == 0 {
		return nil
	}
	for _, v := range rt.allWorkers() {
		// Observes the monitor's flag; relaxed would do (the steal's own
		// CAS and the slot's exchange settle who takes what).
		if v == w || !v.stuck.LoadRelaxed() {
			continue
		}
		if t := w.stealRing(v); t != nil {
			return t
		}
		if t := w.stealSlot(v); t != nil {
			return t
		}
	}
	return nil
}

// stealRing takes half of v's ring into this worker's.
func (w *worker) stealRing(v *worker) *task {
	t, k := v.ring.StealInto(w.ring)
	if tlatrace.On && t != nil { // TLA+ trace (Stranding): a steal of v's ring (k tasks: the spec's takes one)
		tlatrace.Strand("STake", w.index, t, int64(v.index), uint32(k), false)
	}
	if t != nil {
		w.m.steals.Add(1)              // counter; relaxed
		w.m.tasksStolen.Add(uint64(k)) // counter; relaxed
	}
	return t
}

// stealSlot takes v's LIFO slot if the monitor flagged v as stuck.
func (w *worker) stealSlot(v *worker) *task {
	if tlatrace.On { // TLA+ trace (Stranding): the flag's load and the steal under the trace lock, against unflag's (docs/tla.md)
		tlatrace.Lock()
	}
	// Observes the monitor's flag; relaxed would do (the slot's own
	// exchange settles who takes the task).
	if v == w || !v.stuck.LoadRelaxed() {
		if tlatrace.On {
			tlatrace.Unlock()
		}
		return nil
	}
	t := v.lifo.Steal()
	if tlatrace.On { // TLA+ trace (Stranding): a steal of v's slot
		if t != nil {
			tlatrace.StrandDone("STake", w.index, t, int64(v.index), 0, false)
		} else {
			tlatrace.Unlock()
		}
	}
	if t != nil {
		w.m.steals.Add(1)      // counter; relaxed
		w.m.tasksStolen.Add(1) // counter; relaxed
		w.m.slotSteals.Add(1)  // counter; relaxed
	}
	return t
}

// warmRecords reads one word of each record in ts, and returns their sum so
// that the reads are not optimised away. It is a prefetch: the records of a
// global batch were written by other workers and sit in their caches. Read
// one by one as each task comes up, every record is a cache miss that
// stalls the poll; read together, the misses are independent loads that
// the processor overlaps. (The plain load is Go's cheapest read of the
// word; nothing is concluded from the values.)
func warmRecords(ts []*task) (sum uint32) {
	for _, t := range ts {
		sum += t.state.LoadRelaxed() // a prefetch, no value used
	}
	return sum
}
