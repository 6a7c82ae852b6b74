//go:build explore

package park

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// Under the explorer the two system calls are controlled waits with the
// kernel's semantics: FUTEX_WAIT returns at once if the word is not val,
// and otherwise sleeps until a FUTEX_WAKE, the timeout, or (as the kernel
// allows) spuriously; here it sleeps until the word differs from val, which
// a FUTEX_WAKE always follows in this parker. The word's own loads and
// CASes are the real code's, each a scheduling point.
func futexWait(addr *atomic.Uint32, val uint32, ts *unix.Timespec) {
	if !sync.Controlled() {
		panic("park: futex parker used outside the explorer in an explore build")
	}
	var timeout time.Duration
	if ts != nil {
		timeout = time.Duration(ts.Nano())
	}
	sync.Block(func() bool { return addr.Peek() != val }, timeout, "futex word change")
}

func futexWake(addr *atomic.Uint32) { sync.Point() }
