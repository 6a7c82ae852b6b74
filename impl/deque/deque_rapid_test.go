package deque

import (
	"testing"

	"github.com/wsched/wsched/model"
	"pgregory.net/rapid"
)

// TestDequeMatchesModel drives the deque with random sequential Push, Pop and
// Steal calls from one goroutine (so Steal can never lose a race) and
// compares every result, the length and the element order with model.Deque.
// Small starting capacities make the ring grow and wrap around often.
func TestDequeMatchesModel(t *testing.T) {
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
					t.Fatalf("Pop = %v %v, model %d %v", deref(got), ok, want, wantOK)
				}
			},
			"steal": func(t *rapid.T) {
				got, res := d.Steal()
				var want int
				var wantOK bool
				m, want, wantOK = m.Steal()
				switch {
				case res == Retry:
					t.Fatalf("Steal = Retry with no concurrent caller")
				case (res == Success) != wantOK || (wantOK && *got != want):
					t.Fatalf("Steal = %v %v, model %d %v", deref(got), res, want, wantOK)
				}
			},
			"": func(t *rapid.T) {
				if d.Len() != m.Len() {
					t.Fatalf("Len = %d, model %d", d.Len(), m.Len())
				}
				if d.Capacity() != wantCap {
					t.Fatalf("Capacity = %d, want %d", d.Capacity(), wantCap)
				}
				// The ring holds exactly the model's items at [top, bottom).
				top, bottom := d.top.LoadRelaxed(), d.bottom.LoadRelaxed()
				r := d.buf.LoadRelaxed()
				items := m.Items()
				for i := top; i < bottom; i++ {
					if p := r.get(i); p == nil || *p != items[i-top] {
						t.Fatalf("slot of index %d = %v, model %v", i, deref(p), m)
					}
				}
			},
		})
	})
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestNewRejectsBadCapacity(t *testing.T) {
	for _, c := range []int{-1, 3, 6, 100} {
		if _, err := New[int](c); err != ErrCapacity {
			t.Errorf("New(%d) error = %v, want ErrCapacity", c, err)
		}
	}
	d, err := New[int](0)
	if err != nil || d.Capacity() != DefaultCapacity {
		t.Errorf("New(0) = capacity %v, %v", d.Capacity(), err)
	}
}

// TestStolenSlotsAreCleared checks that the ring does not keep elements that
// were taken: popped slots are cleared at once, stolen ones at the owner's
// next Push.
func TestStolenSlotsAreCleared(t *testing.T) {
	d, _ := New[int](8)
	vals := make([]int, 6)
	for i := range vals {
		d.Push(&vals[i])
	}
	for range 3 {
		if _, res := d.Steal(); res != Success {
			t.Fatal(res)
		}
	}
	if _, ok := d.Pop(); !ok {
		t.Fatal("Pop failed")
	}
	extra := 0
	d.Push(&extra)
	r := d.buf.LoadRelaxed()
	for i := range r.slots {
		idx := int64(i)
		live := idx >= d.top.LoadRelaxed() && idx < d.bottom.LoadRelaxed()
		if p := r.slots[i].LoadRelaxed(); (p != nil) != live {
			t.Errorf("slot %d holds %v, live=%v", i, p, live)
		}
	}
}
