//go:build race

package raceedge

import (
	"runtime"
	"unsafe"

	"github.com/wsched/wsched/internal/edgeoff"
)

// Release starts the edge at p: a later Acquire(p) happens after this
// call. It replaces what earlier calls on p published.
func Release(p unsafe.Pointer) {
	if !edgeoff.Off() {
		runtime.RaceRelease(p)
	}
}

// ReleaseMerge adds this call to the edge at p, keeping what earlier
// calls on p published.
func ReleaseMerge(p unsafe.Pointer) {
	if !edgeoff.Off() {
		runtime.RaceReleaseMerge(p)
	}
}

// Acquire ends the edge at p: this call happens after every release of p
// before it.
func Acquire(p unsafe.Pointer) {
	if !edgeoff.Off() {
		runtime.RaceAcquire(p)
	}
}
