package vclock

import (
	"slices"
	"testing"
)

func TestJoinIsTheLeastUpperBound(t *testing.T) {
	a, b := Clock{3, 0, 5}, Clock{1, 4, 5, 2}
	j := slices.Clone(a).Join(b)
	if want := (Clock{3, 4, 5, 2}); !slices.Equal(j, want) {
		t.Fatalf("join %v, want %v", j, want)
	}
	for g := range 6 {
		if j.At(g) < a.At(g) || j.At(g) < b.At(g) || j.At(g) != max(a.At(g), b.At(g)) {
			t.Errorf("goroutine %d: join %d of %d and %d", g, j.At(g), a.At(g), b.At(g))
		}
	}
	if j := slices.Clone(b).Join(nil); !slices.Equal(j, b) {
		t.Errorf("joining nothing changed %v to %v", b, j)
	}
}

func TestTickCountsTheGoroutinesEvents(t *testing.T) {
	var c Clock
	c, n := c.Tick(2)
	c, m := c.Tick(2)
	if n != 1 || m != 2 || c.At(2) != 2 || c.At(0) != 0 || c.At(7) != 0 || len(c) != 3 {
		t.Fatalf("after two ticks of goroutine 2: %v (events %d, %d)", c, n, m)
	}
}
