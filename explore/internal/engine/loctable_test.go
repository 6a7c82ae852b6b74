package engine

import (
	"math/rand/v2"
	"testing"
)

// The table answers as a map emptied at each reset does (index, put and
// lookup): across growth,
// many resets, the generation's wrap-around, and keys that are aligned
// addresses, small numbers and the high named locations.
func TestLocTableIsAMapEmptiedPerRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab locTable
	for run := range 3000 {
		if run == 1500 {
			tab.gen = ^uint32(0) - 3 // a few runs from the wrap
		}
		tab.reset()
		want := map[uintptr]int32{}
		n := rng.IntN(700)
		for range n {
			var l uintptr
			switch rng.IntN(3) {
			case 0:
				l = uintptr(0xc000000000 + 8*rng.IntN(400))
			case 1:
				l = uintptr(1 + rng.IntN(64))
			default:
				l = clockLoc - uintptr(rng.IntN(4))
			}
			next := int32(len(want))
			w, had := want[l]
			if v, ok := tab.lookup(l); ok != had || ok && v != w {
				t.Fatalf("run %d: lookup(%#x) = %d, %v; want %d, %v", run, l, v, ok, w, had)
			}
			if rng.IntN(8) == 0 { // put: a new value, for a key there or not
				v := int32(rng.IntN(1000))
				tab.put(l, v)
				want[l] = v
				continue
			}
			got, added := tab.index(l, next)
			if !had {
				want[l], w = next, next
			}
			if got != w || added == had {
				t.Fatalf("run %d: index(%#x) = %d, %v; want %d, %v", run, l, got, added, w, !had)
			}
		}
		if tab.n != len(want) {
			t.Fatalf("run %d: %d entries, want %d", run, tab.n, len(want))
		}
	}
}

// values returns the values of the table's entries, in slot order.
func (t *locTable) values() []int32 {
	var out []int32
	for _, sl := range t.slots {
		if sl.gen == t.gen {
			out = append(out, sl.val)
		}
	}
	return out
}
