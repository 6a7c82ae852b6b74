//go:build (!amd64 && !arm64) || explore

package goid

// handle returns Current's number: a number is a valid handle, never
// reused (but it costs a stack trace). Under the explore build tag that
// is the explorer's name for the goroutine, as with Current: a g freed in
// one schedule is handed to a goroutine of the next, the explorer's names
// never are.
func handle() uintptr { return uintptr(Current()) }
