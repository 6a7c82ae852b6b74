//go:build (amd64 || arm64) && !explore

package goid

// handle returns the calling goroutine's g (handle_amd64.s, handle_arm64.s).
//
//go:noescape
func handle() uintptr
