//go:build !explore

package atomic

import "sync/atomic"

// Enabled reports whether the operations are scheduling points of the
// explorer (the explore build tag).
const Enabled = false

// The types of sync/atomic, by alias: no wrapper, no cost.
type (
	Bool           = atomic.Bool
	Int32          = atomic.Int32
	Int64          = atomic.Int64
	Uint32         = atomic.Uint32
	Uint64         = atomic.Uint64
	Pointer[T any] = atomic.Pointer[T]
)
