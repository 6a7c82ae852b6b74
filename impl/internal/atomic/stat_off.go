//go:build !explore

package atomic

import "sync/atomic"

// Counters and snapshots that no decision reads (see the package
// comment): sync/atomic's types in every build.
type (
	StatBool   = atomic.Bool
	StatInt32  = atomic.Int32
	StatInt64  = atomic.Int64
	StatUint32 = atomic.Uint32
	StatUint64 = atomic.Uint64
)
