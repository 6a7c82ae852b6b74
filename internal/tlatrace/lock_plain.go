//go:build tlatrace && !explore

package tlatrace

import "sync"

// mu orders the logged actions of all goroutines (doc.go).
var mu sync.Mutex

func lock()   { mu.Lock() }
func unlock() { mu.Unlock() }
