package sched

// findWork returns the next task to poll, or nil if this worker found none
// anywhere. The order:
//
//  1. the prefetch buffer (tasks taken from the global queue earlier; no
//     synchronisation at all);
//  2. every interval-th poll, the global queue BEFORE the local queues, so
//     that a worker kept busy by its own tasks still serves the global
//     queue (the seeds look there only after the local queues are empty);
//  3. the LIFO slot, at most maxLIFOPollsPerTick times per tick; past the
//     cap the slot is flushed to the back of the ring;
//  4. the ring;
//  5. the global queue;
//     5b. the tasks that yielded in this tick (deferYield), moved to the ring;
//  6. stealing from a random victim, if stealing is enabled and this worker
//     searches (or may become a searcher under the 50% limit);
//  7. the global queue once more (work published while we stole).
func (w *worker) findWork() *task {
	if t := w.popBuffer(); t != nil {
		return t
	}
	if w.globalTurn() {
		if t := w.pollGlobal(); t != nil {
			return t
		}
	}
	if t := w.popLocal(); t != nil {
		return t
	}
	if t := w.pollGlobal(); t != nil {
		return t
	}
	if w.flushDeferred() {
		return w.ring.Pop()
	}
	if !w.rt.cfg.DisableStealing && (w.searching || w.tryBecomeSearcher()) {
		if t := w.steal(); t != nil {
			return t
		}
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

func (w *worker) popBuffer() *task {
	if w.bufHead == w.bufLen {
		return nil
	}
	t := w.buf[w.bufHead]
	w.buf[w.bufHead] = nil
	w.bufHead++
	return t
}

// popLocal takes from the LIFO slot (under the per-tick cap) or the ring.
func (w *worker) popLocal() *task {
	if w.lifoPolls < maxLIFOPollsPerTick {
		if t := w.lifo; t != nil {
			w.lifo = nil
			w.lifoPolls++
			w.pc.lifoPolls++
			return t
		}
	} else if t := w.lifo; t != nil {
		// Cap reached: flush the slot to the back of the ring, where
		// the FIFO order (and stealers) see it.
		w.lifo = nil
		w.pushRing(t)
		w.rt.notifyLocal()
	}
	return w.ring.Pop()
}

// pollGlobal takes a batch from the global queue: the first task is
// returned, the next up to globalBufferSize go to the prefetch buffer, the
// rest to the back of the ring. The batch size is a fair share of the queue
// (its length over the number of workers) clamped to [globalBatchMin,
// globalBatchMax], and never more than the buffer plus the ring's free room.
// Called only with the buffer empty.
func (w *worker) pollGlobal() *task {
	g := w.rt.global
	// A lock-free length read first: an empty queue costs no lock.
	avail := g.Len()
	if avail == 0 {
		return nil
	}
	n := avail / len(w.rt.workers)
	n = min(max(n, globalBatchMin), globalBatchMax)
	room := 1 + globalBufferSize + (ringCapacity - w.ring.Len())
	n = min(n, room)
	k := g.PopBatch(w.scratch[:n])
	if k == 0 {
		return nil
	}
	w.m.globalBatches.Add(1)       // counter; relaxed
	w.m.globalPolls.Add(uint64(k)) // counter; relaxed
	w.warmSink = warmRecords(w.scratch[:k])
	first := w.scratch[0]
	rest := w.scratch[1:k]
	nb := min(len(rest), globalBufferSize)
	w.bufHead, w.bufLen = 0, copy(w.buf[:], rest[:nb])
	if len(rest) > nb {
		for _, t := range rest[nb:] {
			w.pushRing(t)
		}
		w.rt.notifyLocal()
	}
	clear(w.scratch[:k])
	return first
}

// tryBecomeSearcher takes a searching credit under the 50% limit.
func (w *worker) tryBecomeSearcher() bool {
	if !w.rt.idle.TryBecomeSearcher() {
		return false
	}
	w.searching = true
	w.setState(workerSearching)
	return true
}

// steal tries every other worker once, starting at a random one, and takes
// half of the first non-empty ring into this worker's ring.
func (w *worker) steal() *task {
	ws := w.rt.workers
	n := len(ws)
	if n == 1 {
		return nil
	}
	start := int(w.rand.N(uint32(n)))
	for i := 0; i < n; i++ {
		v := start + i
		if v >= n {
			v -= n
		}
		if v == w.index {
			continue
		}
		if t, k := ws[v].ring.StealInto(w.ring); t != nil {
			w.m.steals.Add(1)              // counter; relaxed
			w.m.tasksStolen.Add(uint64(k)) // counter; relaxed
			return t
		}
	}
	return nil
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
		sum += t.state.Load() // a prefetch, no value used; relaxed
	}
	return sum
}
