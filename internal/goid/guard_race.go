//go:build race

package goid

// Guard is entered and left by each owner-only operation of one structure.
type Guard struct{ busy uint32 }

// Enter marks an owner-only operation as under way, or panics with msg if
// another one is (msg names the structure, the operation and the rule).
func (g *Guard) Enter(msg string) {
	// A CAS the race detector does not see (unseen.go): only this check
	// reads the word, so relaxed.
	if !casRelaxed(&g.busy, 0, 1) {
		panic(msg)
	}
}

// Exit ends the operation Enter began.
func (g *Guard) Exit() { storeRelaxed(&g.busy, 0) } // see Enter
