//go:build race

package goid

// Owner is the goroutine that owns a structure (a scheduler worker's
// queues, a fork-join worker's deque), recorded by that goroutine as it
// starts (RecordOwner), so that an owner-only call can ask whether its
// caller is that goroutine (IsOwner) for a register read and a load,
// whatever the depth of the caller's stack. It keeps the owner's Handle;
// only a build with the race detector keeps anything (owner.go).
//
// A handle names its goroutine only while that goroutine lives. So
// IsOwner answers only while the recorded goroutine is known to be alive
// (it is running the poll or the job the call belongs to): then no other
// goroutine carries its handle, and a different handle is a different
// goroutine.
//
// The handle is kept with instructions the race detector does not see
// (unseen.go), so that the check costs no call into the detector
// and orders nothing for it: the production build, where the word does
// not exist, orders nothing there either.
type Owner struct{ handle uint64 }

// RecordOwner notes the calling goroutine as o's owner.
func RecordOwner(o *Owner) {
	// Relaxed: read by this goroutine's own calls, and by another's
	// only to find it different.
	store64Relaxed(&o.handle, uint64(Handle()))
}

// IsOwner reports whether the calling goroutine is o's recorded owner.
//
// It is called by every Context method of impl/sched and every Worker
// method of impl/forkjoin, and is not inlined (its loads are assembly): so
// it is compiled without the detector's function entry and exit hooks,
// which would be its only calls into the detector. Its one memory access
// is the assembly load the detector does not see in any case.
//
//go:norace
func IsOwner(o *Owner) bool {
	return uint64(Handle()) == load64Relaxed(&o.handle) // relaxed: see RecordOwner
}
