package weak

// Synchronisation outside the atomics: what the controller sees of
// mutexes and channels. In the Go memory model each is a
// synchronized-before edge; here each carries the releasing thread's whole
// view (clock and frontier) to the acquiring one, as a release store read
// by an acquire load does.
//
// The controller maps its operations as follows.
//
//	sync.Mutex / RWMutex Unlock            Release(t, s)  (s: the mutex's Sync)
//	Lock, RLock (once it holds the lock)   Acquire(t, s)
//	channel send of a value                v := Snapshot(t), kept with the value
//	receive of that value                  AcquireView(t, v)
//	unbuffered receive, before the send    the receiver's Snapshot, taken by the
//	  completes (and buffered: the k-th      sender's AcquireView when its send
//	  receive before the (k+C)-th send)      completes
//	close(ch)                              Release(t, s)  (s: the channel's Sync)
//	a receive that reports closed          Acquire(t, s)
//	go statement, goroutine returns, Join  Go, Exit, Join (goroutine.go)
//
// RWMutex readers all acquire the last Unlock; RUnlock releases into the
// same Sync, which a later Lock acquires: a join, so several readers'
// views all reach the writer.

// Sync names a synchronisation object: a mutex, or a channel's close.
type Sync int

// NewSync adds a synchronisation object that nothing has released yet.
func (m *Model) NewSync() Sync {
	m.syncs = append(m.syncs, m.newView())
	return Sync(len(m.syncs) - 1)
}

func (m *Model) sync(s Sync) *view {
	if s < 0 || int(s) >= len(m.syncs) {
		panic("weak: no such Sync")
	}
	return m.syncs[s]
}

// Release records that t released s (unlocked it, closed it): s keeps
// t's view, joined with whatever earlier releases left.
func (m *Model) Release(t Thread, s Sync) {
	v := m.sync(s)
	ts, _ := m.step(t)
	v.join(m.pool, ts.cur)
}

// Acquire records that t acquired s (locked it, saw it closed):
// everything before every release of s so far happens before t's next
// operation.
func (m *Model) Acquire(t Thread, s Sync) {
	v := m.sync(s)
	ts, _ := m.step(t)
	ts.cur.join(m.pool, v)
}

// Snapshot returns t's view now, for a message the controller carries
// itself (a value sent on a channel).
func (m *Model) Snapshot(t Thread) View {
	ts, _ := m.step(t)
	return View{m.cloneView(ts.cur)}
}

// AcquireView records that t received a message carrying v: everything
// before the Snapshot that took v happens before t's next operation.
func (m *Model) AcquireView(t Thread, v View) {
	ts, _ := m.step(t)
	ts.cur.join(m.pool, v.v)
}
