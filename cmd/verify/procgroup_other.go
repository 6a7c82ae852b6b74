//go:build !unix

package main

import "os/exec"

// ownGroup does nothing where there are no process groups: a time limit
// kills the command it started, and what that command started runs on.
func ownGroup(cmd *exec.Cmd) {}
