// Package order defines the C11 memory orderings, once, for every part of
// the explorer: the ordered atomics name them in their methods
// (explore/atomic, which re-exports them), the weak-memory model runs each
// operation as strong as its ordering (explore/internal/weak), and the
// model's RC11 oracle judges executions by them (explore/internal/weak/rc11).
//
// Consume is left out: no compiler implements it other than as Acquire.
// What each ordering promises is written on the public names, in
// explore/atomic.
package order

// Ordering is a C11 memory ordering.
type Ordering uint8

// The orderings, weakest first (Acquire and Release are incomparable). The
// zero value is Relaxed.
const (
	Relaxed Ordering = iota
	Acquire
	Release
	AcqRel
	SeqCst
)

var names = [...]string{Relaxed: "Relaxed", Acquire: "Acquire", Release: "Release", AcqRel: "AcqRel", SeqCst: "SeqCst"}

func (o Ordering) String() string {
	if int(o) < len(names) {
		return names[o]
	}
	return "Ordering(invalid)"
}

// Acquires reports whether a read with ordering o takes the view its store
// carries (an acquire read).
func (o Ordering) Acquires() bool { return o == Acquire || o == AcqRel || o == SeqCst }

// Releases reports whether a write with ordering o attaches the writer's
// own view to its store (a release write).
func (o Ordering) Releases() bool { return o == Release || o == AcqRel || o == SeqCst }
