//go:build race

package owner

import "sync/atomic"

// Guard is entered and left by each owner-only operation of one structure.
type Guard struct{ busy atomic.Int32 }

// Enter marks an owner-only operation as under way, or panics with msg if
// another one is (msg names the structure, the operation and the rule).
func (g *Guard) Enter(msg string) {
	// Only this check reads it; seq_cst as Go gives, no ordering needed.
	if !g.busy.CompareAndSwap(0, 1) {
		panic(msg)
	}
}

// Exit ends the operation Enter began.
func (g *Guard) Exit() { g.busy.Store(0) } // see Enter
