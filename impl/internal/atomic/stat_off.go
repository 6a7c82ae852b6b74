//go:build !explore

package atomic

import "sync/atomic"

// Counters and snapshots, never scheduling points (see the package
// comment): sync/atomic's types, by alias (stat_on.go under the explore
// tag).
type (
	StatBool   = atomic.Bool
	StatInt32  = atomic.Int32
	StatInt64  = atomic.Int64
	StatUint32 = atomic.Uint32
	StatUint64 = atomic.Uint64
)
