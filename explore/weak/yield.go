package weak

// Yield records that thread t yielded (runtime.Gosched, or one iteration
// of a spin loop that waits for another goroutine): from now on, each of
// t's reads is at or after the store that was the latest when it yielded,
// at every location.
//
// C11 promises only that a store becomes visible "in a finite period of
// time"; an explorer that lets a spinning load read the same stale value
// for ever turns every spin loop into an endless schedule. loom's answer
// is to let a load after a yield see newer stores; this is the same rule,
// made a frontier: t's frontier is raised to every location's latest
// store. It creates no happens-before (the clock is untouched), so plain
// cells are not ordered by it; it only takes stale choices away, so it
// adds no outcome C11 forbids.
func (m *Model) Yield(t Thread) {
	ts, _ := m.step(t)
	for i, x := range m.locs {
		ts.cur.raise(Loc(i), x.latest().pos)
	}
}
