//go:build explore

package scenarios

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/deque"
)

// stealAll steals from d until it reports Empty, retrying on Retry (a lost
// race means another consumer took the element; the next try looks
// again).
func stealAll(name string, l *ledger, d *deque.Deque[item], tries int) *explore.Thread {
	return explore.Go(name, func() {
		for range tries {
			v, res := d.Steal()
			switch res {
			case deque.Success:
				l.take(name, v)
			case deque.Empty:
				return
			}
		}
	})
}

// The owner pushes and pops at the bottom while a thief steals at the
// top, across the last element (the one case where the owner settles with
// a CAS) and across a growth of the ring (capacity 2, four elements).
func TestExploreDequePushPopSteal(t *testing.T) {
	explore.Check(t, "deque/push-pop-steal", explore.Options{}, func() {
		l := newLedger()
		d, err := deque.New[item](2)
		if err != nil {
			explore.Failf("New: %v", err)
		}
		its := items(4)
		d.Push(its[0])
		th := stealAll("thief", l, d, 3)
		d.Push(its[1])
		d.Push(its[2]) // grows the ring while the thief may read the old one
		if v, ok := d.Pop(); ok {
			l.take("owner", v)
		}
		d.Push(its[3])
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		th.Join()
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		l.exactlyOnce(4)
	})
}

// Two thieves and the owner race for the last elements.
func TestExploreDequeTwoThieves(t *testing.T) {
	explore.Check(t, "deque/two-thieves", explore.Options{}, func() {
		l := newLedger()
		d, _ := deque.New[item](4)
		its := items(3)
		for _, it := range its {
			d.Push(it)
		}
		// The thieves are identical (their names only label the
		// ledger's messages): the search runs one of each pair of
		// twins (explore.Symmetric).
		a, b := stealAll("thief A", l, d, 3), stealAll("thief B", l, d, 3)
		explore.Symmetric(a, b)
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		explore.JoinAll(a, b)
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		l.exactlyOnce(3)
	})
}

// The owner and a thief race for the last element, then the owner pushes
// and pops again. Whoever wins the race, the deque must be left whole: an
// owner that lost the CAS and returned without restoring bottom would
// leave bottom one below top, and its next push would land where neither
// it nor a thief looks (the element lost).
//
// For the owner to lose, the thief reads top and bottom before the owner
// reserves the last index, and its CAS lands between the owner's load of
// top and its CAS: three switches. The owner waits for the thief to start,
// so the first switch is free and the owner's loss is within two
// preemptions.
func TestExploreDequeLastElementRaceThenPush(t *testing.T) {
	explore.Check(t, "deque/last-race-then-push", explore.Options{}, func() {
		l := newLedger()
		d, _ := deque.New[item](2)
		its := items(2)
		d.Push(its[0])
		var started explore.Event
		th := explore.Go("thief", func() {
			started.Set()
			if v, res := d.Steal(); res == deque.Success {
				l.take("thief", v)
			}
		})
		started.Wait()
		if v, ok := d.Pop(); ok {
			l.take("owner", v)
		}
		th.Join()
		d.Push(its[1])
		v, ok := d.Pop()
		explore.Assert(ok, "Pop after the race and a push found the deque empty: the pushed element is lost")
		if ok {
			l.take("owner", v)
		}
		l.exactlyOnce(2)
	})
}

// A zero Deque (its ring made at the first Push, firstRing) shared with a
// thief that steals and looks at it as an observer does: Len is never
// negative nor more than was pushed, Capacity a power of two at least
// DefaultCapacity, and every element taken exactly once. The weak layer
// runs it too: a thief's Len and Capacity read top, bottom and the ring
// pointer with acquire.
func TestExploreDequeZeroValueObserved(t *testing.T) {
	explore.Check(t, "deque/zero-value-observed", explore.Options{}, func() {
		l := newLedger()
		var d deque.Deque[item]
		its := items(2)
		d.Push(its[0])
		th := explore.Go("thief", func() {
			for range 2 {
				if n := d.Len(); n < 0 || n > 2 {
					explore.Failf("Len = %d with at most 2 pushed", n)
				}
				if c := d.Capacity(); c < deque.DefaultCapacity || c&(c-1) != 0 {
					explore.Failf("Capacity = %d, want a power of two of at least %d", c, deque.DefaultCapacity)
				}
				if v, res := d.Steal(); res == deque.Success {
					l.take("thief", v)
				}
			}
		})
		d.Push(its[1])
		if v, ok := d.Pop(); ok {
			l.take("owner", v)
		}
		th.Join()
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		l.exactlyOnce(2)
	})
}
