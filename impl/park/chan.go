package park

import (
	"time"

	"github.com/wsched/wsched/impl/internal/sync"
)

// Chan is a Parker built on a one-slot buffered channel. The slot is the
// token: Unpark fills it if it is empty, Park drains it.
//
// The channel operations give the race detector (and any port) the
// happens-before edge from Unpark to the Park that consumes its token: a
// buffered send happens before the receive that takes the value.
type Chan struct {
	token chan struct{}
	// timer is created by the first Park with a timeout and reused by every
	// later one, so a timed park allocates nothing after the first. Only the
	// owner touches it.
	timer *time.Timer
}

// NewChan returns a Chan with no token.
func NewChan() *Chan {
	return &Chan{token: make(chan struct{}, 1)}
}

// Park implements Parker.
//
// Under the explorer (the explore build tag) this code runs as it is,
// except for its two blocking waits: the wait for the token becomes a wait
// the explorer controls, and the timer's place is taken by the explorer's
// virtual timeout (see waitControlled).
func (p *Chan) Park(timeout time.Duration) bool {
	if timeout <= 0 {
		if sync.Controlled() {
			p.waitControlled(0)
		}
		<-p.token
		return true
	}
	sync.Point() // the receive below is an operation on shared state
	// Fast path: a token is already there, no timer needed.
	select {
	case <-p.token:
		return true
	default:
	}
	if sync.Controlled() {
		if !p.waitControlled(timeout) {
			return false
		}
		<-p.token
		return true
	}
	if p.timer == nil {
		p.timer = time.NewTimer(timeout)
	} else {
		// Since Go 1.23 Reset on a stopped or fired timer discards any
		// value left in its channel, so the select below cannot see a
		// stale expiry.
		p.timer.Reset(timeout)
	}
	select {
	case <-p.token:
		p.timer.Stop()
		return true
	case <-p.timer.C:
		return false
	}
}

// waitControlled is the explorer's wait for the token (explore build tag
// only): it returns once a token is in the slot, or false when timeout
// (virtual time; <= 0: none) passed first. The caller then takes the
// token with its own receive.
func (p *Chan) waitControlled(timeout time.Duration) bool {
	return sync.Block(func() bool { return len(p.token) > 0 }, timeout, "parker token")
}

// Unpark implements Parker. It never blocks: when the slot is already full
// the token is there and the owner will see it.
func (p *Chan) Unpark() {
	sync.Point() // the send below is an operation on shared state
	select {
	case p.token <- struct{}{}:
	default:
	}
}
