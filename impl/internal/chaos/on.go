//go:build chaos

package chaos

import (
	"runtime"
	"sync/atomic"
)

// Enabled reports whether the chaos yield points are compiled in.
const Enabled = true

// state is a global xorshift state. Racing updates only make the sequence
// less regular, which is what we want here; an atomic keeps -race quiet.
var state atomic.Uint64

func init() { state.Store(0x9E3779B97F4A7C15) }

func next() uint64 {
	x := state.Load()
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	state.Store(x)
	return x
}

// Point is a yield point: one time in four it yields the processor, one time
// in four it spins for up to 64 iterations, otherwise it returns at once.
func Point() {
	r := next()
	switch r & 3 {
	case 0:
		runtime.Gosched()
	case 1:
		for i := uint64(0); i < (r>>2)&63; i++ {
			spinSink.Add(1)
		}
	}
}

var spinSink atomic.Uint64
