//go:build explore

package scenarios

import (
	"fmt"
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/internal/engine"
	"github.com/wsched/wsched/impl/queue"
)

// The ring scenarios run impl/queue's Ring (4 slots under the explore tag)
// with its owner on the main goroutine and thieves on others, after Tokio's
// loom tests of its local queue. The overflow queue is a real Global.

// drainGlobal takes everything left in g, and checks that the drained
// queue keeps no task reachable.
func drainGlobal(l *ledger, g *queue.Global[item]) {
	buf := make([]*item, 8)
	for n := g.PopBatch(buf); n > 0; n = g.PopBatch(buf) {
		for _, it := range buf[:n] {
			l.take("global", it)
		}
	}
	if s := g.Inspect(); s.Len != 0 || s.Held != 0 {
		explore.Failf("drained global queue: %d queued, %d entries still point at tasks", s.Len, s.Held)
	}
}

// drainRing pops everything left in r (its owner's goroutine only). A
// thief may still be copying a batch it claimed, so only the real head is
// at the tail; the claimed slots [steal, real) are the only ones that may
// still point at tasks.
func drainRing(l *ledger, who string, r *queue.Ring[item]) {
	for it := r.Pop(); it != nil; it = r.Pop() {
		l.take(who, it)
	}
	if s := r.Inspect(); s.Real != s.Tail || s.Held > int(s.Real-s.Steal) {
		explore.Failf("drained ring of %s: positions [%d|%d] tail %d, %d slots still point at tasks", who, s.Steal, s.Real, s.Tail, s.Held)
	}
}

// quiet checks, once every goroutine that used them has finished, that the
// rings are empty, with no steal in flight, and keep no task reachable.
func quiet(rings ...*queue.Ring[item]) {
	for i, r := range rings {
		if s := r.Inspect(); s.Held != 0 || s.Steal != s.Real || s.Real != s.Tail {
			explore.Failf("ring %d at rest: positions [%d|%d] tail %d, %d slots still point at tasks", i, s.Steal, s.Real, s.Tail, s.Held)
		}
	}
}

// thief steals from victim into a ring of its own, rounds times, draining
// its ring after each steal.
func thief(name string, l *ledger, victim *queue.Ring[item], rounds int) *explore.Thread {
	return explore.Go(name, func() {
		mine := queue.NewRing[item]()
		for range rounds {
			first, _ := victim.StealInto(mine)
			l.take(name, first)
			drainRing(l, name, mine)
		}
		quiet(mine) // nobody steals from a thief's ring
	})
}

// The owner pushes and pops in two rounds while a thief steals three
// times; six items, each taken once (Tokio's loom "basic").
func TestExploreRingBasic(t *testing.T) {
	explore.Check(t, "ring/basic", explore.Options{MaxSchedules: 200_000}, func() {
		l, g, r := newLedger(), queue.NewGlobal[item](), queue.NewRing[item]()
		viewRing("ring", r)
		viewGlobal(g)
		its := items(6)
		th := thief("thief", l, r, 3)
		next := 0
		push := func() { r.Push(its[next], g); next++ }
		for range 2 {
			push()
			push()
			l.take("owner", r.Pop())
			push()
			drainRing(l, "owner", r)
		}
		th.Join()
		drainRing(l, "owner", r)
		quiet(r)
		drainGlobal(l, g)
		l.exactlyOnce(6)
	})
}

// The owner overflows half of a full ring to the global queue while a
// thief steals (Tokio's "steal_overflow"): six pushes into four slots.
func TestExploreRingStealDuringOverflow(t *testing.T) {
	explore.Check(t, "ring/steal-overflow", explore.Options{}, func() {
		l, g, r := newLedger(), queue.NewGlobal[item](), queue.NewRing[item]()
		viewRing("ring", r)
		viewGlobal(g)
		its := items(7)
		th := thief("thief", l, r, 1)
		r.Push(its[0], g)
		l.take("owner", r.Pop())
		for _, it := range its[1:] {
			r.Push(it, g)
		}
		th.Join()
		drainRing(l, "owner", r)
		quiet(r)
		drainGlobal(l, g)
		l.exactlyOnce(7)
	})
}

// Two thieves and the owner take from one ring: a steal in flight makes
// the other thief's steal back off, and the owner's pops move only the
// real head (Tokio's "multi_stealer").
func TestExploreRingTwoThieves(t *testing.T) {
	explore.Check(t, "ring/two-thieves", explore.Options{}, func() {
		l, g, r := newLedger(), queue.NewGlobal[item](), queue.NewRing[item]()
		viewRing("ring", r)
		viewGlobal(g)
		its := items(5)
		for _, it := range its {
			r.Push(it, g)
		}
		// Identical thieves (names label messages only; each owns a
		// ring nobody else touches): explore.Symmetric.
		a, b := thief("thief A", l, r, 1), thief("thief B", l, r, 1)
		explore.Symmetric(a, b)
		// The owner's Len counts what a consumer can still take: tail
		// minus the real head, not the steal head, even while a steal
		// is in flight. Thieves only move the real head up, so Len lies
		// between the distances before and after the call. In the
		// weak-memory mode only the lower bound holds: the owner's
		// acquire load of head may read an older store than the latest
		// (a steal it has not yet seen), so its Len may count tasks
		// already stolen, but never fewer than are there.
		for range 3 {
			before := r.Inspect()
			n := r.Len()
			after := r.Inspect()
			if !engine.Weak() && n > int(before.Tail-before.Real) || n < int(after.Tail-after.Real) {
				explore.Failf("owner's Len = %d, but tail - real went from %d to %d during the call (steal head %d)",
					n, before.Tail-before.Real, after.Tail-after.Real, before.Steal)
			}
		}
		drainRing(l, "owner", r)
		explore.JoinAll(a, b)
		quiet(r)
		drainGlobal(l, g)
		l.exactlyOnce(5)
	})
}

// A thief steals from ring 1 while its owner drains it and then steals
// from ring 2 into ring 1: a ring is a victim and a destination at once
// (Tokio's "chained_steal").
func TestExploreRingChainedSteal(t *testing.T) {
	explore.Check(t, "ring/chained-steal", explore.Options{}, func() {
		l, g := newLedger(), queue.NewGlobal[item]()
		r1, r2 := queue.NewRing[item](), queue.NewRing[item]()
		viewRing("r1", r1)
		viewRing("r2", r2)
		its := items(6)
		for i := range 3 {
			r1.Push(its[2*i], g)
			r2.Push(its[2*i+1], g)
		}
		th := thief("thief", l, r1, 1)
		for it := r1.Pop(); it != nil; it = r1.Pop() {
			l.take("owner 1", it)
		}
		first, _ := r2.StealInto(r1)
		l.take("owner 1", first)
		th.Join()
		drainRing(l, "owner 1", r1)
		drainRing(l, "owner 2", r2)
		quiet(r1, r2)
		drainGlobal(l, g)
		l.exactlyOnce(6)
	})
}

// The global queue: one goroutine pushes singly, another in a batch, a
// third pops batches, and every item comes out once, each producer's in
// order.
func TestExploreGlobalQueue(t *testing.T) {
	explore.Check(t, "global/push-batch-pop", explore.Options{}, func() {
		l, g := newLedger(), queue.NewGlobal[item]()
		its := items(4)
		a := explore.Go("pusher", func() { g.Push(its[0]); g.Push(its[1]) })
		b := explore.Go("batcher", func() { g.PushBatch(its[2:4]) })
		last := map[int]int{0: -1, 2: -1} // the newest id seen from each producer
		buf := make([]*item, 2)
		for range 3 {
			n := g.PopBatch(buf)
			for _, it := range buf[:n] {
				l.take("popper", it)
				p := it.id &^ 1
				if it.id <= last[p] {
					explore.Failf("item %d came out after %d from the same producer", it.id, last[p])
				}
				last[p] = it.id
			}
		}
		a.Join()
		b.Join()
		drainGlobal(l, g)
		l.exactlyOnce(4)
		if g.Len() != 0 {
			explore.Failf("Len = %d after draining", g.Len())
		}
	})
}

// A thief whose own ring is full must refuse a steal it has no room for,
// while the victim's owner pops and its own ring's thief steals from it
// (making room, or not yet): a refused steal loses nothing, an accepted
// one overwrites nothing.
func TestExploreRingStealIntoFullDestination(t *testing.T) {
	explore.Check(t, "ring/steal-into-full", explore.Options{}, func() {
		l, g := newLedger(), queue.NewGlobal[item]()
		victim, mine := queue.NewRing[item](), queue.NewRing[item]()
		viewRing("victim", victim)
		viewRing("mine", mine)
		its := items(8)
		for _, it := range its[:queue.Capacity] {
			victim.Push(it, g)
		}
		for _, it := range its[queue.Capacity : 2*queue.Capacity] {
			mine.Push(it, g) // full
		}
		th := thief("thief of mine", l, mine, 1)
		o := explore.Go("victim owner", func() { l.take("victim owner", victim.Pop()) })
		first, _ := victim.StealInto(mine)
		l.take("main", first)
		o.Join()
		th.Join()
		drainRing(l, "main", mine)
		drainRing(l, "victim owner", victim)
		quiet(mine, victim)
		drainGlobal(l, g)
		l.exactlyOnce(2 * queue.Capacity)
	})
}

// A thief takes the oldest half rounded up: from an idle ring of one task
// it takes that task, from one of three it takes two.
func TestExploreRingStealTakesHalfRoundedUp(t *testing.T) {
	explore.Check(t, "ring/steal-half-rounded-up", explore.Options{}, func() {
		l, g, r := newLedger(), queue.NewGlobal[item](), queue.NewRing[item]()
		viewRing("ring", r)
		viewGlobal(g)
		its := items(4)
		steal := func(name string, want int) {
			explore.Go(name, func() {
				mine := queue.NewRing[item]()
				first, n := r.StealInto(mine)
				if n != want {
					explore.Failf("%s: a steal from an idle ring took %d tasks, want %d", name, n, want)
				}
				l.take(name, first)
				drainRing(l, name, mine)
			}).Join()
		}
		r.Push(its[0], g)
		steal("thief 1", 1)
		for _, it := range its[1:] {
			r.Push(it, g)
		}
		steal("thief 2", 2)
		drainRing(l, "owner", r)
		quiet(r)
		l.exactlyOnce(4)
	})
}

// A batch is pushed under one lock: a PopBatch running beside it sees all
// of it or none.
func TestExploreGlobalBatchIsAtomic(t *testing.T) {
	explore.Check(t, "global/batch-atomic", explore.Options{}, func() {
		l, g := newLedger(), queue.NewGlobal[item]()
		its := items(3)
		b := explore.Go("batcher", func() { g.PushBatch(its) })
		buf := make([]*item, 8)
		n := g.PopBatch(buf)
		if n != 0 && n != 3 {
			explore.Failf("PopBatch beside a PushBatch of 3 took %d of them", n)
		}
		for _, it := range buf[:n] {
			l.take("popper", it)
		}
		b.Join()
		drainGlobal(l, g)
		l.exactlyOnce(3)
	})
}

// viewRing shows r's head, tail and occupied slots with every step of a
// counterexample's page (explore.View; nothing outside a traced run), and
// names the ring's locations by it (explore.Object: "r2.tail").
func viewRing(name string, r *queue.Ring[item]) {
	explore.Object(name, r)
	explore.View(name, func() string {
		s := r.Inspect()
		return fmt.Sprintf("head [%d|%d] (steal|real), tail %d, %d slot(s) holding a task", s.Steal, s.Real, s.Tail, s.Held)
	})
}

// viewGlobal shows the global queue's length.
func viewGlobal(g *queue.Global[item]) {
	explore.View("global", func() string { return fmt.Sprintf("%d queued", g.Inspect().Len) })
}
