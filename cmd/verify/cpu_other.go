//go:build !linux

package main

import (
	"os"
	"time"
)

// commandCPU counts nothing here: verify checks only on Linux that a
// command's resource usage includes the processes it started (its
// compiles and test binaries), so elsewhere a layer's CPU is not shown
// rather than shown wrong.
func commandCPU(ps *os.ProcessState) (time.Duration, bool) { return 0, false }
