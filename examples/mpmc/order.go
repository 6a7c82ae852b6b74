//go:build !buggy

package mpmc

import "github.com/wsched/wsched/explore/atomic"

// publish is the producer's store of a slot's sequence: Release, so that
// a consumer whose LoadAcquire reads it sees the value written before.
func publish(seq *atomic.Uint64, v uint64) { seq.StoreRelease(v) }
