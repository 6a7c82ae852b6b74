//go:build !explore

package mpmc_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/wsched/wsched/examples/mpmc"
)

// In a plain build: two producers and two consumers at once on a
// small queue; every value comes out exactly once, and each producer's
// values in the order it pushed them (go test -race checks the slots'
// cells against the orderings).
func TestQueueConcurrent(t *testing.T) {
	q := mpmc.New[int](4)
	const producers, consumers, each = 2, 2, 1000
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				for !q.Push(p*each + i) {
				}
			}
		}()
	}
	got := make([][]int, consumers)
	var cwg sync.WaitGroup
	for c := range consumers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for len(got[c]) < producers*each/consumers {
				if v, ok := q.Pop(); ok {
					got[c] = append(got[c], v)
				}
			}
		}()
	}
	wg.Wait()
	cwg.Wait()
	for c, vs := range got {
		last := []int{-1, -1}
		for _, v := range vs {
			p := v / each
			if v <= last[p] {
				t.Fatalf("consumer %d took %d after %d, both from producer %d: not FIFO", c, v, last[p], p)
			}
			last[p] = v
		}
	}
	all := slices.Concat(got...)
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("value %d at position %d of the sorted pops: lost or duplicated", v, i)
		}
	}
	if _, ok := q.Pop(); ok {
		t.Fatal("a value left over")
	}
}

func TestFullAndEmpty(t *testing.T) {
	q := mpmc.New[string](2)
	if _, ok := q.Pop(); ok {
		t.Fatal("a new queue is not empty")
	}
	if !q.Push("a") || !q.Push("b") || q.Push("c") {
		t.Fatal("a queue of 2 must take two values and refuse the third")
	}
	for _, want := range []string{"a", "b"} {
		if v, ok := q.Pop(); !ok || v != want {
			t.Fatalf("Pop = %q, %v; want %q", v, ok, want)
		}
	}
	if !q.Push("d") {
		t.Fatal("a slot freed by Pop is not reused")
	}
	if v, ok := q.Pop(); !ok || v != "d" {
		t.Fatalf("Pop = %q, %v; want d", v, ok)
	}
}
