package sched

import (
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/impl/park"
	"github.com/wsched/wsched/impl/queue"
	"github.com/wsched/wsched/internal/tlatrace"
)

// The monitor is one goroutine per runtime, in the spirit of Go's sysmon.
// It does two things that no worker can be trusted to do, because every
// worker may be inside a poll that does not return:
//
//   - It fires timers whose deadline passed (workers also fire them at the
//     start of each tick; the monitor covers the time when none ticks).
//   - It watches the workers. A worker whose tick has lasted longer than
//     Config.LongPoll (its tick count unchanged over that long) is flagged
//     as stuck, whether or not anything waits behind it (thieves may then
//     take its LIFO slot). If tasks wait that some worker could take
//     (workAvailable) and nobody searches for them, the stuck worker is
//     helped: a parked worker is woken to take them, or, when none is
//     parked and no worker runs healthily, an extra worker is started
//     (extra.go), paced when the stuck workers may all be merely waiting
//     for a processor (starvation.go).
//
// It costs the hot path one atomic add per tick and one per 16 polls
// within a tick (the tick count, worker.ticks). It
// costs an idle runtime nothing: when every worker is parked and no extra
// worker runs, the monitor sleeps until the next timer or until a worker
// wakes it (leftParked), with no period. While workers run it looks every
// LongPoll/2.
//
// The tasks that wait behind a stuck worker are never out of reach of the
// worker the monitor wakes or starts: a task is in the global queue, a
// ring, or a LIFO slot, and the last is stealable once its owner is
// flagged (docs/scheduler.md, "Stranding"; tla/Stranding.tla).
type monitor struct {
	rt     *Runtime
	parker park.Parker // a channel parker: Sleep and waking workers unpark it
	// sleepsIdle is set while the monitor sleeps with no period because
	// no worker runs: a worker that leaves the parked set must then wake
	// it (leftParked; a Dekker pair with the parked bitmap). Not to be
	// confused with rt.idle, the workers' idle protocol.
	sleepsIdle atomic.Bool

	longPoll int64 // Config.LongPoll in nanoseconds; 0: no help
	period   int64 // how often it looks while workers run
	expired  []*task
	scratch  *taskRing // for cancelReachable's steals, at shutdown

	// stuckCount is the number of workers whose stuck flag is set
	// (worker.stuck), so that thieves and the park-time re-check look at
	// LIFO slots only when some worker is flagged (one load in the common
	// case, not one per worker).
	stuckCount atomic.Int32

	woken atomic.StatUint64 // parked workers woken for a stuck one (metrics)
}

// watchRecord is what the monitor remembers of one worker between looks.
// Only the monitor touches it.
type watchRecord struct {
	ticks uint64 // the tick count it saw last
	since int64  // when it first saw that count (or saw the worker resting)
}

func (m *monitor) init(rt *Runtime) {
	m.rt = rt
	m.parker = park.NewChan()
	m.longPoll = int64(rt.cfg.longPoll())
	m.period = m.longPoll / 2
}

// helps reports whether the monitor flags stuck workers and starts extra
// workers (Config.LongPoll >= 0). When it does not, no worker is ever
// flagged and no extra worker exists, and the workers skip the loads that
// would look for them: a plain read of a field set before any worker
// started, so an explored runtime without the help has no scheduling
// points for them either.
func (m *monitor) helps() bool { return m.longPoll > 0 }

// runMonitor is the monitor goroutine. It sleeps first: at New the
// workers are starting, and there is nothing to look at yet.
func (rt *Runtime) runMonitor() {
	m := &rt.mon
	running := true
	var pacing extraPacing // starvation.go
	// Observes shutdown; acquire.
	for {
		m.sleep(rt.now(), running)
		if rt.closed.LoadAcquire() {
			break
		}
		now := rt.now()
		m.fireTimers(now)
		running = m.watch(now, &pacing)
	}
	m.shutdown()
	rt.exited()
}

// shutdown is the monitor's part of Shutdown. Each worker cancels its own
// queues as it exits; a worker inside a poll that does not return cannot,
// so the monitor, which exits last, cancels what is queued anywhere it can
// reach until it is the only goroutine left (the last worker to exit wakes
// it; see exited). Then no Wait of a queued task waits for a stuck poll.
// What a stuck poll pushes after Shutdown is refused: spawns and wakes
// after Shutdown do nothing.
func (m *monitor) shutdown() {
	rt := m.rt
	period := max(m.period, int64(defaultLongPoll/2))
	// acquire: the exits of the others come first. The first wait
	// usually ends with the last worker's exit (Shutdown's own token was
	// taken by the sleep it ended); only a poll still running after it
	// makes the monitor sweep the queues.
	for rt.live.LoadAcquire() > 1 {
		m.parker.Park(durationOf(period))
		if rt.live.LoadAcquire() > 1 {
			m.cancelReachable()
		}
	}
}

// cancelReachable cancels every task queued in the global queue, a ring or
// a LIFO slot (drain.go). A task taken here is in no queue any more, so it
// is cancelled exactly once.
func (m *monitor) cancelReachable() {
	rt := m.rt
	if m.scratch == nil {
		m.scratch = (*taskRing)(queue.NewRing[task]())
	}
	var buf [globalBatchMax]*task
	rt.cancelGlobal(buf[:])
	for _, v := range rt.allWorkers() {
		v.drain(m.scratch, buf[:], rt.cancelAll)
	}
}

// fireTimers wakes the tasks whose deadline passed into the global queue.
func (m *monitor) fireTimers(now int64) {
	rt := m.rt
	m.expired = rt.timers.expire(now, m.expired[:0])
	pushed := false
	for i, t := range m.expired {
		m.expired[i] = nil
		if t.transitionToScheduled() {
			rt.global.Push(t)
			pushed = true
		}
	}
	if pushed {
		rt.notify()
	}
}

// watch looks at every worker once: it flags the ones stuck in a tick
// longer than LongPoll, and helps if any is. It reports whether any worker
// runs (is not parked).
func (m *monitor) watch(now int64, pacing *extraPacing) (running bool) {
	rt := m.rt
	if tlatrace.On { // TLA+ trace (MonitorIdle): Look
		tlatrace.Lock()
	}
	parked := rt.idle.Bitmap()
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "Look", Bits: parked})
	}
	stuck, healthy := 0, false
	for _, w := range rt.allWorkers() {
		if m.resting(w, parked) {
			m.markResting(w, now)
			continue
		}
		running = true
		if m.check(w, now) {
			stuck++
		} else {
			healthy = true
		}
	}
	if stuck > 0 {
		m.help(now, stuck, healthy, pacing)
	}
	return running
}

// resting reports whether w is parked (its bit in the bitmap the monitor
// loaded) or is an extra worker slot with no goroutine.
func (m *monitor) resting(w *worker, parked uint64) bool {
	if w.extra {
		// Observes whether the extra worker's goroutine runs; acquire.
		return !w.active.LoadAcquire()
	}
	return parked&(1<<uint(w.index)) != 0
}

// markResting records a worker that is parked (or an extra worker not
// running): not stuck, and its clock restarts when it runs again.
func (m *monitor) markResting(w *worker, now int64) {
	w.watched.since = now
	m.unflag(w)
}

// check reports whether w, which runs, has been in the same tick for
// LongPoll or more, and flags it if so.
func (m *monitor) check(w *worker, now int64) bool {
	r := &w.watched
	var mark int64
	if tlatrace.On { // TLA+ trace (Stranding): the log before the count is read; a flag whose worker has records after it may be stale (MonFlagStale)
		mark = tlatrace.Mark()
	}
	// Observes the worker's progress. Relaxed: only compared with the
	// count seen last; what the monitor then does goes through the idle
	// protocol's own orderings.
	t := w.ticks.LoadRelaxed()
	if t != r.ticks {
		r.ticks, r.since = t, now
		w.stuckSince.StoreRelaxed(now) // diagnostics for Shutdown's error; relaxed: nothing decides by it
		m.unflag(w)
		return false
	}
	if m.longPoll == 0 || now-r.since < m.longPoll {
		return false
	}
	// Publishes "this worker is stuck": thieves may take its LIFO slot.
	// seq_cst: the flag (and the count, which thieves read first) come
	// before help's look at the queues and its wake, so the worker it
	// wakes sees them.
	if !w.stuck.LoadSeqCst() {
		m.stuckCount.AddSeqCst(1)
		if tlatrace.On { // TLA+ trace (Stranding): MonFlag, under the trace lock (a thief may act on the flag at once)
			tlatrace.Lock()
		}
		w.stuck.StoreSeqCst(true)
		if tlatrace.On {
			tlatrace.StrandDone("SFlag", w.index, nil, mark, 0, true)
		}
	}
	return true
}

func (m *monitor) unflag(w *worker) {
	// The worker moved on (or parked): its slot is its own again. A thief
	// that saw the flag just before may still take the slot's task,
	// which is harmless: the slot's exchange settles who gets it.
	// Relaxed, all three: only the monitor writes the flags and the
	// count, and clearing one publishes nothing.
	if w.stuck.LoadRelaxed() {
		if tlatrace.On { // TLA+ trace (Stranding): MonUnflag, under the trace lock (stealSlot)
			tlatrace.Lock()
		}
		w.stuck.StoreRelaxed(false) // clears the flag; publishes nothing
		if tlatrace.On {
			tlatrace.StrandDone("SUnflag", w.index, nil, -1, 0, true)
		}
		m.stuckCount.AddRelaxed(-1) // the count thieves read first; only the monitor writes it
	}
}

// help gets a stuck worker's waiting tasks run: if work waits that some
// worker could take, and nobody searches for it, wake a parked worker (as
// a searcher, as the idle protocol's notify does). If none is parked,
// start an extra worker, but only when no worker runs healthily: a healthy
// worker takes the stuck workers' tasks when it runs out of its own, and
// at the latest at its next global-queue turn (findWork), and on a machine
// whose workers are all busy an extra goroutine would only compete for the
// processors. One per look: the next look, LongPoll/2 later, helps again
// if work still waits; and paced (starvation.go) when the stuck workers,
// stuck of them in this look, may all be merely waiting for a processor.
func (m *monitor) help(now int64, stuck int, healthy bool, pacing *extraPacing) {
	rt := m.rt
	if !rt.workAvailable(nil) {
		return // a long poll with nothing behind it: let it run
	}
	if rt.idle.Searching() > 0 {
		return // a searcher will take it, or re-check it when it parks
	}
	if i := rt.idle.ClaimParked(); i >= 0 {
		if tlatrace.On { // TLA+ trace (Stranding): MonWake
			tlatrace.Strand("SMonWake", i, nil, -1, 0, true)
		}
		m.woken.Add(1) // counter; relaxed
		rt.workers[i].parker.Unpark()
		return
	}
	if !healthy && pacing.allowExtra(m, now, stuck) {
		rt.extras.start()
	}
}

// sleep waits until the next look: LongPoll/2 while any worker runs; while
// none does, until the next timer or until a worker wakes the monitor. A
// Sleep that adds an earlier timer wakes a monitor sleeping past it
// (timerQueue.add); a periodic sleep does not register with the timers,
// since it ends within LongPoll/2 anyway, and workers fire due timers
// at every tick.
func (m *monitor) sleep(now int64, running bool) {
	rt := m.rt
	if running && m.longPoll > 0 {
		m.parker.Park(durationOf(m.period))
		return
	}
	limit := int64(noDeadline)
	if m.longPoll > 0 {
		chaos.Point() // widens the window in which a worker wakes unseen
		if tlatrace.On {
			tlatrace.Lock() // TLA+ trace (MonitorIdle): StoreIdle
		}
		// Publishes "sleeping with no period". seq_cst: the store half
		// of the Dekker pair with leftParked (the worker clears its bit,
		// then loads idle; we store idle, then load the bitmap).
		m.sleepsIdle.StoreSeqCst(true)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "StoreIdle"})
		}
		if rt.anyRunning() {
			if tlatrace.On { // TLA+ trace (MonitorIdle): ClearIdle, after a re-check that saw a worker run
				tlatrace.Lock()
			}
			m.sleepsIdle.StoreRelaxed(false) // relaxed: only we read it as ours
			if tlatrace.On {
				tlatrace.Idle(tlatrace.Event{Action: "ClearIdle"})
			}
			m.parker.Park(durationOf(m.period))
			return
		}
	}
	deadline := rt.timers.monitorSleepsUntil(limit)
	if deadline > now {
		timeout := int64(0) // noDeadline: until unparked
		if deadline != noDeadline {
			timeout = deadline - now
		}
		m.parker.Park(durationOf(timeout))
	}
	rt.timers.monitorAwake()
	if m.sleepsIdle.LoadRelaxed() { // relaxed: only we write it
		if tlatrace.On { // TLA+ trace (MonitorIdle): ClearIdle, after the sleep
			tlatrace.Lock()
		}
		m.sleepsIdle.StoreRelaxed(false)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "ClearIdle"})
		}
	}
}

// anyRunning reports whether a worker is out of the parked set or an
// extra worker runs.
func (rt *Runtime) anyRunning() bool {
	all := uint64(1)<<uint(len(rt.workers)) - 1
	if len(rt.workers) == 64 {
		all = ^uint64(0)
	}
	if tlatrace.On { // TLA+ trace (MonitorIdle): MonRecheck
		tlatrace.Lock()
	}
	// seq_cst: the load half of the monitor's side of the Dekker pair.
	bm := rt.idle.Bitmap()
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "MonRecheck", Bits: bm})
	}
	// seq_cst: with the bitmap's load above, the load half of the monitor's side of the Dekker pair.
	return bm != all || rt.extras.running.LoadSeqCst() > 0
}
