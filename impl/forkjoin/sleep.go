package forkjoin

import (
	"time"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/impl/internal/debugcheck"

	"github.com/wsched/wsched/impl/internal/chaos"
)

// The idle protocol (after Rayon's sleep module, as the Blitz pool uses it).
//
// An idle worker goes through three stages, one search for work per round:
//
//	rounds 0..roundsUntilSleepy-1   search, and yield the processor
//	round roundsUntilSleepy         announce sleepy: make the jobs event
//	                                counter (JEC) even, remember its value
//	round roundsUntilSleepy+1       search once more; if nothing, sleep,
//	                                but only if the JEC still holds the
//	                                remembered value
//
// A publisher (a Join pushing its second half, a Scope spawning, a Run
// injecting) first makes the job visible, then calls newJobs: if the JEC is
// even (a sleepy announcement stands) it makes it odd, and if any worker is
// registered as sleeping it wakes one.
//
// Why no job is missed. The JEC and the number of sleepers share one atomic
// word, so every announcement, every newJobs and every registration as a
// sleeper is a step in a single order. Take a job J published by P and a
// worker S that announced sleepy with value v and then sleeps.
//   - If P's newJobs comes before S's announcement, J was visible before the
//     announcement, so S's search after the announcement finds it (and does
//     not sleep).
//   - If it comes between S's announcement and S's registration as a
//     sleeper, the JEC is no longer v when S tries to register (P made it
//     odd, or somebody had already changed it): S's CAS sees it, and S goes
//     back to searching instead of sleeping.
//   - If it comes after S's registration, P sees a sleeper and wakes one.
//
// "Skip the announcement" or "register without checking the JEC" opens the
// middle case: S misses J and sleeps while P, seeing no sleeper yet, wakes
// nobody. In a fork-join pool that is a hang as soon as J is what somebody
// is waiting for.
//
// A worker sleeping on a latch (a Join whose second half was stolen, a
// Scope waiting for its spawns, the main loop waiting for Close) is also
// woken by whoever sets that latch; see latch in job.go.
const (
	// roundsUntilSleepy: searches (each followed by a yield) before an
	// idle worker announces that it is sleepy. Yielding is cheap to wake
	// from (no wake needed at all), so a worker stays here while work
	// arrives every few microseconds. 32; under the explorer 1, so that
	// sleeping is a few steps into a scenario (as the ring shrinks to 4
	// slots).
	roundsUntilSleepy = 32*(1-debugcheck.IsExplore) + 1*debugcheck.IsExplore
	// roundsUntilSleeping: the round after the announcement, in which the
	// worker searches one last time before it sleeps.
	roundsUntilSleeping = roundsUntilSleepy + 1
)

// counters packs the JEC (high 32 bits) and the number of sleeping workers
// (low 32 bits) into one word, so that one CAS can both check the JEC and
// register a sleeper.
type counters uint64

const (
	sleeperOne counters = 1
	jecOne     counters = 1 << 32
)

func (c counters) jec() uint32      { return uint32(c >> 32) }
func (c counters) sleepers() uint32 { return uint32(c) }

// jecSleepy reports whether a sleepy announcement stands with no job
// published since.
func (c counters) jecSleepy() bool { return c.jec()&1 == 0 }

// idleState is a worker's private progress through the idle stages.
type idleState struct {
	rounds int
	jec    uint32 // the JEC value announced, valid once rounds > roundsUntilSleepy
}

func (s *idleState) wakeFully()  { s.rounds = 0 }
func (s *idleState) wakePartly() { s.rounds = roundsUntilSleepy }

// workerSleep is where one worker blocks. blocked is true exactly while the
// worker is (or is about to be) waiting on wake and counted as a sleeper; a
// waker that finds it true clears it, un-counts the sleeper and sends the one
// token the channel can hold.
type workerSleep struct {
	mu      sync.Mutex
	blocked bool
	wake    chan struct{}
	// tokens is the worker's wait on wake (its timer reused); only the
	// sleeping worker touches it.
	tokens sync.TokenWait
}

type sleep struct {
	counters atomic.Uint64
	workers  []workerSleep
	timeout  time.Duration // 0: sleep until woken
}

func (s *sleep) init(n int, timeout time.Duration) {
	s.workers = make([]workerSleep, n)
	for i := range s.workers {
		s.workers[i].wake = make(chan struct{}, 1)
	}
	s.timeout = timeout
	// Start the JEC odd: no announcement stands. Before the workers
	// start: no ordering needed.
	s.counters.StoreRelaxed(uint64(jecOne))
}

func (s *sleep) load() counters {
	// Ordering: seq_cst. newJobs's fence, not this load, orders newJobs
	// after the job's publication (a relaxed store of bottom); with it,
	// the audit finds acquire enough here. Kept seq_cst: the counters'
	// accesses in one order, as the argument at the top of this file has them.
	return counters(s.counters.LoadSeqCst())
}

func (s *sleep) cas(old, new counters) bool {
	// Seq_cst (acq_rel would do for the CAS itself; the pairing with the
	// job publication is what needs the total order, see load). A failure
	// is followed by a fresh load.
	return s.counters.CompareAndSwapSeqCstRelaxed(uint64(old), uint64(new))
}

// noWorkFound moves an idle worker one step along the stages. l is the
// latch the worker is waiting for (it sleeps on it), and w the worker.
func (s *sleep) noWorkFound(st *idleState, l *latch, w *Worker) {
	switch {
	case st.rounds < roundsUntilSleepy:
		w.setState(StateSearching)
		sync.Gosched()
		st.rounds++
	case st.rounds == roundsUntilSleepy:
		st.jec = s.announceSleepy()
		w.setState(StateSleepy)
		st.rounds++
		sync.Gosched()
	default:
		s.sleep(st, l, w)
	}
}

// announceSleepy makes the JEC even (unless an announcement already stands)
// and returns its value.
func (s *sleep) announceSleepy() uint32 {
	for {
		c := s.load()
		if c.jecSleepy() {
			return c.jec()
		}
		chaos.Point()
		if s.cas(c, c+jecOne) {
			return (c + jecOne).jec()
		}
	}
}

// newJobs is called after a job has been made visible (pushed on a deque or
// the injector). It cancels any standing sleepy announcement, then wakes one
// sleeping worker if there is one.
func (s *sleep) newJobs() {
	// A seq_cst fence between the job's publication and the load of the
	// counters. The deque publishes with a release fence and a relaxed
	// store of bottom; a seq_cst load after a relaxed store does not
	// order the two (store buffering), so without the fence the load can
	// read the counters from before a worker's sleepy announcement while
	// that worker's last search, after its own seq_cst fence in Steal,
	// still reads the old bottom: the worker registers as a sleeper (the
	// JEC did not move) and the publisher, seeing no sleeper, wakes
	// nobody. The weak-memory mode finds it (forkjoin/pair-steal,
	// schedule 12 with the fence removed; docs/explore.md, "The fork-join
	// pool's publication fence"). With the fence, the two fences and the
	// counters' seq_cst order admit no such execution. In Go a fence is no
	// instruction (explore/atomic, fence.go).
	atomic.FenceSeqCst()
	var c counters
	for {
		c = s.load()
		if !c.jecSleepy() {
			break
		}
		chaos.Point()
		if s.cas(c, c+jecOne) {
			break
		}
	}
	if c.sleepers() == 0 {
		return
	}
	s.wakeAny()
}

func (s *sleep) wakeAny() {
	for i := range s.workers {
		if s.wakeSpecific(i) {
			return
		}
	}
}

// wakeSpecific wakes worker i if it is blocked, and reports whether it was.
func (s *sleep) wakeSpecific(i int) bool {
	ws := &s.workers[i]
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if !ws.blocked {
		return false
	}
	ws.blocked = false
	// The waker un-counts the sleeper, at once, so that publishers that
	// come next do not try to wake a worker that is already waking.
	// Ordering: seq_cst add (part of the counters' single order).
	s.counters.AddSeqCst(^uint64(sleeperOne - 1))
	sync.PointOn(ws.wake)
	ws.wake <- struct{}{} // the channel is empty: blocked was true
	return true
}

// sleep is the last stage: register as a sleeper unless the JEC moved, and
// block until woken (or until the timeout, if any).
func (s *sleep) sleep(st *idleState, l *latch, w *Worker) {
	if !l.getSleepy() {
		return // the latch is set: the caller sees it
	}
	ws := &s.workers[w.index]
	ws.mu.Lock()
	// From here until blocked is set, a latch setter that needs to wake us
	// waits on ws.mu, so it finds blocked == true (or finds us gone).
	if !l.fallAsleep() {
		ws.mu.Unlock()
		st.wakeFully()
		return
	}
	for {
		c := s.load()
		chaos.Point()
		if c.jec() != st.jec {
			// A job was published since we announced: search again
			// (from the sleepy stage, so the next failure sleeps).
			ws.mu.Unlock()
			st.wakePartly()
			l.wakeUp()
			return
		}
		if s.cas(c, c+sleeperOne) {
			break
		}
	}
	// Registered as a sleeper. One more look at the injector, for a Run
	// whose newJobs we could have missed if the 32-bit JEC wrapped all the
	// way around while we were sleepy.
	if w.pool.injector.nonEmpty() {
		// Un-register. Ordering: seq_cst (the counters' single order).
		s.counters.AddSeqCst(^uint64(sleeperOne - 1))
		ws.mu.Unlock()
		st.wakeFully()
		l.wakeUp()
		return
	}
	ws.blocked = true
	ws.mu.Unlock()
	w.setState(StateSleeping)
	w.sleeps.Add(1)
	s.block(ws)
	st.wakeFully()
	l.wakeUp()
}

// block waits for a waker's token, or for the timeout if there is one.
func (s *sleep) block(ws *workerSleep) {
	if ws.tokens.Wait(ws.wake, s.timeout, "fork-join wake token") {
		return
	}
	ws.mu.Lock()
	if ws.blocked {
		// Nobody came: un-count ourselves. Seq_cst: the counters'
		// single order.
		ws.blocked = false
		s.counters.AddSeqCst(^uint64(sleeperOne - 1)) // un-counts this sleeper: seq_cst, the counters' single order
	} else {
		// A waker got here between the timer and the lock; its token
		// is in the channel. Take it so the next sleep starts clean.
		<-ws.wake
	}
	ws.mu.Unlock()
}
