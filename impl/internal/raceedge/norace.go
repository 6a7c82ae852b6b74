//go:build !race

package raceedge

import "unsafe"

// Release does nothing without the race detector (race.go).
func Release(unsafe.Pointer) {}

// ReleaseMerge does nothing without the race detector (race.go).
func ReleaseMerge(unsafe.Pointer) {}

// Acquire does nothing without the race detector (race.go).
func Acquire(unsafe.Pointer) {}
