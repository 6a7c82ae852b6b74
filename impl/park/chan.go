package park

import (
	"time"

	"github.com/wsched/wsched/impl/internal/owner"
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
	// owner catches two goroutines in Park at once in a race-detector
	// build (empty otherwise: impl/internal/owner).
	owner owner.Guard
}

// zeroChan is the panic of a zero Chan, whose Park would block for ever
// (a receive from a nil channel) and whose Unpark would do nothing.
const zeroChan = "park: zero Chan (its token channel is nil): make one with NewChan"

// NewChan returns a Chan with no token.
func NewChan() *Chan {
	return &Chan{token: make(chan struct{}, 1)}
}

// Park implements Parker.
//
// Under the explorer (the explore build tag) this code runs as it is,
// behind one controlled wait: waitControlled blocks until a token is in the
// slot or the explorer's virtual timeout passes, and only then does the
// code below run, finding the token (no timer is armed). A wait is then
// the first thing a parking goroutine does, so one that starts by parking
// (the monitor) is simply asleep, not a runnable goroutine the explorer
// must interleave with everything until it has slept.
func (p *Chan) Park(timeout time.Duration) bool {
	if p.token == nil {
		panic(zeroChan)
	}
	p.owner.Enter(twoParkers) // left at each return (no defer: it costs the fast path)
	if sync.Controlled() && !p.waitControlled(timeout) {
		p.owner.Exit()
		return false
	}
	if timeout <= 0 {
		<-p.token
		p.owner.Exit()
		return true
	}
	// Fast path: a token is already there, no timer needed.
	select {
	case <-p.token:
		p.owner.Exit()
		return true
	default:
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
		p.owner.Exit()
		return true
	case <-p.timer.C:
		p.owner.Exit()
		return false
	}
}

// waitControlled is the explorer's wait for the token (explore build tag
// only): it returns once a token is in the slot, or false when timeout
// (virtual time; <= 0: none) passed first. Park then takes the token with
// its own receive; only the owner takes tokens, so it is still there.
func (p *Chan) waitControlled(timeout time.Duration) bool {
	return sync.Block(func() bool { return len(p.token) > 0 }, timeout, "parker token")
}

// Unpark implements Parker. It never blocks: when the slot is already full
// the token is there and the owner will see it.
func (p *Chan) Unpark() {
	if p.token == nil {
		panic(zeroChan)
	}
	sync.Point() // the send below is an operation on shared state
	select {
	case p.token <- struct{}{}:
	default:
	}
}
