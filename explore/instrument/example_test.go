package instrument_test

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/wsched/wsched/explore"
	"github.com/wsched/wsched/explore/instrument"
)

// counter is a shared counter whose every operation is a scheduling point.
type counter struct{ v atomic.Int64 }

func (c *counter) addr() uintptr { return uintptr(unsafe.Pointer(&c.v)) }

func (c *counter) Load() int64 {
	instrument.PointAt(c.addr(), false)
	v := c.v.Load()
	if instrument.Tracing() {
		instrument.Note("Load", v)
	}
	return v
}

func (c *counter) Store(v int64) {
	instrument.PointAt(c.addr(), true)
	c.v.Store(v)
	if instrument.Tracing() {
		instrument.Note("Store", v)
	}
}

// Two goroutines increment a counter with a load and a store: the
// explorer finds the schedule that loses one increment, and its trace
// shows the values each operation noted.
func Example() {
	res := explore.Explore(explore.Options{}, func() {
		var c counter
		inc := func() { c.Store(c.Load() + 1) }
		a, b := explore.Go("A", inc), explore.Go("B", inc)
		a.Join()
		b.Join()
		explore.Assert(c.Load() == 2, "counter = %d after two increments", c.Load())
	})
	fmt.Println(res.Failure.Kind+":", res.Failure.Message)
	// Output: assertion: counter = 1 after two increments
}
