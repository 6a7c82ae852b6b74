package weak

// Yield records that thread t yielded (runtime.Gosched, or one iteration
// of a spin loop that waits for another goroutine): from now on, each of
// t's reads is at or after the store that was the latest, at every
// location, when t yielded the time before.
//
// C11 promises only that a store becomes visible "in a finite period of
// time"; an explorer that lets a spinning load read the same stale value
// for ever turns every spin loop into an endless schedule (here the bound
// on stale reads per execution already stops that, but PCT and a larger
// bound should not depend on it). loom's answer is to let a load after a
// yield see newer stores. Taken literally, at the yield itself, that
// rule hides real bugs: a protocol that yields between two of its steps
// (the fork-join pool's idle loop yields after announcing that it is
// sleepy, then searches once more) would always see, in the search, every
// store made before the yield, which C11 does not promise; the pool's
// lost wakeup (docs/explore.md, "The fork-join pool's publication fence")
// hid behind it. So the rule is one yield late: a store is certainly seen
// by t only once t has yielded twice since it was made. A spin loop that
// yields each iteration still ends, one iteration later. The rule creates
// no happens-before (the clock is untouched), so plain cells are not
// ordered by it; it only takes stale choices away, so it adds no outcome
// C11 forbids.
func (m *Model) Yield(t Thread) {
	ts, _ := m.step(t)
	if m.pool.lean { // the rule only takes stale choices away
		return
	}
	for i, pos := range ts.yielded {
		ts.cur.raise(m.pool, Loc(i), pos)
	}
	ts.yielded = ts.yielded[:0]
	for _, x := range m.locs {
		ts.yielded = append(ts.yielded, x.latest().pos)
	}
}
