//go:build explore

package park_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/impl/park"
)

// The channel parker's Unpark puts a token into a one-slot channel: a send
// if the slot is empty, nothing if it is full, nothing returned. Two
// Unparks commute, and the reduced search names them so
// (sync.PointOnToken: a read of the channel's location, which the owner's
// take writes). Alone, two Unparks are one class: the reduced search
// without a bound (one schedule per class) runs one schedule, where an
// Unpark named as a send (a write) made it two.
func TestExploreChanUnparksCommute(t *testing.T) {
	res := explore.Check(t, "park/chan-unparks-commute", explore.Options{Reduce: true, Unbounded: true}, func() {
		p := park.NewChan()
		var x, y atomic.Int32 // one per unparker: stores that commute too
		a := explore.Go("unparker 1", func() {
			x.StoreRelaxed(1)
			p.Unpark()
		})
		b := explore.Go("unparker 2", func() {
			y.StoreRelaxed(1)
			p.Unpark()
		})
		a.Join()
		b.Join()
		if x.LoadRelaxed() != 1 || y.LoadRelaxed() != 1 {
			explore.Failf("a store before an Unpark is not visible after its Join")
		}
		if !p.Park(time.Millisecond) {
			explore.Failf("two Unparks left no token")
		}
		if p.Park(time.Millisecond) {
			explore.Failf("two Unparks left two tokens")
		}
	})
	if !res.Exhaustive || res.Schedules != 1 {
		t.Fatalf("two Unparks alone: %d schedules (exhaustive %v), want 1: the reduced search orders two puts of a token", res.Schedules, res.Exhaustive)
	}
}

// Two Unparks race a timed Park and the owner's second look: every
// outcome of the plain search (whether each Park took a token, and which
// unparker's store the owner saw after the first) is an outcome of the
// reduced one, and the reduced search reaches every trace of the plain one
// (CompareClasses). A put named as a read must still be ordered against the
// take and against the take's timeout firing.
func TestExploreChanUnparksRaceATimedPark(t *testing.T) {
	outcomes := func(name string, opt explore.Options) map[string]bool {
		seen := map[string]bool{}
		res := explore.Check(t, name, opt, func() {
			p := park.NewChan()
			var x, y atomic.Int32
			a := explore.Go("unparker 1", func() {
				x.StoreRelease(1)
				p.Unpark()
			})
			b := explore.Go("unparker 2", func() {
				y.StoreRelease(1)
				p.Unpark()
			})
			took := p.Park(time.Millisecond)
			xs, ys := x.LoadAcquire(), y.LoadAcquire()
			if took && xs == 0 && ys == 0 {
				explore.Failf("Park took a token before either Unpark")
			}
			a.Join()
			b.Join()
			left := p.Park(time.Millisecond)
			if !took && !left {
				explore.Failf("a Park timed out and no token was left after both Unparks")
			}
			seen[fmt.Sprintf("took %v (x %d, y %d), left %v", took, xs, ys, left)] = true
		})
		if !res.Exhaustive {
			t.Fatalf("%s: not exhaustive: %+v", name, res)
		}
		return seen
	}
	plain := outcomes("park/chan-unparks-race-a-timed-park", explore.Options{})
	reduced := outcomes("park/chan-unparks-race-a-timed-park (reduced)", explore.Options{Reduce: true})
	for o := range plain {
		if !reduced[o] {
			t.Errorf("the plain search reaches %q, the reduced one does not", o)
		}
	}
	// took and left each way, and a first take after one Unpark or both.
	if len(plain) < 5 {
		t.Errorf("the plain search reaches %d outcomes, %v: the races this checks are not there", len(plain), plain)
	}
	explore.Check(t, "park/chan-unparks-race-a-timed-park (classes)", explore.Options{CompareClasses: true}, func() {
		p := park.NewChan()
		a := explore.Go("unparker 1", p.Unpark)
		b := explore.Go("unparker 2", p.Unpark)
		p.Park(time.Millisecond)
		a.Join()
		b.Join()
		p.Park(time.Millisecond)
	})
}
