//go:build buggy

package mpmc

import "github.com/wsched/wsched/explore/atomic"

// publish, the planted bug: Relaxed. The sequence still says the slot is
// full, but nothing orders the value's write before the consumer's read.
func publish(seq *atomic.Uint64, v uint64) { seq.StoreRelaxed(v) }
