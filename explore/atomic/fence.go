package atomic

// The fences (FenceAcquire, FenceRelease, FenceAcqRel, FenceSeqCst, in
// off.go and on.go) are C11's atomic_thread_fence. impl/ uses them where
// the design it follows does: the Chase-Lev deque of Lê, Pop, Cohen and
// Zappa Nardelli (PPoPP 2013), whose push publishes with a release fence
// and a relaxed store of bottom, and whose take and steal order a store
// and a load of different locations with a seq_cst fence; and the idle
// protocol's Dekker pairs, where a seq_cst fence on each side lets the
// queues' own operations stay release and acquire. In Go every atomic
// operation is sequentially consistent, which gives the relaxed and
// acquire-release accesses around a fence all it would give them, so a
// fence is no instruction at all: it is written down so that a reader,
// the explorer's weak mode and a port see it.
