//go:build race && (amd64 || arm64)

package goid

// A Guard keeps its word, in a build with the race detector, with atomic
// instructions the detector does not see (unseen_amd64.s,
// unseen_arm64.s). Through sync/atomic, each operation would be a call
// into the detector, which costs tens of nanoseconds there and, worse,
// makes the detector record a happens-before edge that the production
// build, where the word does not exist, does not have: the CAS and store
// of every owner-only operation would order two owners' operations for
// the detector and hide a real race between them. Unseen, the check
// costs an instruction each and leaves the detector to judge the code
// alone. (internal/goid keeps a recorded owner goroutine the same way.)
//
// No ordering is needed: the word is read only by the check, for its
// own value.

// casRelaxed is a compare-and-swap of *p from old to new (a locked
// instruction), relaxed.
//
//go:noescape
func casRelaxed(p *uint32, old, new uint32) (swapped bool)

// storeRelaxed stores v in *p, relaxed.
//
//go:noescape
func storeRelaxed(p *uint32, v uint32)
