package sched

// Draining queues.
//
// Three times a worker's queues are emptied wholesale instead of polled
// one task at a time:
//
//   - an extra worker that is not needed any more hands what it has
//     queued to the global queue, where any worker takes it (handOff);
//   - a worker that exits at shutdown cancels what it has queued (exit);
//   - at shutdown the monitor cancels what waits in the queues of a
//     worker stuck in a poll, which cannot cancel it itself
//     (cancelReachable).
//
// All three take the tasks out with drain, which hands them on a batch at
// a time: to the global queue in one PushBatch (one lock for a batch, not
// one per task), or to cancelAll. A task drain took is in no queue any
// more, so whoever took it hands it on exactly once. The global queue is
// drained by cancelGlobal, at shutdown only: by the last goroutine to
// exit, and by the monitor's sweeps before that.

// drain takes every task out of v's LIFO slot and ring and hands them to
// to, a batch of at most len(buf) at a time, in the order a worker would
// have run them: the slot's task first, then the ring's, oldest first.
// It reports whether it took any. buf holds each batch until to returns;
// to must not keep the slice (as an Injector's PushBatch must not), and
// buf is cleared after it, so that no finished task stays reachable from
// it.
//
// With thief nil the caller is v's own goroutine and takes as the owner
// does (Take, Pop). Anyone else steals, as a searching worker does
// (Steal, and StealInto the ring thief, which the caller owns and which
// drain leaves empty).
func (v *worker) drain(thief *taskRing, buf []*task, to func([]*task)) (took bool) {
	n := 0
	add := func(t *task) {
		if n == len(buf) {
			to(buf[:n])
			clear(buf[:n])
			n = 0
		}
		buf[n] = t
		n++
		took = true
	}
	if thief == nil {
		if t := v.lifo.Take(); t != nil {
			add(t)
		}
		for t := v.ring.Pop(); t != nil; t = v.ring.Pop() {
			add(t)
		}
	} else {
		if t := v.lifo.Steal(); t != nil {
			add(t)
		}
		for t, _ := v.ring.StealInto(thief); t != nil; t, _ = v.ring.StealInto(thief) {
			add(t)
			for t := thief.Pop(); t != nil; t = thief.Pop() {
				add(t)
			}
		}
	}
	if n > 0 {
		to(buf[:n])
		clear(buf[:n])
	}
	return took
}

// cancelGlobal cancels every task in the global queue, taking a batch of
// at most len(buf) at a time.
func (rt *Runtime) cancelGlobal(buf []*task) {
	for n := rt.global.PopBatch(buf); n > 0; n = rt.global.PopBatch(buf) {
		rt.cancelAll(buf[:n])
		clear(buf[:n])
	}
}

// cancelAll cancels tasks a drain took out of a queue during shutdown,
// and counts those whose cancel won (task.cancel).
func (rt *Runtime) cancelAll(ts []*task) {
	n := uint64(0)
	for _, t := range ts {
		if t.cancel() {
			n++
		}
	}
	rt.cancelled.Add(n) // counter; relaxed
}
