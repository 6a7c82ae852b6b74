//go:build !explore

package sync

import (
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// The standard library's types, by alias.
type (
	Mutex     = sync.Mutex
	Once      = sync.Once
	WaitGroup = sync.WaitGroup
)

// Controlled reports whether the calling goroutine runs under the
// explorer. Without the explore tag it is the constant false, and a branch
// on it compiles away.
func Controlled() bool { return false }

// Point is a scheduling point before an operation on shared state that is
// not an atomic or a lock (a close, a channel send). Nothing in a normal
// build.
func Point() {}

// PointOn is Point before a close of or a send on ch. Nothing in a normal
// build.
func PointOn(ch <-chan struct{}) {}

// Go starts f in a new goroutine; name and index name it in explorer
// traces ("worker", 1 is "worker 1").
func Go(name string, index int, f func()) { go f() }

// Gosched yields the processor.
func Gosched() { runtime.Gosched() }

var start = time.Now()

// Nanotime is a monotonic clock in nanoseconds (since the process
// started).
func Nanotime() int64 { return int64(time.Since(start)) }

// Seed is a seed for a random generator that should differ between runs.
func Seed() uint64 { return uint64(time.Now().UnixNano()) }

// Recv receives from a channel that is only ever closed.
func Recv(ch <-chan struct{}) { <-ch }

// Select2 waits until a or b is closed and returns 0 or 1 accordingly (if
// both are, either). Both are channels that are only ever closed.
func Select2(a, b <-chan struct{}) int {
	select {
	case <-a:
		return 0
	case <-b:
		return 1
	}
}

// Select3 is Select2 with three channels.
func Select3(a, b, c <-chan struct{}) int {
	select {
	case <-a:
		return 0
	case <-b:
		return 1
	case <-c:
		return 2
	}
}

// Wait takes a token from token, waiting at most timeout for one (<= 0:
// for ever), and reports whether it took one. what names the wait in
// explorer traces.
func (w *TokenWait) Wait(token chan struct{}, timeout time.Duration, what string) bool {
	return w.wait(token, timeout)
}

// Block waits until ready() under the explorer, or until timeout (<= 0:
// none), and reports whether ready() held. Only for the explore build's
// controlled paths, behind Controlled(); here it is never called.
func Block(ready func() bool, timeout time.Duration, what string) bool {
	panic("sync: Block outside the explore build")
}

// Released records a release of the synchronisation object at p for the
// explorer's weak-memory mode. Nothing in a normal build.
func Released(p unsafe.Pointer) {}

// Acquired records an acquire of the synchronisation object at p for the
// explorer's weak-memory mode. Nothing in a normal build.
func Acquired(p unsafe.Pointer) {}

// WeakMemory reports whether the running schedule is in the explorer's
// weak-memory mode: the constant false in a normal build.
func WeakMemory() bool { return false }
