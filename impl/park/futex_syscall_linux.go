//go:build !explore

package park

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wsched/wsched/explore/atomic"
)

// futexWait sleeps while *addr == val, until FUTEX_WAKE or ts (nil: none)
// passes. EINTR, EAGAIN (the word changed before we slept) and ETIMEDOUT
// are all handled by the caller re-reading the word. The address of an
// atomic.Uint32 is the address of its uint32.
//
// It is syscall.Syscall6 with the runtime told that the call blocks
// (entersyscallblock, as the runtime's own notetsleepg does): the P goes
// to another thread at once, so the goroutines queued on it run and the
// process keeps GOMAXPROCS Ps running while workers sleep. Through the
// ordinary entersyscall the sleeping thread keeps its P until sysmon
// retakes it, 20 us to 10 ms later; a goroutine made runnable on that P
// meanwhile (the waiter of a task the worker just finished, the timer of
// a sleeping goroutine) waits that long, and with every P held that way
// nothing runs until sysmon's next look (docs/performance.md: the futex
// parker's profile).
//
// nosplit, as syscall.Syscall6: between entering and leaving the system
// call the goroutine must not grow its stack.
//
//go:nosplit
func futexWait(addr *atomic.Uint32, val uint32, ts *unix.Timespec) {
	entersyscallblock()
	_, _, _ = syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)),
		futexWaitPrivate, uintptr(val), uintptr(unsafe.Pointer(ts)), 0, 0)
	exitsyscall()
}

func futexWake(addr *atomic.Uint32) {
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)),
		futexWakePrivate, 1, 0, 0, 0)
}

// The runtime's entry and exit of a system call, the entry with the hint
// that the call blocks. Both are marked in the runtime as reachable by
// go:linkname (go.dev/issue/67401), with their signatures kept.
//
//go:linkname entersyscallblock runtime.entersyscallblock
func entersyscallblock()

//go:linkname exitsyscall runtime.exitsyscall
func exitsyscall()
