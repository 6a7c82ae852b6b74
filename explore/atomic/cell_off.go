//go:build !explore

package atomic

// Cell is a pointer that is NOT atomic: its Load, Store and Take are a
// plain read and write. It is for memory whose every access is ordered by
// atomics around it, such as a ring slot: the owner writes it before the
// tail store that publishes it, and a consumer reads it only after the
// head CAS that claims it, so no two accesses ever race. A plain cell
// costs a move where an atomic store or swap costs a locked exchange on
// amd64, and the race detector checks the ordering the code claims (an
// atomic slot would hide a missing one from it). Built with the explore
// tag, a Cell is instrumented as Pointer is: each access is a scheduling
// point, as loom tracks each access to an UnsafeCell.
type Cell[T any] struct{ p *T }

// Load reads the cell.
func (c *Cell[T]) Load() *T { return c.p }

// Store writes the cell.
func (c *Cell[T]) Store(v *T) { c.p = v }

// Take reads the cell and empties it.
func (c *Cell[T]) Take() *T {
	v := c.p
	c.p = nil
	return v
}
