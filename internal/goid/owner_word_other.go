//go:build race && !amd64 && !arm64

package goid

import "sync/atomic"

// On the other architectures the race detector runs on, an Owner's word
// goes through sync/atomic, which the detector sees (owner_word.go says
// what that costs); seq_cst, stronger than the relaxed that is needed.

func load64Relaxed(p *uint64) uint64     { return atomic.LoadUint64(p) }
func store64Relaxed(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
