//go:build !explore

package goid

// Current returns the calling goroutine's number.
func Current() int64 { return fromStack() }
