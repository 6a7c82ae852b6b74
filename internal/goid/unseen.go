//go:build race && (amd64 || arm64)

package goid

// A Guard keeps its word, and an Owner its handle, in a build with the
// race detector, with instructions the detector does not see
// (unseen_amd64.s, unseen_arm64.s). Through sync/atomic, each operation would be a call
// into the detector, which costs tens of nanoseconds there and, worse,
// makes the detector record a happens-before edge that the production
// build, where the word does not exist, does not have: the CAS and store
// of every owner-only operation would order two owners' operations for
// the detector and hide a real race between them. Unseen, the check
// costs an instruction each and leaves the detector to judge the code
// alone.
//
// No ordering is needed: each word is read only by its check, for its
// own value. An aligned word's load and store are single-copy atomic on
// both architectures.

// casRelaxed is a compare-and-swap of *p from old to new (a locked
// instruction), relaxed.
//
//go:noescape
func casRelaxed(p *uint32, old, new uint32) (swapped bool)

// storeRelaxed stores v in *p, relaxed.
//
//go:noescape
func storeRelaxed(p *uint32, v uint32)

// load64Relaxed loads *p (a plain move), relaxed.
//
//go:noescape
func load64Relaxed(p *uint64) uint64

// store64Relaxed stores v in *p (a plain move), relaxed.
//
//go:noescape
func store64Relaxed(p *uint64, v uint64)
