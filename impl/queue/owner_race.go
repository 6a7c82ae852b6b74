//go:build race

package queue

import "github.com/wsched/wsched/impl/internal/atomic"

// ownerGuard catches two goroutines in a ring's owner-only operations at
// once (Push, Pop, and StealInto on its destination), in a build with the
// race detector, where users run their tests: a CAS on entry and a store
// on exit, too much for the production path (owner.go has the empty
// version). Two owners would lose tasks: both write the same slot and
// store the same tail.
type ownerGuard struct{ busy atomic.StatInt32 }

func (g *ownerGuard) enter(op string) {
	// Only this check reads it; seq_cst (sync/atomic), no ordering needed.
	if !g.busy.CompareAndSwap(0, 1) {
		panic("queue: Ring." + op + " while another owner-only operation runs on the same ring: a Ring has one owner goroutine at a time (two pushers lose tasks)")
	}
}

func (g *ownerGuard) exit() { g.busy.Store(0) } // see enter
