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
		a, b := stealAll("thief A", l, d, 3), stealAll("thief B", l, d, 3)
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		a.Join()
		b.Join()
		for v, ok := d.Pop(); ok; v, ok = d.Pop() {
			l.take("owner", v)
		}
		l.exactlyOnce(3)
	})
}
