package weak

// After the last stale choice.
//
// Much of what the model keeps is there to decide which stale choices an
// operation may make: the seq_cst order (psc.go: whether the graph stays
// acyclic with the choice), each view's frontier (view.go: the oldest
// store a read may read), its pin (the sources of the psc edges into what
// happens before it), and the positions a yield remembers (yield.go). An
// execution makes at most Config.MaxStale stale choices. Once it has made
// its last, Candidates, Placements and the rest offer none
// (candidates.go), and nothing asks for those again. So an untraced
// execution stops keeping them there: pscEvent records nothing, a store
// skips the sources of its mo and fr edges, a yield remembers nothing, and
// views join, copy and raise their clocks alone. The clocks go on, since
// the plain cells are checked against happens-before and the controller
// reads it (Clock). A run of a whole-runtime scenario in the weak mode
// made a fifth of its operations of the model past that point
// (docs/explore.md, "Past the last stale choice").
//
// A traced execution (Config.Traced) keeps everything, for its trace: the
// seq_cst order (SCOrder, LastSC) and what a read's view knew (Known).
// These panic on an execution that stopped, rather than answer from part
// of what they read.

// choseStale counts a stale choice; the last one MaxStale allows makes an
// untraced execution lean.
func (m *Model) choseStale() {
	m.stale++
	if m.stale >= m.cfg.MaxStale && !m.cfg.Traced {
		m.pool.lean = true
	}
}

// whole panics if the execution is lean: what asks needs Config.Traced.
func (m *Model) whole(what string) {
	if m.pool.lean {
		panic("weak: " + what + " of an execution that stopped keeping it at its last stale choice (Config.Traced keeps it)")
	}
}
