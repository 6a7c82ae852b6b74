package main

import (
	"os"
	"time"
)

// commandCPU is the user and system CPU time of a command that has
// ended: wait4's resource usage, which on Linux includes the times of
// every descendant the command waited for, so a go test command counts
// its compiles and its test binaries (TestCPUCountsTheCommandsChildren).
func commandCPU(ps *os.ProcessState) (time.Duration, bool) {
	if ps == nil || ps.SysUsage() == nil {
		return 0, false
	}
	return ps.UserTime() + ps.SystemTime(), true
}
