//go:build explore && linux

package park_test

import (
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/impl/park"
)

// The futex parker's token under the explorer (go test -tags explore -run
// TestExploreFutex ./impl/park; the system calls are controlled waits
// there, futex_explore_linux.go). What a parker promises besides waking:
// what the unparker wrote before Unpark is visible to the owner once Park
// returns true (Unpark's release swap, read by one of Park's acquiring
// CASes). The message here is a relaxed atomic, so under sequential
// consistency it proves nothing and in the weak-memory mode it is the
// check: a token that does not carry the message shows as a stale read.
//
// futexCarries parks the owner against one unparker per round. Each
// round's Park either consumes the token (true: the message must be
// there) or times out (false: it parks again without a timeout, and the
// sticky token must wake it). A lost token is a deadlock.
func futexCarries(rounds int, timeout time.Duration) {
	p, err := park.NewFutex()
	if err != nil {
		explore.Failf("NewFutex: %v", err)
	}
	var msg atomic.Uint32
	for r := 1; r <= rounds; r++ {
		u := explore.Go("unparker", func() {
			msg.StoreRelaxed(uint32(r))
			p.Unpark()
		})
		if !p.Park(timeout) && !p.Park(0) {
			explore.Failf("round %d: Park(0) returned false", r)
		}
		if got := msg.LoadRelaxed(); got != uint32(r) {
			explore.Failf("round %d: woken by the token, but the message before Unpark reads %d", r, got)
		}
		u.Join()
	}
}

// Two rounds, no timeout: the token found at once (the first CAS), found
// by the announcement's failed CAS, or handed over while asleep.
func TestExploreFutexCarriesTheMessage(t *testing.T) {
	explore.Check(t, "park/futex", explore.Options{Preemptions: 3}, func() { futexCarries(2, 0) })
}

// A timed park: the timeout may fire (early, at any decision) before,
// during or after the Unpark, and the owner takes its announcement back
// with a CAS that may find the token instead.
func TestExploreFutexTimedCarriesTheMessage(t *testing.T) {
	explore.Check(t, "park/futex-timed", explore.Options{Preemptions: 3}, func() { futexCarries(1, time.Millisecond) })
}
