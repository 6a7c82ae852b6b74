package sched

import (
	"fmt"
	"unsafe"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"

	"github.com/wsched/wsched/impl/idle"
	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/impl/internal/raceedge"
	"github.com/wsched/wsched/impl/park"
	"github.com/wsched/wsched/impl/queue"
)

// Runtime is a work-stealing scheduler: a fixed set of workers, each with a
// LIFO slot and a 256-slot ring, one global queue, and the idle protocol
// that wakes parked workers when work appears.
type Runtime struct {
	cfg Config
	// workers are the regular workers, fixed at New; all is every worker
	// slot, regular then extra, once the monitor made an extra one
	// (workerlist.go: read it through allWorkers).
	workers []*worker
	all     atomic.Pointer[[]*worker]
	global  *taskGlobal
	idle    *idle.State
	timers  timerQueue
	mon     monitor      // monitor.go
	extras  extraWorkers // extra.go
	// ledger counts searching flags in the explore build (empty
	// otherwise): transitions.go.
	ledger searchLedger
	start  int64 // sync.Nanotime at New

	// closed is set once by Shutdown; spawns fail and wakes do nothing
	// after it.
	closed       atomic.Bool
	shutdownOnce sync.Once
	// idleAtClose records that no worker was in a tick when closed was
	// stored (written inside shutdownOnce, read after it): Shutdown then
	// waits for the exits whatever its context says.
	idleAtClose bool
	// live counts the goroutines that have not exited: the workers, the
	// extra workers running, and the monitor; the last one to exit drains
	// the global queue and closes terminated.
	live atomic.Int32
	// terminated is closed when every worker has exited and the queues
	// are drained: no task will be polled again.
	terminated chan struct{}

	// remote counts remote spawns and wakes between their shutdown check
	// and the end of their push, so that the last worker drains the
	// global queue only after the last of them (enterRemote).
	remote atomic.Int64

	// spare holds recycled records of Go tasks for the workers
	// (recycle.go).
	spare spareRecords

	spawned   atomic.StatUint64 // by Runtime.Spawn/Go; Context spawns count per worker
	cancelled atomic.StatUint64
	panicked  atomic.StatUint64 // polls that panicked
}

// New starts a runtime with cfg.Workers workers.
func New(cfg Config) (*Runtime, error) {
	rt, err := build(cfg)
	if err != nil {
		return nil, err
	}
	for _, w := range rt.workers {
		sync.Go("worker", w.index, w.run)
	}
	sync.Go("monitor", 0, rt.runMonitor)
	return rt, nil
}

// build makes a runtime with its workers, queues, monitor and counts,
// ready to start, with none of its goroutines running: New starts them,
// and the explorer's scenarios of one protocol play them instead
// (explore_bare_test.go).
func build(cfg Config) (*Runtime, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	rt := &Runtime{
		cfg:        cfg,
		global:     (*taskGlobal)(queue.NewGlobal[task]()),
		idle:       idle.New(cfg.Workers),
		start:      sync.Nanotime(),
		terminated: make(chan struct{}),
	}
	rt.timers.init()
	rt.workers = make([]*worker, cfg.Workers)
	for i := range rt.workers {
		p, err := newParker(cfg.Parker)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
		}
		rt.workers[i] = newWorker(rt, i, p)
		rt.workers[i].active.StoreRelaxed(true) // before the workers start
	}
	rt.mon.init(rt)
	rt.extras.init(rt)
	rt.live.StoreRelaxed(int32(cfg.Workers) + 1) // the workers and the monitor, before they start
	return rt, nil
}

func newParker(k ParkerKind) (park.Parker, error) {
	switch k {
	case ParkerFutex:
		p, err := park.NewFutex()
		if err != nil {
			return nil, err
		}
		return p, nil
	default: // ParkerDefault, ParkerChannel: the channel parker is faster
		return park.NewChan(), nil
	}
}

// Spawn spawns t from any goroutine: it goes to the global queue and a
// parked worker is notified.
func (rt *Runtime) Spawn(t Task) (*JoinHandle, error) {
	if isNil(t) {
		return nil, ErrNilTask
	}
	return rt.spawnRemote(t)
}

// Go runs f as a task, from any goroutine, like a go statement: there is
// no handle, and f's record is reused for a later Go once f returned. A
// panic in f is recovered and counted in Metrics.Panicked; a
// runtime.Goexit in f ends f and nothing else. Use Spawn(Func(f)) to wait
// for f or get its panic back.
func (rt *Runtime) Go(f func()) error {
	if f == nil {
		return ErrNilTask
	}
	if !rt.enterRemote() {
		return ErrShutdown
	}
	rt.pushRemote(rt.newGoRecord(f))
	rt.exitRemote()
	return nil
}

func (rt *Runtime) spawnRemote(t Task) (*JoinHandle, error) {
	if !rt.enterRemote() {
		return nil, ErrShutdown
	}
	h := rt.newTask(t)
	rt.pushRemote(&h.t)
	rt.exitRemote()
	return h, nil
}

// pushRemote counts a task spawned from outside the runtime, puts it in the
// global queue and notifies. Called between enterRemote and exitRemote.
func (rt *Runtime) pushRemote(t *task) {
	// Race build: the spawner's writes happen before the first poll
	// (raceedge). Release, not merge: the record is new, or a Go record
	// whose last run acquired its edge before it was recycled.
	raceedge.Release(unsafe.Pointer(t))
	rt.spawned.Add(1) // counter; relaxed
	rt.global.Push(t) // TLA+ trace (Stranding): Arrive, recorded inside
	chaos.Point()
	rt.notify()
}

// enterRemote admits a remote spawn or wake, or refuses it once Shutdown
// began. An admitted one finishes its push before the last worker drains
// the global queue, so no task is left behind in a queue after Shutdown.
//
// This is a Dekker pair with Shutdown: we increment remote then load
// closed; Shutdown stores closed, then the last worker loads remote. With
// seq_cst on all four, either we see closed (and refuse) or the worker sees
// our increment (and waits for our exitRemote). With any of the three
// weakened (an acq_rel increment, an acquire load) both loads may read the
// old value: a Go is admitted after the drain, and its task is left in the
// global queue (the weak mode's runtime/shutdown-races-go, schedule 4).
func (rt *Runtime) enterRemote() bool {
	// seq_cst (see above).
	rt.remote.AddSeqCst(1)
	chaos.Point()
	// seq_cst (see above).
	if rt.closed.LoadSeqCst() {
		rt.exitRemote()
		return false
	}
	return true
}

// exitRemote ends what enterRemote admitted.
func (rt *Runtime) exitRemote() {
	// Release: the push before it is visible to the worker that sees
	// remote reach 0 (acquire).
	rt.remote.AddRelease(-1)
}

// newTask makes the task record, born scheduled (it goes straight into a
// queue; scheduled is state's zero value, and the queue push publishes the
// record). This is the one allocation of a spawn from outside; a spawn from
// inside a poll takes its record from the worker's slab (slab.go).
func (rt *Runtime) newTask(t Task) *JoinHandle {
	return &JoinHandle{t: task{rt: rt, poll: t}}
}

// notify is Rule 1 of the idle protocol, called after a task was published
// where another worker can take it: if nobody is searching, claim the
// lowest parked worker (it becomes a searcher) and unpark it.
func (rt *Runtime) notify() {
	if i := rt.idle.Notify(); i >= 0 {
		chaos.Point()
		rt.workers[i].parker.Unpark()
	}
}

// notifyLocal is notify after a push into this runtime's rings: with
// stealing disabled only the ring's owner (which is running) can take the
// task, so waking another worker would only make it park again.
func (rt *Runtime) notifyLocal() {
	if !rt.cfg.DisableStealing {
		rt.notify()
	}
}

// workAvailable is the park-time (and retire-time) re-check: is there a
// task that worker self could take? The global queue, every ring (rings of
// others can be stolen from; its own is empty when it parks, checked for
// symmetry), and the LIFO slots of workers the monitor flagged as stuck
// (thieves take those). The LIFO slot of a healthy worker is not work for
// self: its owner runs it next. self is nil for the monitor, which asks on
// behalf of whoever it would wake.
//
// With stealing disabled, a healthy worker's queues are not work for self:
// only their owner takes from them, and an owner with a non-empty ring is
// running. Looking at them would make an idle worker cancel its park and
// spin for as long as any ring holds tasks. A stuck worker's queues are
// work for anybody, stealing or not (Config.DisableStealing).
func (rt *Runtime) workAvailable(self *worker) bool {
	// The parker's half of the idle protocol's Dekker pairs: its parked
	// bit and returned credit (seq_cst RMWs) come before, our loads of
	// the queues after. The fence pairs with the one at the start of
	// idle.State.Notify: either the publisher sees our bit or we see
	// its task. (The queues' loads are acquire or relaxed; without the
	// fences each would have to be seq_cst, as would every store that
	// publishes a task.)
	atomic.FenceSeqCst()
	if rt.global.Len() > 0 {
		return true
	}
	if rt.cfg.DisableStealing && self != nil && self.ring.Len() > 0 {
		return true
	}
	stuck := rt.mon.helps() && rt.mon.stuckCount.LoadSeqCst() > 0 // seq_cst, as the flags it summarises
	if rt.cfg.DisableStealing && !stuck {
		return false
	}
	for _, w := range rt.allWorkers() {
		if rt.stealableFrom(w, stuck) {
			return true
		}
	}
	return false
}

// stealableFrom reports whether a thief could take a task from w's queues:
// its ring (with stealing on, or once w is flagged stuck) or its LIFO slot
// (once w is flagged stuck). stuck says whether any worker is flagged.
func (rt *Runtime) stealableFrom(w *worker, stuck bool) bool {
	// Observes the monitor's flag; seq_cst, as the count in
	// workAvailable: the monitor stores both seq_cst before it looks for
	// a parked worker to wake (monitor.check, then help).
	flagged := stuck && w.stuck.LoadSeqCst()
	if rt.cfg.DisableStealing && !flagged {
		return false
	}
	return w.ring.Len() > 0 || flagged && w.lifo.Full()
}

// now is the runtime's monotonic clock in nanoseconds.
func (rt *Runtime) now() int64 { return sync.Nanotime() - rt.start }
