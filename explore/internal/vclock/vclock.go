// Package vclock is the vector clock of the explorer's two happens-before
// analyses: the reduced search's, which orders the steps of one run
// (explore/internal/engine, por_run.go), and the weak-memory model's, which
// orders the events of an execution (explore/internal/weak, view.go).
//
// A clock c over goroutines (threads) says what happens before a point:
// c[g] is how many events of goroutine g do, the point itself included
// when it is g's. Entries beyond the slice's length are zero: nothing of
// that goroutine. It is the vector clock of Lamport and Mattern, as
// loom's VersionVec and every vector-clock race detector keep it.
//
// What it is not: a record of which events those are, or of anything but
// counts; each analysis numbers its own events.
package vclock

// Clock is a vector clock: Clock[g] events of goroutine g happen before
// the point it belongs to.
type Clock []uint32

// At is how many events of goroutine g happen before the point.
func (c Clock) At(g int) uint32 {
	if g < len(c) {
		return c[g]
	}
	return 0
}

// Join makes c the least upper bound of c and o (what happens before
// either happens before the join) and returns it; it grows c if o is
// longer, so the result is to be kept as append's is.
func (c Clock) Join(o Clock) Clock {
	if n := len(c); n < len(o) {
		// What c lacks, o has alone: take it as it is.
		c = append(c, o[n:]...)
		o = o[:n]
	}
	c2 := c[:len(o)]
	for i, v := range o {
		if v > c2[i] {
			c2[i] = v
		}
	}
	return c
}

// Tick counts one more event of goroutine g and returns c, grown if need
// be, and the event's number.
func (c Clock) Tick(g int) (Clock, uint32) {
	for len(c) <= g {
		c = append(c, 0)
	}
	c[g]++
	return c, c[g]
}
