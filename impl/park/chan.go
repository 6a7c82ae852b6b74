package park

import (
	"time"

	"github.com/wsched/wsched/explore/sync"
	"github.com/wsched/wsched/internal/goid"
)

// Chan is a Parker built on a one-slot buffered channel. The slot is the
// token: Unpark fills it if it is empty, Park drains it.
//
// The channel operations give the race detector (and any port) the
// happens-before edge from Unpark to the Park that consumes its token: a
// buffered send happens before the receive that takes the value.
type Chan struct {
	token chan struct{}
	// wait is the owner's wait for the token (explore/sync): its
	// timer, made by the first Park with a timeout, is reused by every
	// later one.
	wait sync.TokenWait
	// owner catches two goroutines in Park at once in a race-detector
	// build (empty otherwise: internal/goid).
	owner goid.Guard
}

// zeroChan is the panic of a zero Chan, whose Park would block for ever
// (a receive from a nil channel) and whose Unpark would do nothing.
const zeroChan = "park: zero Chan (its token channel is nil): make one with NewChan"

// NewChan returns a Chan with no token.
func NewChan() *Chan {
	return &Chan{token: make(chan struct{}, 1)}
}

// Park implements Parker: it takes the token, waiting for it at most
// timeout (<= 0: for ever).
//
// Under the explorer (the explore build tag) the wait is controlled
// (sync.TokenWait): the parking goroutine is blocked until a token is in
// the slot or the explorer's virtual timeout passes. A wait is then the
// first thing a parking goroutine does, so one that starts by parking (the
// monitor) is simply asleep, not a runnable goroutine the explorer must
// interleave with everything until it has slept.
func (p *Chan) Park(timeout time.Duration) bool {
	if p.token == nil {
		panic(zeroChan)
	}
	p.owner.Enter(twoParkers)
	took := p.wait.Wait(p.token, timeout, "parker token")
	p.owner.Exit()
	return took
}

// Unpark implements Parker. It never blocks: when the slot is already full
// the token is there and the owner will see it.
func (p *Chan) Unpark() {
	if p.token == nil {
		panic(zeroChan)
	}
	sync.PointOn(p.token) // the send below is an operation on shared state
	select {
	case p.token <- struct{}{}:
	default:
	}
}
