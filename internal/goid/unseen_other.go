//go:build race && !amd64 && !arm64

package goid

import "sync/atomic"

// On the other architectures the race detector runs on, a Guard's word
// and an Owner's handle go through sync/atomic, which the detector sees
// (unseen.go says what that costs). Each is seq_cst, stronger than the
// relaxed that is needed.

func casRelaxed(p *uint32, old, new uint32) bool { return atomic.CompareAndSwapUint32(p, old, new) }
func storeRelaxed(p *uint32, v uint32)           { atomic.StoreUint32(p, v) }
func load64Relaxed(p *uint64) uint64             { return atomic.LoadUint64(p) }
func store64Relaxed(p *uint64, v uint64)         { atomic.StoreUint64(p, v) }
