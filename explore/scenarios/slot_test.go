//go:build explore

package scenarios

import (
	"testing"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/impl/queue"
)

// The LIFO slot (impl/queue Slot): its owner puts and takes, and a thief
// may steal the task at any moment (impl/sched lets one do so only while
// the monitor flags the owner as stuck; the flag is policy, and the slot
// must be safe whatever the flag says when the thief looked). Every task
// must come out exactly once: taken by the owner, handed back by the Put
// that displaced it, or stolen.

// slotOwner puts its items one after another, keeping what each Put
// displaces (impl/sched pushes it to the ring), then takes what is left.
func slotOwner(l *ledger, s *queue.Slot[item], its []*item) {
	for _, it := range its {
		l.take("owner (displaced)", s.Put(it))
	}
	l.take("owner (take)", s.Take())
}

// slotThief steals rounds times.
func slotThief(name string, l *ledger, s *queue.Slot[item], rounds int) *explore.Thread {
	return explore.Go(name, func() {
		for range rounds {
			l.take(name, s.Steal())
		}
	})
}

// The owner puts two tasks (the second displaces the first) and takes;
// a thief steals twice meanwhile.
func TestExploreSlotOwnerAgainstThief(t *testing.T) {
	explore.Check(t, "slot/owner-thief", explore.Options{Preemptions: 2}, func() {
		l := newLedger()
		var s queue.Slot[item]
		its := items(2)
		th := slotThief("thief", l, &s, 2)
		slotOwner(l, &s, its)
		th.Join()
		l.take("after", s.Take())
		l.exactlyOnce(len(its))
	})
}

// Two thieves against an owner that puts three tasks: steals race each
// other as well as the owner's Put and Take.
func TestExploreSlotTwoThieves(t *testing.T) {
	explore.Check(t, "slot/two-thieves", explore.Options{Preemptions: 2}, func() {
		l := newLedger()
		var s queue.Slot[item]
		its := items(3)
		a := slotThief("thief A", l, &s, 1)
		b := slotThief("thief B", l, &s, 2)
		slotOwner(l, &s, its)
		a.Join()
		b.Join()
		l.take("after", s.Take())
		l.exactlyOnce(len(its))
	})
}
