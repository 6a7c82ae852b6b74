//go:build !explore

package idle

import "github.com/wsched/wsched/explore/atomic"

// peek reads x for a TLA+ trace record (tlatrace build only). The trace's
// lock is held from the operation to the record, and every write of the
// counters is a logged operation, so the load sees the operation's value.
// Relaxed: the lock orders it.
func peek(x *atomic.Int32) int32 { return x.LoadRelaxed() }
