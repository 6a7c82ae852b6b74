package weak

import "github.com/wsched/wsched/explore/internal/vclock"

// Goroutine start and join. In the Go memory model a go statement is
// synchronized before the new goroutine begins; the explorer's Join (a
// goroutine waiting for another to return) is the matching edge at the
// end. Both carry the whole view, as every synchronisation of the Go
// memory model does.

// Go records that thread parent starts a new thread, and returns it.
// Everything parent did so far happens before the new thread's first
// operation.
func (m *Model) Go(parent Thread) Thread {
	ps, _ := m.step(parent)
	child := Thread(len(m.threads))
	cs := &threadState{cur: m.cloneView(ps.cur), lastLoc: -1}
	cs.cur.tick(child)
	m.threads = append(m.threads, cs)
	return child
}

// Exit records that thread t returned; it performs no more operations.
func (m *Model) Exit(t Thread) {
	ts, _ := m.step(t)
	ts.done = true
}

// Join records that thread t waited for thread child to return (child
// called Exit): everything child did happens before t's next operation.
func (m *Model) Join(t, child Thread) {
	cs := m.threads[m.checkThread(child)]
	ts, _ := m.step(t)
	ts.cur.join(m.pool, cs.cur)
}

func (m *Model) checkThread(t Thread) Thread {
	if t < 0 || int(t) >= len(m.threads) {
		panic("weak: no such thread")
	}
	return t
}

// Clock returns a copy of thread t's vector clock: for each thread, how
// many of its events happen before t's next operation (t's own entry
// counts the events t has performed). Two such snapshots order the calls
// of a history by happens-before: a call of thread u whose last event is
// u's k-th happens before a point whose clock has At(u) >= k.
func (m *Model) Clock(t Thread) vclock.Clock {
	return append(vclock.Clock(nil), m.threads[m.checkThread(t)].cur.clock...)
}
