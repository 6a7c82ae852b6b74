package main

import (
	"fmt"
	"os/exec"
	"time"
)

// cpuTime adds up the CPU of the commands a layer ran. A command whose
// CPU is not known (commandCPU) makes the sum unknown: it is then not
// shown, rather than shown too small.
type cpuTime struct {
	total   time.Duration
	counted int // commands whose CPU is in total
	unknown int // commands that ran without a count
}

// count adds one command's CPU, as commandCPU gives it.
func (c *cpuTime) count(d time.Duration, ok bool) {
	if !ok {
		c.unknown++
		return
	}
	c.total += d
	c.counted++
}

// countEnded adds the CPU of cmd, which has ended. A command killed at its
// time limit (killed) counts as unknown: what its process group still ran
// is reaped by init, not by cmd, so its count would be too small.
func (c *cpuTime) countEnded(cmd *exec.Cmd, killed bool) {
	if killed {
		c.count(0, false)
		return
	}
	c.count(commandCPU(cmd.ProcessState))
}

func (c *cpuTime) add(o cpuTime) {
	c.total += o.total
	c.counted += o.counted
	c.unknown += o.unknown
}

// known reports the sum, and whether it is the whole of what ran.
func (c cpuTime) known() (time.Duration, bool) {
	return c.total, c.counted > 0 && c.unknown == 0
}

// cpuAndCores is the CPU and how many cores it kept busy over the wall
// time wall, as in "88.1s, 1.9 cores"; "" when the CPU is not known.
func cpuAndCores(c cpuTime, wall time.Duration) string {
	d, ok := c.known()
	if !ok {
		return ""
	}
	s := d.Round(100 * time.Millisecond).String()
	if wall > 0 {
		s += fmt.Sprintf(", %.1f cores", d.Seconds()/wall.Seconds())
	}
	return s
}
