//go:build explore

package scenarios

import (
	"fmt"
	"sort"

	"github.com/wsched/wsched/explore"
)

// item is a task in the queue scenarios: an id and nothing else.
type item struct{ id int }

// ledger counts how often each item was taken. Every goroutine of a
// scenario runs one at a time, so plain fields are safe.
type ledger struct {
	taken map[int]int
	by    map[int][]string
}

func newLedger() *ledger { return &ledger{taken: map[int]int{}, by: map[int][]string{}} }

// take records that who took it; a second take fails the schedule at once.
func (l *ledger) take(who string, it *item) {
	if it == nil {
		return
	}
	l.taken[it.id]++
	l.by[it.id] = append(l.by[it.id], who)
	if l.taken[it.id] > 1 {
		explore.Failf("item %d taken twice, by %v", it.id, l.by[it.id])
	}
}

// exactlyOnce fails the schedule unless items 0..n-1 were each taken once.
func (l *ledger) exactlyOnce(n int) {
	var lost []int
	for i := range n {
		if l.taken[i] != 1 {
			lost = append(lost, i)
		}
	}
	if len(lost) > 0 {
		sort.Ints(lost)
		explore.Failf("items never taken: %v (taken: %s)", lost, l)
	}
	if len(l.taken) != n {
		explore.Failf("%d distinct items taken, %d pushed", len(l.taken), n)
	}
}

func (l *ledger) String() string {
	ids := make([]int, 0, len(l.taken))
	for id := range l.taken {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	s := ""
	for _, id := range ids {
		s += fmt.Sprintf("%d:%v ", id, l.by[id])
	}
	return s
}

// items makes n items numbered from 0.
func items(n int) []*item {
	its := make([]*item, n)
	for i := range its {
		its[i] = &item{id: i}
	}
	return its
}
