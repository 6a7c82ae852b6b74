//go:build explore

package queue

// RingState is a Ring's positions and slots as the explorer's scenarios
// see them between two steps: what a model of the ring would hold.
type RingState struct {
	Steal, Real, Tail uint32
	// Held counts the slots that point at a task.
	Held int
}

// Inspect reads r without a scheduling point (explore build only). The
// explorer runs one goroutine at a time, so the values belong together.
func (r *Ring[T]) Inspect() RingState {
	steal, real := unpack(r.head.Peek())
	s := RingState{Steal: steal, Real: real, Tail: r.tail.Peek()}
	for i := range r.buf {
		if r.buf[i].Peek() != nil {
			s.Held++
		}
	}
	return s
}

// GlobalState is a Global's contents as a scenario sees them.
type GlobalState struct {
	Len int // queued tasks
	// Held counts the buffer entries that point at a task; outside the
	// queued ones there must be none.
	Held int
}

// Inspect reads g without taking its lock (explore build only; see
// Ring.Inspect).
func (g *Global[T]) Inspect() GlobalState {
	s := GlobalState{Len: g.n}
	for _, t := range g.buf {
		if t != nil {
			s.Held++
		}
	}
	return s
}
