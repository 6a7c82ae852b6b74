package idle

import (
	"fmt"
	"math/bits"

	"github.com/wsched/wsched/explore/atomic"

	"github.com/wsched/wsched/impl/internal/chaos"
	"github.com/wsched/wsched/internal/tlatrace"
)

// MaxWorkers is the number of bits in the parked bitmap.
const MaxWorkers = 64

// State is the idle state shared by all workers of one runtime.
//
// Every operation is sequentially consistent in Go. The comments name the
// weakest C11 ordering a port would need; the protocol's two Dekker-style
// pairs (publish a task / load num_searching, and set the parked bit /
// re-check the queues) need seq_cst on both sides, exactly as Go's runtime
// and Tokio use SeqCst there.
type State struct {
	// searching is num_searching (ns): workers holding a searching credit.
	searching atomic.Int32
	_         [60]byte
	// parked is num_parked (np): a count no decision reads.
	parked atomic.StatInt32
	_      [60]byte
	// bitmap has bit i set while worker i is parked and unclaimed.
	bitmap atomic.Uint64
	_      [56]byte
	// claims counts claims whose credit is in flight, in the explore
	// build (ledger_explore.go); empty otherwise, and not the last field,
	// so that it takes no room.
	claims claimLedger
	n      int32
}

// New returns the idle state for n workers (1..MaxWorkers).
func New(n int) *State {
	if n < 1 || n > MaxWorkers {
		panic(fmt.Sprintf("idle: %d workers, want 1..%d", n, MaxWorkers))
	}
	return &State{n: int32(n)}
}

// Workers returns the number of workers the state was made for.
func (s *State) Workers() int { return int(s.n) }

// TryBecomeSearcher takes a searching credit unless at least half of the
// workers already search. The check and the increment are separate, so the
// limit can be overshot by racing callers; it is a throttle, not an
// invariant.
func (s *State) TryBecomeSearcher() bool {
	if tlatrace.On { // TLA+ trace (IdleProtocol): FwTry, FwIncNs
		tlatrace.Lock()
	}
	// Observes other searchers. Relaxed would do: a stale value only
	// changes how many steal at once.
	ns := s.searching.LoadRelaxed()
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "FwTry", X: int64(ns)})
	}
	if 2*ns >= s.n {
		return false
	}
	chaos.Point()
	if tlatrace.On {
		tlatrace.Lock()
	}
	// Publishes one more searcher. seq_cst: a notifier that loads ns
	// after this skips its wake because of us, so our later park must be
	// ordered after its publish (we re-check the queues when we park).
	s.searching.AddSeqCst(1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "FwIncNs", X: int64(peek(&s.searching))})
	}
	return true
}

// TransitionFromSearching gives a searcher's credit back when it found work.
// It reports whether no searcher is left; the caller must then notify, so
// that work published while it searched (whose publishers skipped the wake
// because ns > 0) finds a worker (Rule 2).
func (s *State) TransitionFromSearching() (wasLast bool) {
	if tlatrace.On { // TLA+ trace (IdleProtocol): TfDec
		tlatrace.Lock()
	}
	// Publishes one searcher fewer, observes the rest. seq_cst: pairs
	// with the publisher's store-then-load of ns (Dekker).
	wasLast = s.searching.AddSeqCst(-1) <= 0
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "TfDec", X: int64(peek(&s.searching))})
	}
	return wasLast
}

// Notify is Rule 1, called after a task was published: if nobody searches,
// claim the lowest parked worker and give it a searching credit. It returns
// the claimed index, or -1 when somebody is searching or nobody is parked.
func (s *State) Notify() int {
	// The publisher's half of the idle protocol's Dekker pairs: its
	// publication of the task (a release store, or a store under a
	// lock) comes before, our loads of ns and the bitmap after. A
	// seq_cst fence orders the two, as the parker's fence before its
	// re-check of the queues (sched.workAvailable) orders its side, so
	// that one of the two sees the other's write.
	atomic.FenceSeqCst()
	if tlatrace.On { // TLA+ trace (IdleProtocol): NLoadNs
		tlatrace.Lock()
	}
	// Observes searchers. seq_cst: the task was published before this
	// load; a searcher that decrements ns after it re-checks the queues
	// (park) or notifies (Rule 2) and sees the task.
	if s.searching.LoadSeqCst() > 0 {
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "NLoadNs", X: int64(peek(&s.searching))})
		}
		return -1
	}
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "NLoadNs", X: int64(peek(&s.searching))})
	}
	chaos.Point()
	return s.ClaimParked()
}

// ClaimParked claims the lowest-indexed parked worker: clears its bit,
// moves it from parked to searching, and returns its index; -1 if no bit is
// set. Bits are claimed lowest first with a count of trailing zeros.
func (s *State) ClaimParked() int {
	for {
		if tlatrace.On { // TLA+ trace (IdleProtocol): NLoadBm
			tlatrace.Lock()
		}
		// Observes parked workers. seq_cst: pairs with the parker's
		// fetch-or then queue re-check (Dekker): either we see its
		// bit, or it sees the task published before Notify.
		bm := s.bitmap.LoadSeqCst()
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "NLoadBm", Bits: bm})
		}
		if bm == 0 {
			return -1
		}
		i := bits.TrailingZeros64(bm)
		mask := uint64(1) << uint(i)
		chaos.Point()
		if tlatrace.On { // NFetchAnd
			tlatrace.Lock()
		}
		// Claims worker i: the fetch-and's old value decides the race
		// against other notifiers and against worker i clearing its
		// own bit; whoever sees the bit set owns the transition.
		// Acq_rel: an RMW, so it reads the latest bitmap whatever its
		// ordering. Not seq_cst: the Dekker pair with the monitor's
		// decision to sleep idle rests on the worker's own fetch-and in
		// Unpark, which a claimed worker also runs (seq_cst, later in the
		// bitmap's modification order than ours) before it loads the
		// monitor's flag (sched's monitor/pair-publish, weak mode).
		old := s.bitmap.AndAcqRel(^mask)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "NFetchAnd", Worker: i, Bits: old, OK: old&mask != 0})
		}
		if old&mask == 0 {
			continue // lost the race for i; look again
		}
		s.claims.begin() // worker i's credit is in flight (explore build only)
		chaos.Point()
		if tlatrace.On { // NDecNp
			tlatrace.Lock()
		}
		// Publishes: one parked worker fewer. Relaxed: a count for
		// metrics and tests; no decision reads it.
		s.parked.Add(-1)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "NDecNp", Worker: i, X: int64(s.parked.Load())})
			tlatrace.Lock() // NIncNs
		}
		// Publishes the searching credit of worker i. seq_cst: later
		// notifiers that load ns must see it (or see worker i's own
		// give-back; see the package comment on signed counters).
		s.searching.AddSeqCst(1)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "NIncNs", Worker: i, X: int64(peek(&s.searching))})
		}
		s.claims.end()
		return i
	}
}

// Park records that worker i goes to sleep: (a) set its bit and count it as
// parked, (b) if it was searching give the credit back. The caller must then
// re-check every queue another worker could take from (Rule 3, for every
// parker, not only the last searcher) and call Unpark if it found work.
//
// The order matters: setting the bit before giving the credit back leaves no
// moment in which a notifier sees ns == 0 and an empty bitmap while this
// worker is neither searching nor findable.
func (s *State) Park(i int, searching bool) {
	mask := uint64(1) << uint(i)
	if tlatrace.On { // TLA+ trace (IdleProtocol): PkBit, PkNp, PkNs
		tlatrace.Lock()
	}
	// Publishes "worker i is parked". seq_cst: pairs with the notifier's
	// bitmap load (Dekker with the queue re-check that follows).
	s.bitmap.OrSeqCst(mask)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "PkBit", Worker: i})
	}
	chaos.Point()
	if tlatrace.On {
		tlatrace.Lock()
	}
	// Relaxed: a count.
	s.parked.Add(1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "PkNp", Worker: i, X: int64(s.parked.Load()), OK: searching})
	}
	if searching {
		chaos.Point()
		if tlatrace.On {
			tlatrace.Lock()
		}
		// seq_cst: after this a notifier may skip nothing on our
		// account; the re-check that follows covers what it skipped
		// before.
		s.searching.AddSeqCst(-1)
		if tlatrace.On {
			tlatrace.Idle(tlatrace.Event{Action: "PkNs", Worker: i, X: int64(peek(&s.searching))})
		}
	}
	chaos.Point()
}

// Unpark is called by worker i itself after a wake, or after its park-time
// re-check found work. It clears the own bit with one fetch-and and decides
// from the RETURNED old value, never from a separate load:
//
//   - the bit was already clear: a notifier claimed us and has given (or is
//     about to give) us a searching credit; claimed = true, we search.
//   - the bit was set: we cleared it ourselves (spurious wake, timeout, or
//     found work at the re-check); we leave the parked count; claimed = false.
//
// A separate load followed by a fetch-and would let a notifier claim us in
// between: we would take the credit as a timeout, decrement np twice and
// never give the credit back, and Notify would stop firing for good.
func (s *State) Unpark(i int) (claimed bool) {
	mask := uint64(1) << uint(i)
	chaos.Point()
	if tlatrace.On { // TLA+ trace (IdleProtocol): WkReason (PkCancel in CancelPark), WkNp
		tlatrace.Lock()
	}
	// Observes and clears the own bit in one step: acquires the claim of
	// a notifier (its bitmap RMW), releases our un-parking. Seq_cst: the
	// store half of the Dekker pair with the monitor's decision to sleep
	// idle (sched's leftParked: the bit cleared, then idle loaded; the
	// monitor stores idle, then loads the bitmap), for a claimed worker
	// as for one that clears its bit itself. With acq_rel both loads may
	// read the older values and the monitor sleeps while the worker runs
	// (weak mode: sched's monitor/pair-timeout, mutant
	// idle-unpark-bit-acqrel).
	old := s.bitmap.AndSeqCst(^mask)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "WkReason", Worker: i, Bits: old, OK: old&mask != 0})
	}
	if old&mask == 0 {
		return true
	}
	chaos.Point()
	if tlatrace.On {
		tlatrace.Lock()
	}
	// Relaxed: a count.
	s.parked.Add(-1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "WkNp", Worker: i, X: int64(s.parked.Load())})
	}
	return false
}

// CancelPark is called by worker i when its park-time re-check found work:
// it leaves the parked set and comes back as a searcher. If a notifier
// claimed it meanwhile, the notifier's credit is the searching credit;
// otherwise the worker takes one itself, without the 50% limit (it is about
// to take work others published while it looked parked). It returns what
// Unpark returned.
func (s *State) CancelPark(i int) (claimed bool) {
	if tlatrace.On { // TLA+ trace (IdleProtocol): PkCancel, PkCancelNp, PkCancelNs
		tlatrace.Cancelling(true)
	}
	if s.Unpark(i) {
		if tlatrace.On {
			tlatrace.Cancelling(false)
		}
		return true
	}
	if tlatrace.On {
		tlatrace.Cancelling(false)
	}
	chaos.Point()
	if tlatrace.On {
		tlatrace.Lock()
	}
	// seq_cst, as TryBecomeSearcher.
	s.searching.AddSeqCst(1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "PkCancelNs", Worker: i, X: int64(peek(&s.searching))})
	}
	return false
}

// AddSearcher takes a searching credit without the 50% limit: for an
// extra worker the monitor starts (it searches at once, like a claimed
// worker), and for an extra worker whose retire-time re-check found work.
func (s *State) AddSearcher() {
	if tlatrace.On { // TLA+ trace: not an action of IdleProtocol (the monitor's extra workers)
		tlatrace.Lock()
	}
	// seq_cst, as TryBecomeSearcher: notifiers that load ns after this
	// skip their wake because of us, and we will find their work.
	s.searching.AddSeqCst(1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "AddSearcher", X: int64(peek(&s.searching))})
	}
}

// StopSearching gives a searching credit back without asking whether it
// was the last one: the caller re-checks every queue itself afterwards, as
// a parking worker does (Rule 3). For an extra worker that retires.
func (s *State) StopSearching() {
	if tlatrace.On { // TLA+ trace: not an action of IdleProtocol (an extra worker retires)
		tlatrace.Lock()
	}
	// seq_cst: pairs with the publisher's store-then-load of ns; the
	// re-check that follows covers what notifiers skipped because of us.
	s.searching.AddSeqCst(-1)
	if tlatrace.On {
		tlatrace.Idle(tlatrace.Event{Action: "StopSearching", X: int64(peek(&s.searching))})
	}
}

// Searching returns num_searching. The monitor decides on it (a searcher
// will find the work it looks at, so it need not wake anybody).
func (s *State) Searching() int32 {
	return s.searching.LoadSeqCst() // seq_cst: the monitor's look at the queues came before
}

// Bitmap returns the parked bitmap. The monitor decides on it whether any
// worker runs (its half of a Dekker pair with workers leaving the parked
// set; see impl/sched).
func (s *State) Bitmap() uint64 {
	return s.bitmap.LoadSeqCst() // seq_cst: the load half of that Dekker pair
}

// Snapshot is a racy read of the three words for metrics and tests; the
// values may come from different instants.
type Snapshot struct {
	Searching int
	Parked    int
	Bitmap    uint64
}

// Snapshot returns the current values. Relaxed loads: diagnostics only.
func (s *State) Snapshot() Snapshot {
	return Snapshot{
		Searching: int(s.searching.LoadRelaxed()),
		Parked:    int(s.parked.Load()),
		Bitmap:    s.bitmap.LoadRelaxed(),
	}
}

// IsParked reports whether bit i is set (diagnostics and tests only; the
// protocol never decides on a separate load of the bit).
func (s *State) IsParked(i int) bool {
	// Relaxed: diagnostics.
	return s.bitmap.LoadRelaxed()&(uint64(1)<<uint(i)) != 0
}
