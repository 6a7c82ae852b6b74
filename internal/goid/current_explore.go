//go:build explore

package goid

import "github.com/wsched/wsched/internal/explorer"

// Current returns the calling goroutine's number: the explorer's name for
// it while a schedule runs (negative, never a runtime number), else the
// runtime's.
func Current() int64 {
	if id, ok := explorer.GoroutineID(); ok {
		return id
	}
	return fromStack()
}
