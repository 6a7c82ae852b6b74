//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and makes its
// cancellation (a layer's or a cell's time limit) kill the whole group.
// go test starts a test binary per package and does not stop them when it
// is killed itself: without the group, a layer that timed out left its
// test binaries running, orphaned, for as long as their own timeouts.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// The group's id is its leader's pid; a negative pid names the group.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
