package deque

import (
	"testing"

	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// TestSpecMatchesModel runs random sequential operations against the
// lock-based deque and model.Deque and compares every result.
func TestSpecMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		capacity := rapid.SampledFrom([]int{1, 2, 4, 8}).Draw(t, "capacity")
		d, err := New[int](capacity)
		if err != nil {
			t.Fatal(err)
		}
		m := model.NewDeque()
		next := 0
		wantCap := capacity
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				v := next
				next++
				if m.Len() == wantCap {
					wantCap *= 2
				}
				d.Push(&v)
				m = m.Push(v)
			},
			"pop": func(t *rapid.T) {
				got, ok := d.Pop()
				var want int
				var wantOK bool
				m, want, wantOK = m.Pop()
				if ok != wantOK || (ok && *got != want) {
					t.Fatalf("Pop = %v %v, model %d %v", got, ok, want, wantOK)
				}
			},
			"steal": func(t *rapid.T) {
				got, res := d.Steal()
				var want int
				var wantOK bool
				m, want, wantOK = m.Steal()
				if res == Retry || (res == Success) != wantOK || (wantOK && *got != want) {
					t.Fatalf("Steal = %v %v, model %d %v", got, res, want, wantOK)
				}
			},
			"": func(t *rapid.T) {
				if d.Len() != m.Len() || d.Capacity() != wantCap {
					t.Fatalf("Len %d Capacity %d, model %d %d", d.Len(), d.Capacity(), m.Len(), wantCap)
				}
			},
		})
	})
}

func TestNewRejectsBadCapacity(t *testing.T) {
	for _, c := range []int{-1, 3, 6} {
		if _, err := New[int](c); err != ErrCapacity {
			t.Errorf("New(%d) error = %v", c, err)
		}
	}
}
