//go:build !explore

package treiber_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/wsched/wsched/examples/treiber"
)

// In a plain build (this file is not built with the explore tag) the
// stack is an ordinary lock-free stack: four goroutines push and pop at
// once, and every value comes out exactly once (go test -race checks the
// Cells' accesses against the orderings).
func TestStackConcurrent(t *testing.T) {
	var s treiber.Stack[int]
	const workers, each = 4, 1000
	got := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s.Push(w*each + i)
				if v, ok := s.Pop(); ok {
					got[w] = append(got[w], v)
				}
			}
		}()
	}
	wg.Wait()
	all := slices.Concat(got...)
	for {
		v, ok := s.Pop()
		if !ok {
			break
		}
		all = append(all, v)
	}
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("value %d at position %d of the sorted pops: lost or duplicated", v, i)
		}
	}
	if len(all) != workers*each {
		t.Fatalf("%d values popped, want %d", len(all), workers*each)
	}
}
