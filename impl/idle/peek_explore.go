//go:build explore

package idle

import "github.com/wsched/wsched/explore/atomic"

// peek reads x for a TLA+ trace record (tlatrace build only) with no
// scheduling point: the record must follow its operation with no other
// goroutine's step in between (internal/tlatrace).
func peek(x *atomic.Int32) int32 { return x.Peek() }
