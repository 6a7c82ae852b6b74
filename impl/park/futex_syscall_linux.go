//go:build !explore

package park

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wsched/wsched/explore/atomic"
)

// futexWait sleeps while *addr == val, until FUTEX_WAKE or ts (nil: none)
// passes. EINTR, EAGAIN (the word changed before we slept) and ETIMEDOUT
// are all handled by the caller re-reading the word. The address of an
// atomic.Uint32 is the address of its uint32.
func futexWait(addr *atomic.Uint32, val uint32, ts *unix.Timespec) {
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)),
		futexWaitPrivate, uintptr(val), uintptr(unsafe.Pointer(ts)), 0, 0)
}

func futexWake(addr *atomic.Uint32) {
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)),
		futexWakePrivate, 1, 0, 0, 0)
}
