package weak

import "fmt"

// Thread names a thread of the model: the goroutine the controller runs.
// Thread 0 exists from the start (the scenario's main goroutine); Go
// makes the others.
type Thread int

// Config bounds a model. The zero Config is the default.
type Config struct {
	// History is how many stores each location keeps, newest first; a
	// load can read only those (the latest is always among them).
	// Default 7, as loom.
	History int
	// MaxStale is how many stale choices one execution may make: reads
	// of a store other than the latest, and stores placed before the
	// latest in modification order. Once it is reached, Candidates
	// offers only the latest store and Placements only the last place.
	// Default 2: message passing needs one, store buffering, IRIW and
	// 2+2W two. A negative value allows none (every read reads the
	// latest store, every store goes last: sequential consistency for
	// the atomics).
	MaxStale int
	// Traced keeps, to the end of the execution, what only the stale
	// choices and a trace read: the seq_cst order (SCOrder, LastSC) and
	// the views' frontiers (Known). Without it they stop growing at the
	// last stale choice MaxStale allows (lastchoice.go).
	Traced bool
}

const (
	defaultHistory  = 7
	defaultMaxStale = 2
)

func (c Config) withDefaults() Config {
	if c.History <= 0 {
		c.History = defaultHistory
	}
	switch {
	case c.MaxStale == 0:
		c.MaxStale = defaultMaxStale
	case c.MaxStale < 0:
		c.MaxStale = 0
	}
	return c
}

// Model is the memory of one execution: its atomic locations, plain cells,
// synchronisation objects and the view of each thread. It is not safe for
// concurrent use; the explorer runs one goroutine at a time and calls it
// from whichever runs. A new execution needs a new Model (New, or NewFrom
// the last execution's).
type Model struct {
	cfg     Config
	threads []*threadState
	locs    []*location
	cells   []*cell
	syncs   []*view
	psc     pscState // the seq_cst order, psc.go
	events  int      // operations so far, numbering stores for Candidate.Seq
	stale   int      // stale choices so far
	// pool is where the Model's store bookkeeping, locations, seq_cst
	// nodes and views come from (pool.go); psc shares it.
	pool *pool
}

// newInfo returns a new store's bookkeeping, zero.
func (m *Model) newInfo() *storeInfo { return m.pool.infos.one() }

// New returns an empty memory with thread 0.
func New(cfg Config) *Model { return newModel(cfg, newPool()) }

// NewFrom is New for the next run of a search: the Model it returns hands
// out again the memory spare handed out (pool.go), where New would make
// it anew. spare is a finished run's Model, which nothing uses any more,
// nor anything it returned: it may not be used again.
func NewFrom(cfg Config, spare *Model) *Model {
	p := spare.pool
	spare.pool = nil
	p.rewind()
	return newModel(cfg, p)
}

func newModel(cfg Config, p *pool) *Model {
	m := &Model{cfg: cfg.withDefaults(), pool: p}
	m.psc.pool = p
	m.threads = append(m.threads, &threadState{cur: m.newView(), lastLoc: -1})
	return m
}

// Config returns the bounds in force, defaults filled in.
func (m *Model) Config() Config { return m.cfg }

// StaleReads is the number of stale choices this execution made: reads
// (loads, RMWs, compare-and-swaps) of a store older than the latest, and
// stores placed before the latest.
func (m *Model) StaleReads() int { return m.stale }

// threadState is one thread's part of the memory.
type threadState struct {
	// cur is everything that happens before the thread's next operation.
	cur *view
	// fenced is cur as of the thread's last release fence (nil: none).
	// A relaxed store carries it: release fence, relaxed store, relaxed
	// read of it, acquire fence is a synchronisation in C11.
	fenced *view
	// pending joins the views carried by every store the thread read
	// with a relaxed load (or a relaxed RMW); an acquire fence takes it.
	pending view
	// yielded holds, per location, the position of the latest store when
	// the thread last yielded (nil: it has not yielded); Yield raises the
	// frontier to it at the thread's next yield.
	yielded []float64
	done    bool
	// For psc (psc.go): the location of the thread's last event (-1:
	// not an access), the clock at its last event on another location,
	// and its SC events whose next event on another location is to come.
	lastLoc   Loc
	diffClock []uint32
	awaiting  []*scNode
	// fenceSeen counts, per thread, its SC fences that happen before the
	// thread's last event (a prefix: a thread's fences are in order, and
	// cur's clock only grows), and fenceSet is the set they make, kept
	// while no fence joins it (fencesBeforeOf).
	fenceSeen []int
	fenceSet  []int
}

func (m *Model) thread(t Thread) *threadState {
	if t < 0 || int(t) >= len(m.threads) {
		panic(fmt.Sprintf("weak: no thread %d", t))
	}
	ts := m.threads[t]
	if ts.done {
		panic(fmt.Sprintf("weak: thread %d has ended", t))
	}
	return ts
}

// step numbers a new operation of thread t that is no atomic access and
// returns t's state and the operation's number in t.
func (m *Model) step(t Thread) (*threadState, uint32) { return m.stepAt(t, -1) }

// stepAt is step for an access to l (-1: none).
func (m *Model) stepAt(t Thread, l Loc) (*threadState, uint32) {
	ts := m.thread(t)
	m.events++
	if l < 0 || l != ts.lastLoc {
		ts.diffClock = append(ts.diffClock[:0], ts.cur.clock...)
		ts.lastLoc = l
	}
	ev := ts.cur.tick(t)
	keep := ts.awaiting[:0]
	for _, n := range ts.awaiting {
		if n.fence || l < 0 || n.loc != l {
			n.next = ev
		} else {
			keep = append(keep, n)
		}
	}
	ts.awaiting = keep
	return ts, ev
}

// prvClock is the clock of t's last event before its next one that is
// not an access to l: where sb|≠loc into an access to l starts.
func (ts *threadState) prvClock(l Loc) []uint32 {
	if ts.lastLoc != l {
		return ts.cur.clock
	}
	return ts.diffClock
}
