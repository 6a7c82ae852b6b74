// Package quickstart is the quick start of docs/checking-your-own-code.md,
// compiled and tested: a value published by a flag, checked by the
// explorer in both modes.
package quickstart

import "github.com/wsched/wsched/explore/atomic"

// Box publishes one value from one goroutine to others.
type Box struct {
	val   atomic.Cell[int] // plain memory: the flag's orderings protect it
	ready atomic.Bool
}

// Put stores v and then raises the flag (Release: v is visible to whoever
// sees the flag).
func (b *Box) Put(v int) {
	b.val.Store(&v)
	b.ready.StoreRelease(true)
}

// Get returns the value, if the flag is up (Acquire: then v is visible).
func (b *Box) Get() (int, bool) {
	if !b.ready.LoadAcquire() {
		return 0, false
	}
	return *b.val.Load(), true
}
