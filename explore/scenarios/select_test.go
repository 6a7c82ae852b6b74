//go:build explore

package scenarios

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/atomic"
	"github.com/wsched/wsched/explore/sync"
)

// A Select of explore/sync waits for whether its channels are closed (a
// nil one, as context.Background's Done, is never): the reduced search
// orders it against the closes it sees, a close after sync.PointOn or a
// cancel of explore.WithCancel, instead of against every step. Here a
// closer and a canceller race the Select, each after a store the waiter
// then reads, and a bystander writes a value nobody waits on. The reduced
// search must reach every Mazurkiewicz trace the plain search reaches
// (CompareClasses), and every outcome: which channel the Select returned
// and what the main goroutine then reads of the bystander's value. The classes alone would not
// show a dependency the reduced search wrongly takes for none (two
// closes, say, each on its own channel: the traces would then not tell
// their orders apart, while the Select's result does).
func TestExploreSelectOrdersItsChannels(t *testing.T) {
	outcomes := func(opt explore.Options) map[string]bool {
		seen := map[string]bool{}
		res := explore.Check(t, "sync/select", opt, func() {
			a := make(chan struct{})
			ctx, cancel := explore.WithCancel(context.Background())
			var x, y, z atomic.Int32
			ca := explore.Go("closer", func() {
				x.StoreRelease(1)
				sync.PointOn(a)
				close(a)
			})
			cc := explore.Go("canceller", func() {
				y.StoreRelease(1)
				cancel()
			})
			cz := explore.Go("bystander", func() {
				z.StoreRelease(1)
				z.StoreRelease(2)
			})
			got := sync.Select3(a, nil, ctx.Done())
			switch got {
			case 0:
				explore.Assert(x.LoadAcquire() == 1, "the Select saw a closed before the store that precedes its close")
			case 2:
				explore.Assert(y.LoadAcquire() == 1, "the Select saw the context cancelled before the store that precedes the cancel")
			default:
				explore.Failf("a Select on a nil channel returned it")
			}
			// What the main goroutine saw through the explorer's
			// operations alone (a look at a channel's state besides the
			// Select would be a read the reduced search does not order).
			seen[fmt.Sprintf("select -> %d, z = %d", got, z.LoadAcquire())] = true
			ca.Join()
			cc.Join()
			cz.Join()
		})
		if !res.Exhaustive {
			t.Fatalf("not exhaustive: %+v", res)
		}
		return seen
	}
	plain := outcomes(explore.Options{})
	reduced := outcomes(explore.Options{Reduce: true})
	for o := range plain {
		if !reduced[o] {
			t.Errorf("the plain search reaches %q, the reduced one does not", o)
		}
	}
	if len(plain) < 6 {
		t.Errorf("the plain search reaches %d outcomes, %v: the race this checks is not there", len(plain), plain)
	}
	explore.Check(t, "sync/select-classes", explore.Options{CompareClasses: true}, func() {
		a := make(chan struct{})
		ctx, cancel := explore.WithCancel(context.Background())
		ca := explore.Go("closer", func() {
			sync.PointOn(a)
			close(a)
		})
		cc := explore.Go("canceller", func() { cancel() })
		sync.Select3(a, nil, ctx.Done())
		ca.Join()
		cc.Join()
	})
}

// A context.WithCancel's cancel closes ctx.Done() where the explorer does
// not see it: a Select that finds that channel closed fails the schedule,
// naming explore.WithCancel, rather than letting the reduced search skip
// the orders in which the Select came first.
func TestExploreSelectFailsOnACloseItDidNotSee(t *testing.T) {
	res := explore.Explore(explore.Options{MaxSchedules: 100}, func() {
		ctx, cancel := context.WithCancel(context.Background())
		var y atomic.Int32
		cc := explore.Go("canceller", func() {
			y.StoreRelease(1)
			cancel()
		})
		sync.Select2(nil, ctx.Done())
		cc.Join()
	})
	if res.Failure == nil || !strings.Contains(res.Failure.Message, "explore.WithCancel") {
		t.Fatalf("a Select on a context cancelled out of the explorer's sight: failure %+v, want one naming explore.WithCancel", res.Failure)
	}
}
