package explore

import (
	"unsafe"

	"github.com/wsched/wsched/explore/internal/engine"
)

// The instrumented values of this package's tests: what
// explore/atomic is to the scenarios of impl/, in a few lines, so
// that Check has something to explore.

// toyInt is a shared integer whose every operation is a scheduling point.
type toyInt struct{ v int }

func (x *toyInt) Load() int {
	engine.Point()
	return x.v
}

func (x *toyInt) Store(v int) {
	engine.Point()
	x.v = v
}

func (x *toyInt) Add(d int) int {
	engine.Point()
	x.v += d
	return x.v
}

// tloc is an integer of the weak-memory mode.
type tloc struct{ v int }

func (x *tloc) at() uintptr { return uintptr(unsafe.Pointer(x)) }

func (x *tloc) load(o engine.Ordering) int {
	engine.PointAt(x.at(), false)
	if engine.Weak() {
		return engine.WeakLoad(x.at(), o, x.v).(int)
	}
	return x.v
}

func (x *tloc) store(v int, o engine.Ordering) {
	engine.PointAt(x.at(), true)
	if !engine.Weak() || engine.WeakStore(x.at(), o, x.v, v) {
		x.v = v
	}
}

// messagePassing publishes data through flag with the orderings given;
// the reader fails if it sees the flag and not the data.
func messagePassing(st, ld engine.Ordering) func() {
	return func() {
		var data, flag tloc
		w := Go("writer", func() {
			data.store(1, engine.Relaxed)
			flag.store(1, st)
		})
		r := Go("reader", func() {
			if flag.load(ld) == 1 {
				Assert(data.load(engine.Relaxed) == 1, "saw the flag but not the data")
			}
		})
		w.Join()
		r.Join()
	}
}
