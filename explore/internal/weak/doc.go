// Package weak is a model of C11 memory, as RC11 and C++20 define it, for
// the fragment wsched uses: atomic loads, stores, read-modify-writes and
// compare-and-swaps with their orderings, fences, plain (non-atomic)
// cells, and the synchronisation of goroutines, mutexes and channels.
//
// It is the memory of the explorer's weak mode, as loom's rt/atomic.rs is
// loom's and Miri's weak_memory.rs Miri's. It does not schedule anything
// and does not run code: the controller tells it, one operation at a
// time, what the running goroutine does, and for every read it returns
// the stores the read may read (Candidates); the caller chooses one and
// the model applies the read. So a weak-memory behaviour is a search
// decision like a context switch, enumerated by the search or drawn by
// PCT from its seed, and replayed from the same choices.
//
// Using it. One Model per execution (New, or NewFrom the last one's,
// which hands out again the memory that one made: pool.go), thread 0 the
// scenario's main goroutine. The controller, at each instrumented operation of goroutine
// t, after its scheduling point:
//
//	go statement                 child := m.Go(t); the goroutine ends: m.Exit(child)
//	Join on a goroutine          m.Join(t, child)
//	first access to an atomic    l := m.NewAtomic(name, value in memory)
//	Load                         cs := m.Candidates(t, l, o); i := choose(len(cs)); v := m.Load(t, l, o, i)
//	Store                        ps := m.Placements(t, l, o); i := choose(len(ps)); m.StoreAt(t, l, o, v, i)
//	Swap, Add, And, Or           cs := m.RMWCandidates(t, l, o); i := choose(len(cs));
//	                             old, _ := m.RMWAt(t, l, o, i, func(old Value) Value { ... })
//	CompareAndSwap               cs := m.CASChoices(t, l, exp, succ, fail); i := choose(len(cs));
//	                             old, ok, _ := m.CompareAndSwapAt(t, l, exp, new, succ, fail, i)
//	fence                        m.Fence(t, o)
//	Gosched, a spin iteration    m.Yield(t)
//	plain cell Load / Store      err := m.Read(t, c, site) / m.Write(t, c, site); Take is both
//	mutex, channel               sync.go
//
// (Store and RMW are StoreAt and RMWAt with choice 0: last in
// modification order, reading the latest. A controller that lists the
// choices at every access lists them once: CandidatesInto and LoadFrom,
// PlacementsInto and StoreFrom, and so on, take the list made, with a
// slice to reuse for it. CompareAndSwap with
// CASCandidates is a CAS that reads an older store only to fail.) choose is the search's: index 0 (the latest store, the last
// place) by default, any other a stale choice, offered only while
// StaleReads is below Config.MaxStale. A read or store with more than one
// choice is a decision like a context switch, recorded in the replay
// token. The model keeps the
// values: the wrapper returns what Load, RMW and CompareAndSwap return,
// not what its own memory holds (Latest is what a Peek returns).
//
// What is modelled.
//
//   - Per location, the stores in modification order, the newest
//     Config.History (7) kept. Where a store goes in it is a choice:
//     last, or before newer stores as far as coherence and atomicity
//     allow (location.go); an RMW may read an older store, its own going
//     right after it. Per thread, a view: a vector clock
//     (happens-before) and, per location, the oldest store it may still
//     read (view.go). Coherence is the view: a thread never reads older
//     than a store that happens before it or that a load before it read.
//   - Release stores carry the writer's view, release fences make the
//     thread's later relaxed stores carry the fence's; acquire loads take
//     the view of the store they read, acquire fences take those of the
//     stores read before them. RMWs read the latest store and pass its
//     view on (release sequences, C++20: only RMWs continue them).
//   - seq_cst loads, stores, RMWs and fences with RC11's meaning, not as
//     acquire-release: the seq_cst order is kept as a graph, psc, and a
//     stale choice is offered only if it keeps it acyclic (psc.go). The
//     order is RC11's, not the order in which the events execute.
//   - A failed compare-and-swap is a load with the failure ordering and
//     may read a stale value.
//   - After a Yield a thread reads no older than what was latest then, so
//     a spin loop that yields ends (yield.go).
//   - Plain cells checked by happens-before: an unordered conflicting
//     access is a data race, reported with both sites (cell.go).
//   - Happens-before from goroutine start and join, mutexes and channels
//     (goroutine.go, sync.go).
//   - Reading a store other than the latest, or placing a store before
//     the latest, is a stale choice; the model counts them and offers
//     none beyond Config.MaxStale (2) per execution.
//
// What is not.
//
//   - What RC11 itself leaves out. Load buffering and out-of-thin-air: a
//     read returns only a store already executed, so no execution has a
//     cycle of program order and reads-from; RC11 forbids such cycles
//     (its no-thin-air axiom) because no one knows how to allow the
//     harmless ones without the thin-air ones, so the model agrees with
//     RC11 but not with C++20, which allows the LB outcome for relaxed
//     accesses (ARM can show it): code correct only because LB cannot
//     happen is not caught. Consume (compilers implement it as acquire),
//     mixed-size and non-atomic accesses to atomic locations (Go has
//     neither), and spurious failure of a weak CAS (Go's CAS is strong).
//   - The bounds: a store pushed out of a location's history can no
//     longer be read or have a store placed before it, and an execution
//     makes at most MaxStale stale choices; behaviours beyond either are
//     not produced. Yield raises a thread's views to the latest stores,
//     which C11 does not require.
//
// Every one of these only removes outcomes: the model never produces an
// outcome RC11 forbids. The litmus tests (litmus_test.go) run small
// programs on package explore/litmus, which enumerates every interleaving
// and every choice of store and of place, without the bounds, and compare
// the outcomes, set for set, with those of an RC11 oracle
// (explore/internal/weak/rc11) that enumerates the programs' executions from
// RC11's axioms.
package weak
