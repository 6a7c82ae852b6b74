package weak

// SCEvent names a seq_cst event of an execution: its thread and its
// event number there (the thread's own component of its clock, Clock,
// right after the event).
type SCEvent struct {
	Thread Thread
	Ev     uint32
}

// SCOrder returns the execution's seq_cst events (SC accesses and SC
// fences) in a total order that extends psc (psc.go): one seq_cst order
// the execution is consistent with, as the page draws it. psc is acyclic,
// so such an order exists; of the orders that extend it, this is the one
// that takes, at each point, the lowest-numbered thread whose next SC
// event has every SC event that reaches it already placed.
func (m *Model) SCOrder() []SCEvent {
	m.whole("SCOrder")
	p := &m.psc
	placed := make([]int, len(p.nodes))
	var out []SCEvent
	for {
		progress, left := false, false
		for u, ns := range p.nodes {
			if placed[u] >= len(ns) {
				continue
			}
			left = true
			n := ns[placed[u]]
			ready := true
			for v, idx := range n.reach {
				if v != u && (v >= len(placed) || idx > placed[v]) {
					ready = false
					break
				}
			}
			if ready {
				out = append(out, SCEvent{n.thread, n.ev})
				placed[u]++
				progress = true
				break
			}
		}
		if !left || !progress {
			return out
		}
	}
}

// LastSC returns thread t's latest seq_cst event, if it made one: after an
// operation, a new one says the operation was seq_cst (a compare-and-swap
// that failed with a weaker failure ordering is not).
func (m *Model) LastSC(t Thread) (SCEvent, bool) {
	m.whole("LastSC")
	if int(t) >= len(m.psc.nodes) || len(m.psc.nodes[t]) == 0 {
		return SCEvent{}, false
	}
	n := m.psc.nodes[t][len(m.psc.nodes[t])-1]
	return SCEvent{n.thread, n.ev}, true
}
