package sync

import "time"

// TokenWait is the waiting side of a token channel: a channel of one slot
// whose value is a wake-up token, filled by a waker (a send that never
// blocks: a full slot already holds the token) and drained by the one
// goroutine that waits on it. The channel parker (impl/park) and the
// fork-join pool's sleeping workers (impl/forkjoin) wait this way.
//
// The zero TokenWait is ready to use. Its timer, made by the first timed
// wait, is reused by later ones, so that a timed wait allocates nothing
// after the first. Only the waiting goroutine may use it.
type TokenWait struct {
	timer *time.Timer
}

// wait is Wait outside the explorer: a receive, with a timer when there is
// a timeout, and a receive without one when a token is already there.
func (w *TokenWait) wait(token chan struct{}, timeout time.Duration) bool {
	if timeout <= 0 {
		<-token
		return true
	}
	select {
	case <-token:
		return true
	default:
	}
	if w.timer == nil {
		w.timer = time.NewTimer(timeout)
	} else {
		// Since Go 1.23 Reset on a stopped or fired timer discards any
		// value left in its channel, so the select below cannot see a
		// stale expiry.
		w.timer.Reset(timeout)
	}
	select {
	case <-token:
		w.timer.Stop()
		return true
	case <-w.timer.C:
		return false
	}
}
