//go:build race && (amd64 || arm64)

package goid

// An Owner's word is read and written with plain moves in assembly
// (owner_amd64.s, owner_arm64.s), which the race detector does not
// instrument: through sync/atomic each access would be a call into the
// detector, tens of nanoseconds on every checked call, and an edge in
// its happens-before order that the production build does not have. An
// aligned word's load and store are single-copy atomic on both; relaxed
// is all the check needs.

// load64Relaxed loads *p, relaxed.
//
//go:noescape
func load64Relaxed(p *uint64) uint64

// store64Relaxed stores v in *p, relaxed.
//
//go:noescape
func store64Relaxed(p *uint64, v uint64)
